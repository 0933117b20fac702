"""The embedded default's channel layer (``realtime.channel_layer.InMemoryLayer``): Channels' in-memory layer,
its sweep of expired messages at most once a second instead of on every message, and its delivery into a consumer's
inbox. Pins that the library sweeps
through ``_clean_expired`` on ``group_send`` and ``receive``: were it renamed, the override would do nothing and
the first sweep below would still happen, but the second message would be swept at once."""

import asyncio

import pytest
import redis
from django.conf import settings

from realtime.channel_layer import InMemoryLayer, RedisPubSubLayer
from realtime.dispatch import Inbox


def test_the_embedded_default_uses_it_and_redis_its_own():
    layer = "RedisPubSubLayer" if settings.REDIS_URL else "InMemoryLayer"
    assert settings.CHANNEL_LAYERS["default"]["BACKEND"] == f"realtime.channel_layer.{layer}"


@pytest.mark.asyncio
async def test_expired_messages_are_swept_at_most_once_a_second_by_group_send_and_receive():
    layer = InMemoryLayer(expiry=-1)  # every message is expired as soon as it is sent
    await layer.send("late.inmemory!a", {"type": "x"})
    await layer.group_send("table", {"type": "y"})  # the first sweep: the expired message goes
    assert "late.inmemory!a" not in layer.channels

    await layer.send("late.inmemory!a", {"type": "x"})
    await layer.group_send("table", {"type": "y"})  # within the second: no sweep
    assert layer.channels["late.inmemory!a"].qsize() == 1

    layer.swept_at -= InMemoryLayer.SWEEP_SECONDS  # a second later
    waiting = asyncio.ensure_future(layer.receive("other.inmemory!b"))  # receive sweeps too
    await asyncio.sleep(0)
    assert "late.inmemory!a" not in layer.channels
    await layer.send("other.inmemory!b", {"type": "z"})
    assert (await waiting)["type"] == "z"


@pytest.mark.asyncio
async def test_a_group_message_still_reaches_every_member():
    layer = InMemoryLayer()
    channels = [await layer.new_channel() for _ in range(3)]
    for channel in channels:
        await layer.group_add("table", channel)
    for number in range(3):
        await layer.group_send("table", {"type": "frame", "n": number})
    for channel in channels:
        assert [(await layer.receive(channel))["n"] for _ in range(3)] == [0, 1, 2]


@pytest.mark.asyncio
async def test_a_channel_delivered_into_an_inbox_gets_a_copy_of_its_own_and_its_groups_messages_until_deleted():
    layer = InMemoryLayer()
    inbox = Inbox()
    channel = await layer.new_channel_into(inbox)
    other = await layer.new_channel()
    for member in (channel, other):
        await layer.group_add("table", member)
    sent = {"type": "frame", "n": 1, "frames": {"seat": "x"}}
    await layer.send(channel, sent)
    await layer.group_send("table", {"type": "frame", "n": 2})
    assert [message["n"] for message in inbox.items] == [1, 2]
    assert inbox.items[0] == sent and inbox.items[0]["frames"] is not sent["frames"]  # a copy, as receive() gives
    assert (await layer.receive(other))["n"] == 2  # a channel of the library's own still queues for receive()
    await layer.group_discard("table", channel)
    await layer.delete_channel(channel)
    await layer.send(channel, {"type": "frame", "n": 3})
    assert [message["n"] for message in inbox.items] == [1, 2]


@pytest.mark.asyncio
async def test_a_channel_redis_could_not_subscribe_is_not_kept_to_be_subscribed_at_every_reconnect():
    layer = RedisPubSubLayer(hosts=["redis://127.0.0.1:1"])  # nothing listens there
    try:
        with pytest.raises(redis.exceptions.ConnectionError):
            await layer.new_channel_into(Inbox())
        assert layer._get_layer().channels == {}
    finally:
        await layer.flush()
