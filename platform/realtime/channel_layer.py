"""The Redis channel layer, with the one thing channels_redis' pub/sub layer leaves out: a consumer that ends
gives up its channel's Redis subscription.

``channels_redis.pubsub`` (4.3; the test below pins the behaviour this relies on) subscribes each consumer's channel in ``new_channel()``
and unsubscribes it only when a pending ``receive()`` on it is cancelled, assuming that Channels cancels it when the
consumer ends. Channels does not always: ``channels.utils.await_many_dispatch`` cancels its tasks on exit, but a
``receive()`` that already returned a message (a frame arrived in the same turn of the loop as the client's
disconnect) is done, so nothing is cancelled, and the channel stays subscribed, and in the layer's memory, for the
life of the process, and is subscribed again after every Redis reconnect. Measured on real Redis: 200 lobby sockets
closed while frames were sent to their group left dozens subscribed (``tests/realtime/test_pubsub_subscriptions.py``).
Reported upstream as django/channels_redis#276 ("Memory leak when using channels_redis when using PubSub layer"),
where the layer's author names the cause and the missing counterpart of ``new_channel()``; his code comment in
``receive()`` calls it ``delete_channel()``. This module adds it, and ``realtime.sockets.FrameSocket`` calls it
when its consumer ends, whatever ended it.

It also publishes an update's messages in one round trip (:meth:`RedisPubSubLayer.group_send_many`): the library's
``group_send`` takes the shard's lock and sends one ``PUBLISH`` per group, waiting for each answer, where a move
publishes two or three frames. A pipeline of redis-py (the client channels_redis already uses) sends them together:
``bench/publish_cost.py`` measured three 2.9 KB frames at 106–131 µs of CPU pipelined against 215–221 µs one by
one (bench/RESULTS.md). The layer's parts it uses (the loop's layer, the shards, their lock and client, the serializer)
are pinned by ``tests/realtime/test_group_send_many.py``.
"""

from __future__ import annotations

import asyncio
import logging

from channels.layers import BaseChannelLayer
from channels_redis.pubsub import RedisPubSubChannelLayer

logger = logging.getLogger("tapete.websocket")


class RedisPubSubLayer(RedisPubSubChannelLayer):
    async def delete_channel(self, channel: str) -> None:
        """Forget ``channel`` and unsubscribe it, as the library's own clean-up in ``receive()`` does; nothing if
        that clean-up already ran."""
        layer = self._get_layer()
        if layer.channels.pop(channel, None) is not None:
            try:
                await layer._get_shard(channel).unsubscribe(channel)
            except Exception as error:  # noqa: BLE001  (Redis unreachable: the socket is closing all the same)
                logger.warning("channel %s not unsubscribed: %s", channel, type(error).__name__)

    async def group_send_many(self, sends: list[tuple[str, dict]]) -> None:
        """Publish each ``(group, message)``, in order, one pipelined round trip per Redis shard."""
        layer = self._get_layer()
        by_shard: dict = {}
        for group, message in sends:
            channel = layer._get_group_channel_name(group)
            by_shard.setdefault(layer._get_shard(channel), []).append((channel, self.serialize(message)))
        await asyncio.gather(*(_publish_pipelined(shard, items) for shard, items in by_shard.items()))


async def _publish_pipelined(shard, items: list[tuple[str, bytes]]) -> None:
    async with shard._lock:  # as the library's own publish: one command stream per shard at a time
        shard._ensure_redis()
        pipeline = shard._redis.pipeline(transaction=False)
        for channel, data in items:
            pipeline.publish(channel, data)
        await pipeline.execute()


async def group_send_many(layer: BaseChannelLayer, sends: list[tuple[str, dict]]) -> None:
    """Send each ``(group, message)`` in order: pipelined on the Redis layer, one ``group_send`` after another on
    any other (the embedded default's in-memory layer)."""
    if isinstance(layer, RedisPubSubLayer):
        await layer.group_send_many(sends)
        return
    for group, message in sends:
        await layer.group_send(group, message)
