"""Sends committed updates through the channel layer: one pre-encoded frame per group (a seat, the spectators, or
everyone at the table). Consumers relay the text as is, so no state is re-read or re-encoded per socket."""

from asgiref.sync import async_to_sync
from channels.layers import get_channel_layer

from turnengine.services import Update

MESSAGE_TYPE = "frame.relay"


async def broadcast(update: Update) -> None:
    layer = get_channel_layer()
    for group, text in update.frames.items():
        await layer.group_send(group, {"type": MESSAGE_TYPE, "text": text})


def broadcast_sync(update: Update) -> None:
    """For synchronous callers (views, Celery tasks): call after the transaction has committed."""
    async_to_sync(broadcast)(update)
