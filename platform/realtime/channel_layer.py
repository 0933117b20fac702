"""channels_redis' pub/sub channel layer, with one addition: ``group_send_many`` publishes several groups' messages
in one Redis round trip.

A move sends one frame per seat's group (and the spectators'). The pub/sub layer's ``group_send`` publishes under
a per-shard lock and waits for Redis's reply, so a move's frames left one after the other, each a round trip
behind the last: the last seat's view was always one Redis round trip later than the first (``bench/ws_load.py``).
Here the frames of one update go in one pipeline per shard, under the same lock the layer's own publishes take.
That reaches into the layer's internals (its per-loop layer, shards and their lock), which channels_redis does not
promise to keep: ``tests/realtime/test_channel_layer.py`` runs against Redis and fails if a release moves them.
"""

from __future__ import annotations

import asyncio

from channels_redis.pubsub import RedisPubSubChannelLayer


class PubSubChannelLayer(RedisPubSubChannelLayer):
    async def group_send_many(self, messages: dict[str, dict]) -> None:
        """Send each group (the dict's keys) its message; every shard's messages go in one round trip."""
        layer = self._get_layer()
        by_shard: dict = {}
        for group, message in messages.items():
            channel = layer._get_group_channel_name(group)
            by_shard.setdefault(layer._get_shard(channel), []).append((channel, self.serialize(message)))
        await asyncio.gather(*(_publish_all(shard, items) for shard, items in by_shard.items()))


async def _publish_all(shard, items: list[tuple[str, bytes]]) -> None:
    async with shard._lock:
        shard._ensure_redis()
        async with shard._redis.pipeline(transaction=False) as pipeline:
            for channel, data in items:
                pipeline.publish(channel, data)
            await pipeline.execute()
