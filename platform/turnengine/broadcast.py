"""Sends committed updates through the channel layer: one pre-encoded frame per group (a seat, the spectators, or
everyone at the table). Consumers relay the text as is, so no state is re-read or re-encoded per socket.

On the embedded default the channel layer lives in the web process's memory, which a Celery worker (another
process) cannot reach: there the worker posts its frames to the web process's relay endpoint
(``TAPETE_RELAY_URL``, authenticated by ``TAPETE_RELAY_TOKEN``; ``./dev serve`` sets both). With Redis, everyone
shares the Redis channel layer and no relay is used.
"""

import asyncio
import json
import urllib.request

from asgiref.sync import async_to_sync
from channels.layers import get_channel_layer
from django.conf import settings

from turnengine.services import Update

MESSAGE_TYPE = "frame.relay"
RELAY_HEADER = "X-Tapete-Relay-Token"


async def broadcast(update: Update) -> None:
    """Send every group its frame: with Redis, all of them in one round trip (``turnengine.channel_layer``)."""
    layer = get_channel_layer()
    messages = {group: {"type": MESSAGE_TYPE, "text": text} for group, text in update.frames.items()}
    if hasattr(layer, "group_send_many"):
        await layer.group_send_many(messages)
    else:
        await asyncio.gather(*(layer.group_send(group, message) for group, message in messages.items()))


def broadcast_sync(update: Update) -> None:
    """For synchronous callers (views, Celery tasks): call after the transaction has committed."""
    if settings.TAPETE_RELAY_URL:
        request = urllib.request.Request(
            settings.TAPETE_RELAY_URL,
            data=json.dumps(update.frames).encode(),
            headers={"Content-Type": "application/json", RELAY_HEADER: settings.TAPETE_RELAY_TOKEN},
            method="POST",
        )
        with urllib.request.urlopen(request, timeout=5):
            return
    async_to_sync(broadcast)(update)
