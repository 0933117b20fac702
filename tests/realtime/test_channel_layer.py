"""The Redis pub/sub channel layer's ``group_send_many`` (``realtime.channel_layer``): each group gets its own
message, and only its members get it."""

import asyncio

import pytest
from django.conf import settings
from realtime.channel_layer import PubSubChannelLayer

pytestmark = [
    pytest.mark.redis,
    pytest.mark.skipif(not settings.REDIS_URL, reason="needs REDIS_URL (CI sets it)"),
]


async def test_each_group_receives_its_own_message_and_nobody_else_does():
    layer = PubSubChannelLayer(hosts=[settings.REDIS_URL], prefix="test-send-many")
    try:
        seat0, seat1, outsider = [await layer.new_channel() for _ in range(3)]
        await layer.group_add("table.seat0", seat0)
        await layer.group_add("table.seat1", seat1)
        await layer.group_add("table.other", outsider)
        await layer.group_send_many(
            {
                "table.seat0": {"type": "frame.relay", "text": "hand of seat 0"},
                "table.seat1": {"type": "frame.relay", "text": "hand of seat 1"},
            }
        )
        assert (await asyncio.wait_for(layer.receive(seat0), 5))["text"] == "hand of seat 0"
        assert (await asyncio.wait_for(layer.receive(seat1), 5))["text"] == "hand of seat 1"
        # Both publishes were answered before group_send_many returned: anything more would be here by now.
        for channel in (seat0, seat1, outsider):
            with pytest.raises(TimeoutError):
                await asyncio.wait_for(layer.receive(channel), 0.3)
    finally:
        await layer.flush()
