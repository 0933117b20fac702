"""No Redis subscription outlives its socket: thousands of sockets opened and closed while frames are in flight
leave the channel layer's pub/sub connection with the subscriptions it had before (``realtime.channel_layer``)."""

from __future__ import annotations

import asyncio

import pytest
import redis
from channels.layers import get_channel_layer
from channels.testing import WebsocketCommunicator
from django.conf import settings

from tapete.asgi import application
from turnengine.table_notices import LOBBY_GROUP
from turnengine.updates import encode_frame

pytestmark = [
    pytest.mark.redis,
    pytest.mark.skipif(not settings.REDIS_URL, reason="needs REDIS_URL (CI sets it)"),
    pytest.mark.django_db(transaction=True),
    pytest.mark.asyncio,
]
ROUNDS, SOCKETS_PER_ROUND = 10, 200


def subscriptions() -> set[str]:
    """This site's channels the Redis server has subscribers for."""
    server = redis.Redis.from_url(settings.REDIS_URL)
    try:
        return {name.decode() for name in server.pubsub_channels(f"{settings.TAPETE_REDIS_PREFIX}*")}
    finally:
        server.close()


async def lobby_socket() -> WebsocketCommunicator:
    socket = WebsocketCommunicator(
        application, "/ws/lobby/", headers=[(b"origin", b"http://testserver"), (b"host", b"testserver")]
    )
    connected, _ = await socket.connect(timeout=10)
    assert connected
    return socket


async def test_sockets_closed_during_a_burst_of_frames_leave_no_subscription_behind():
    layer = get_channel_layer()
    keeper = await lobby_socket()  # keeps the lobby group subscribed throughout, as an open lobby page does
    baseline = await asyncio.to_thread(subscriptions)
    frame = encode_frame("lobby", 1, {"game": "perudo", "match_id": 1, "status": "open"})
    bursting = True

    async def burst() -> None:
        while bursting:
            await layer.group_send(LOBBY_GROUP, {"type": "frame.relay", "text": frame})
            await asyncio.sleep(0)

    sender = asyncio.create_task(burst())
    try:
        for _ in range(ROUNDS):
            sockets = await asyncio.gather(*(lobby_socket() for _ in range(SOCKETS_PER_ROUND)))
            await asyncio.sleep(0.05)  # frames reach every socket's queue
            await asyncio.gather(*(socket.disconnect(timeout=10) for socket in sockets))
    finally:
        bursting = False
        await sender
    await asyncio.sleep(0.2)
    assert await asyncio.to_thread(subscriptions) == baseline
    await keeper.disconnect()
