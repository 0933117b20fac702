"""An update's messages leave in one pipelined round trip on Redis and arrive in order (``realtime.channel_layer``):
this pins the parts of channels_redis' pub/sub layer that the pipeline uses, on the real Redis server."""

from __future__ import annotations

import asyncio

import pytest
from channels.layers import InMemoryChannelLayer, get_channel_layer
from django.conf import settings

from realtime.channel_layer import RedisPubSubLayer, group_send_many

pytestmark = pytest.mark.asyncio


async def _received(layer, channel: str, count: int) -> list[dict]:
    return [await asyncio.wait_for(layer.receive(channel), 5) for _ in range(count)]


async def _three_readers(layer) -> tuple[str, str, str]:
    """A reader of seat 0, one of seat 1 and one of both groups, as two sockets and a moderator's would be."""
    seat0, seat1, both = [await layer.new_channel() for _ in range(3)]
    await layer.group_add("pipe.seat0", seat0)
    await layer.group_add("pipe.seat1", seat1)
    for group in ("pipe.seat0", "pipe.seat1"):
        await layer.group_add(group, both)
    return seat0, seat1, both


async def _sends_in_order(layer) -> None:
    seat0, seat1, both = await _three_readers(layer)
    await group_send_many(
        layer,
        [
            ("pipe.seat1", {"type": "spectators.closed"}),
            ("pipe.seat0", {"type": "frame.relay", "text": "view 0"}),
            ("pipe.seat1", {"type": "frame.relay", "text": "view 1"}),
        ],
    )
    assert await _received(layer, seat0, 1) == [{"type": "frame.relay", "text": "view 0"}]
    assert await _received(layer, seat1, 2) == [
        {"type": "spectators.closed"},
        {"type": "frame.relay", "text": "view 1"},
    ]
    assert await _received(layer, both, 3) == [
        {"type": "spectators.closed"},
        {"type": "frame.relay", "text": "view 0"},
        {"type": "frame.relay", "text": "view 1"},
    ]
    for channel in (seat0, seat1, both):
        with pytest.raises(asyncio.TimeoutError):  # each message once
            await asyncio.wait_for(layer.receive(channel), 0.3)


@pytest.mark.redis
@pytest.mark.skipif(not settings.REDIS_URL, reason="needs REDIS_URL (CI sets it)")
async def test_on_redis_each_group_gets_its_messages_once_and_in_the_order_they_were_given():
    layer = get_channel_layer()
    assert isinstance(layer, RedisPubSubLayer)
    await _sends_in_order(layer)


@pytest.mark.redis
@pytest.mark.skipif(not settings.REDIS_URL, reason="needs REDIS_URL (CI sets it)")
async def test_on_redis_the_pipeline_is_one_round_trip_per_shard(monkeypatch):
    layer = get_channel_layer()
    seat0, _, _ = await _three_readers(layer)
    shards = layer._get_layer()._shards
    executed = []
    for shard in shards:
        shard._ensure_redis()
        real_pipeline = shard._redis.pipeline

        def counting(*args, _real=real_pipeline, **kwargs):
            pipeline = _real(*args, **kwargs)
            real_execute = pipeline.execute

            async def execute(*a, **k):
                executed.append(len(pipeline.command_stack))
                return await real_execute(*a, **k)

            pipeline.execute = execute
            return pipeline

        monkeypatch.setattr(shard._redis, "pipeline", counting)
    sends = [("pipe.seat0", {"type": "frame.relay", "text": f"view {n}"}) for n in range(3)]
    await group_send_many(layer, sends)
    assert sum(executed) == 3 and 1 <= len(executed) <= len(shards)  # three publishes, one execute per shard
    assert [m["text"] for m in await _received(layer, seat0, 3)] == ["view 0", "view 1", "view 2"]


async def test_the_in_memory_layer_sends_them_one_after_another_in_order():
    await _sends_in_order(InMemoryChannelLayer())
