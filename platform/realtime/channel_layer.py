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
"""

from __future__ import annotations

import logging

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
