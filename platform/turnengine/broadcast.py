"""Sends committed updates through the channel layer: one pre-encoded frame per group (a seat, the spectators, or
everyone at the table). Consumers relay the text as is, so no state is re-read or re-encoded per socket.

On the embedded default the channel layer lives in the web process's memory, which a Celery worker (another
process) cannot reach: there the worker posts its frames to the web process's relay endpoint
(``TAPETE_RELAY_URL``, authenticated by ``TAPETE_RELAY_TOKEN``; ``./dev serve`` sets both). With Redis, everyone
shares the Redis channel layer and no relay is used.

Frames that cannot be published (Redis down, the relay unreachable, no answer within
``TAPETE_BROADCAST_TIMEOUT_SECONDS``) do not fail the move or the request that committed them: the failure is
logged in one line and recorded on the match (``timers.delivery_failed``, which holds its deadlines), and each
process's heartbeat (``turnengine.heartbeat``) brings the sockets up to date from the database.
"""

import asyncio
import json
import logging
import urllib.request

from asgiref.sync import async_to_sync
from channels.db import database_sync_to_async
from channels.layers import get_channel_layer
from django.conf import settings
from django.db import DatabaseError

from turnengine import timers
from turnengine.services import Update

MESSAGE_TYPE = "frame.relay"
RELAY_HEADER = "X-Tapete-Relay-Token"

logger = logging.getLogger("tapete.delivery")


async def broadcast(update: Update) -> bool:
    """Send every group its frame; False (logged and recorded) if they could not be published."""
    try:
        await asyncio.wait_for(_publish(update), settings.TAPETE_BROADCAST_TIMEOUT_SECONDS)
    except Exception as error:  # noqa: BLE001  (any failure of the layer: the heartbeat delivers instead)
        await database_sync_to_async(undelivered)(update, error)
        return False
    return True


async def _publish(update: Update) -> None:
    """With Redis, all of an update's frames in one round trip (``turnengine.channel_layer``)."""
    layer = get_channel_layer()
    messages = {group: {"type": MESSAGE_TYPE, "text": text} for group, text in update.frames.items()}
    if hasattr(layer, "group_send_many"):
        await layer.group_send_many(messages)
    else:
        await asyncio.gather(*(layer.group_send(group, message) for group, message in messages.items()))


def broadcast_sync(update: Update) -> bool:
    """For synchronous callers (views, Celery tasks): call after the transaction has committed."""
    if not update.frames:
        return True
    try:
        if settings.TAPETE_RELAY_URL:
            request = urllib.request.Request(
                settings.TAPETE_RELAY_URL,
                data=json.dumps(update.frames).encode(),
                headers={"Content-Type": "application/json", RELAY_HEADER: settings.TAPETE_RELAY_TOKEN},
                method="POST",
            )
            with urllib.request.urlopen(request, timeout=settings.TAPETE_BROADCAST_TIMEOUT_SECONDS):
                return True
        return async_to_sync(broadcast)(update)
    except Exception as error:  # noqa: BLE001  (the relay unreachable: as for the channel layer)
        undelivered(update, error)
        return False


def undelivered(update: Update, error: BaseException) -> None:
    """One line in the log; for a new version's views, the failure recorded on the match."""
    logger.warning(
        "frames for %s could not be published (%s); the heartbeat will deliver them",
        ", ".join(sorted(update.frames)) or "nobody",
        type(error).__name__,
    )
    if update.match_id is None or update.version is None:
        return
    try:
        timers.delivery_failed(match_id=update.match_id, version=update.version)
    except DatabaseError as db_error:
        logger.warning(
            "the failed delivery of match %s could not be recorded (%s)", update.match_id, db_error
        )
