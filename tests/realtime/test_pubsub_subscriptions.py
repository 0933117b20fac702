"""No Redis subscription outlives its socket: thousands of sockets opened and closed while frames are in flight
leave the channel layer's pub/sub connection with the subscriptions it had before (``realtime.channel_layer``); a
channel delivered straight into a consumer's inbox gets its messages there and is unsubscribed when deleted."""

from __future__ import annotations

import asyncio

import pytest
import redis
from channels.layers import get_channel_layer
from channels.testing import WebsocketCommunicator
from django.conf import settings

from realtime.dispatch import Inbox
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


async def test_a_channel_delivered_into_an_inbox_gets_its_own_and_its_groups_messages_and_goes_when_deleted():
    """``RedisPubSubLayer.new_channel_into``: the library's reader puts each message of the channel, and of its
    groups, in the inbox as the bytes Redis gave, in the order sent; ``delete_channel`` unsubscribes it."""
    layer = get_channel_layer()
    inbox = Inbox()
    channel = await layer.new_channel_into(inbox)
    await layer.group_add("pinned.group", channel)
    assert channel in await asyncio.to_thread(subscriptions)
    await layer.send(channel, {"type": "frame.relay", "n": 1})
    await layer.group_send("pinned.group", {"type": "frame.relay", "n": 2})
    received = [await asyncio.wait_for(inbox.get(), 5) for _ in range(2)]
    assert all(isinstance(data, bytes) for data in received)
    assert [layer.deserialize(data)["n"] for data in received] == [1, 2]
    await layer.group_discard("pinned.group", channel)
    await layer.delete_channel(channel)
    assert channel not in await asyncio.to_thread(subscriptions)
    assert channel not in layer._get_layer().channels
