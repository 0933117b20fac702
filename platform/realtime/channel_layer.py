"""The site's two channel layers, each a library's with what it lacks here.

**Redis** (``RedisPubSubLayer``): channels_redis' pub/sub layer, with the one thing it leaves out: a consumer that
ends gives up its channel's Redis subscription.

``channels_redis.pubsub`` (4.3; the test below pins the behaviour this relies on) subscribes each consumer's channel in ``new_channel()``
and unsubscribes it only when a pending ``receive()`` on it is cancelled, assuming that Channels cancels it when the
consumer ends. Channels does not always: ``channels.utils.await_many_dispatch`` cancels its tasks on exit, but a
``receive()`` that already returned a message (a frame arrived in the same turn of the loop as the client's
disconnect) is done, so nothing is cancelled, and the channel stays subscribed, and in the layer's memory, for the
life of the process, and is subscribed again after every Redis reconnect. Measured on real Redis: 200 lobby sockets
closed while frames were sent to their group left dozens subscribed (``tests/realtime/test_pubsub_subscriptions.py``).
Reported upstream as django/channels_redis#276 ("Memory leak when using channels_redis when using PubSub layer"),
where the layer's author names the cause and the missing counterpart of ``new_channel()``; his code comment in
``receive()`` calls it ``delete_channel()``. This module adds it, and the site's consumers' loop
(``realtime.dispatch.MessageLoop``) calls it when a consumer ends, whatever ended it; a channel delivered
straight into its consumer's inbox (below) has no pending ``receive()`` to cancel at all.

It also delivers a consumer's messages straight into the consumer's inbox (``new_channel_into``; the library keeps
an ``asyncio.Queue`` per channel, which a task of the consumer awaits): the library's reader puts each message it
reads from Redis in the channel's entry of ``channels`` with ``put_nowait``, so the consumer's inbox
(``realtime.dispatch.Inbox``) stands there instead, and gets the message's bytes as they came, decoded by the
consumer when it reads them. ``tests/realtime/test_channel_layer.py`` pins the library's side of it.

**In memory** (``InMemoryLayer``, the embedded default's): Channels' in-memory layer sweeps every channel's queue
and every group's members for expired entries on each ``receive()`` and ``group_send()``, so each message cost a walk
over every socket of the process: 31 % of the server's CPU at 100 games (``bench/RESULTS.md``, 2026-12-06, 18:26).
Messages expire after 60 s and group memberships after a day, so a sweep a second is enough: an expired message may
be dropped up to a second later, which nothing here can tell. ``_clean_expired`` is the library's own (Channels 4.3);
``tests/realtime/test_channel_layer.py`` pins that the library sweeps through it.

It delivers into a consumer's inbox too (``new_channel_into``: a copy of each message, as the library's ``receive()``
returns; no queue, no expiry, no capacity for a consumer that reads as it goes), and its ``group_send`` sends to
each member in turn, where the library makes a task per member for a ``send`` that never waits.
"""

from __future__ import annotations

import logging
import time
import uuid
from copy import deepcopy

from channels.exceptions import ChannelFull
from channels.layers import InMemoryChannelLayer
from channels_redis.pubsub import RedisPubSubChannelLayer

logger = logging.getLogger("tapete.websocket")


class RedisPubSubLayer(RedisPubSubChannelLayer):
    async def new_channel_into(self, inbox, prefix: str = "specific.") -> str:
        """A new channel, as ``new_channel()`` makes, whose messages are put in ``inbox`` (anything with
        ``put_nowait``) as the bytes Redis gave (decode them with ``deserialize``), not kept for ``receive()``."""
        layer = self._get_layer()
        channel = f"{layer.prefix}{prefix}{uuid.uuid4().hex}"
        layer.channels[channel] = inbox
        try:
            await layer._get_shard(channel).subscribe(channel)
        except BaseException:
            del layer.channels[channel]  # not left to be subscribed again at every reconnect
            raise
        return channel

    async def delete_channel(self, channel: str) -> None:
        """Forget ``channel`` and unsubscribe it, as the library's own clean-up in ``receive()`` does; nothing if
        that clean-up already ran."""
        layer = self._get_layer()
        if layer.channels.pop(channel, None) is not None:
            try:
                await layer._get_shard(channel).unsubscribe(channel)
            except Exception as error:  # noqa: BLE001  (Redis unreachable: the socket is closing all the same)
                logger.warning("channel %s not unsubscribed: %s", channel, type(error).__name__)


class InMemoryLayer(InMemoryChannelLayer):
    SWEEP_SECONDS = 1.0

    def __init__(self, *args, **kwargs) -> None:
        super().__init__(*args, **kwargs)
        self.swept_at = float("-inf")
        self.inboxes: dict = {}

    async def new_channel_into(self, inbox, prefix: str = "specific.") -> str:
        """A new channel whose messages are put in ``inbox`` (anything with ``put_nowait``), each a copy of the
        message sent, as the library's ``receive()`` would return it, instead of queued for ``receive()``."""
        channel = await self.new_channel(prefix)
        self.inboxes[channel] = inbox
        return channel

    async def delete_channel(self, channel: str) -> None:
        """Stop delivering ``channel`` into its inbox (the consumer left its groups itself)."""
        self.inboxes.pop(channel, None)

    async def send(self, channel: str, message: dict) -> None:
        inbox = self.inboxes.get(channel)
        if inbox is None:
            return await super().send(channel, message)
        assert isinstance(message, dict), "message is not a dict"  # as the library's own send checks
        inbox.put_nowait(deepcopy(message))

    async def group_send(self, group: str, message: dict) -> None:
        """The library's, less a task per member: its ``send`` never waits, and the library made a task for each
        member's and awaited them with ``as_completed``."""
        assert isinstance(message, dict), "Message is not a dict"
        self.require_valid_group_name(group)
        self._clean_expired()
        for channel in list(self.groups.get(group, ())):
            try:
                await self.send(channel, message)
            except ChannelFull:
                pass

    async def flush(self) -> None:
        await super().flush()
        self.inboxes = {}

    def _clean_expired(self) -> None:
        now = time.monotonic()
        if now - self.swept_at >= self.SWEEP_SECONDS:
            self.swept_at = now
            super()._clean_expired()
