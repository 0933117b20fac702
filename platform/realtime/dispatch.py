"""Channels' consumer loop for the site's websocket consumers, with two costs per message left out.

``MessageLoop`` is ``channels.consumer.AsyncConsumer.__call__`` (Channels 4.3) with its own loop and dispatch:

* **No task and no ``asyncio.wait`` per message.** Channels' ``await_many_dispatch`` makes a new task for each
  message it awaits (one per source: the client's frames and the channel layer's) and waits for the first with
  ``asyncio.wait``, which hooks and unhooks a callback on each: about 6 % of a server's samples at 500 games
  (``bench/RESULTS.md``). Here one task per source, for the consumer's life, puts what it receives in the
  consumer's :class:`Inbox`, and the consumer takes its messages from there one at a time, in the order they came,
  in its own task, as Channels does. A source that fails fails the consumer, as in Channels.
* **No database-thread hop per message.** Since Channels 4.2, ``AsyncConsumer.dispatch`` runs
  ``close_old_connections`` through ``sync_to_async`` before every handler. That call runs on the process's single
  database thread, so every frame relayed to a socket queued there behind the moves being committed: under load on
  PostgreSQL most of a move's round trip was spent waiting for that thread. The site's consumers reach the database
  only through ``database_sync_to_async``, which closes stale connections before and after each call itself, so the
  hop adds nothing for them. Measured against the stock method at 250 games (``bench/RESULTS.md``, 2026-12-03):
  with the hop, every move's round trip was 8-13 ms slower at p50.

* **No task at all between a source and the consumer, where the source can deliver.** The site's server
  (``tapete.serve``) gives each websocket an :class:`Inbox` for daphne's input queue, and both of the site's channel
  layers (``realtime.channel_layer``) deliver a channel's messages into one as they come (``new_channel_into``):
  the consumer reads both from that one inbox, with no pump task and no queue in between. Each pump and each
  ``asyncio.Queue`` weighed about 1.4 and 3 KiB per idle socket (``bench/idle_sockets.py --breakdown``), and each
  message woke one task more on its way. A source that cannot (Channels' test communicator, daphne on its own, a
  layer of Channels' own) is pumped into the inbox as above.

``tests/realtime/test_dispatch_pin.py`` pins the Channels code this stands in for: if Channels changes it, the test
says so, and this module is to be compared with the new version.
"""

from __future__ import annotations

import asyncio
import functools

from asgiref.sync import async_to_sync
from channels.consumer import get_handler_name
from channels.exceptions import StopConsumer
from channels.layers import get_channel_layer


class MessageLoop:
    """Mix in before a Channels consumer class."""

    async def __call__(self, scope, receive, send) -> None:
        self.scope = scope
        self.channel_layer = get_channel_layer(self.channel_layer_alias)
        inbox = getattr(receive, "__self__", None)
        sources = []
        if not isinstance(inbox, Inbox):  # not the site's server (tapete.serve): pumped into an inbox of our own
            inbox = Inbox()
            sources.append(receive)
        decode = None
        if self.channel_layer is not None:
            new_channel_into = getattr(self.channel_layer, "new_channel_into", None)
            if new_channel_into is not None:
                self.channel_name = await new_channel_into(inbox)
                decode = getattr(self.channel_layer, "deserialize", None)  # the Redis layer's bytes
            else:
                self.channel_name = await self.channel_layer.new_channel()
                sources.append(functools.partial(self.channel_layer.receive, self.channel_name))
        self.base_send = async_to_sync(send) if self._sync else send
        try:
            await dispatch_in_turn(sources, self.dispatch, inbox=inbox, decode=decode)
        except StopConsumer:
            pass
        finally:
            # The channel is given up however the consumer ended (``realtime.channel_layer`` says why Channels' own
            # end of a consumer does not always do it, and a channel delivered into the inbox has no receive() to
            # cancel at all).
            delete_channel = getattr(self.channel_layer, "delete_channel", None)
            if delete_channel is not None and getattr(self, "channel_name", None):
                await delete_channel(self.channel_name)

    async def dispatch(self, message: dict) -> None:
        handler = getattr(self, get_handler_name(message), None)
        if handler is None:
            raise ValueError(f"No handler for message type {message['type']}")
        await handler(message)


class Inbox:
    """What a consumer's sources delivered and it has not handled yet, in the order it came: the client's events
    (daphne puts them here, as in its input queue), a channel layer's messages (dicts; ``bytes`` as the Redis layer
    delivers them, decoded when read), or the exception a source failed with. One reader. Not an ``asyncio.Queue``:
    one weighs 3.2 KiB (three deques and an event), and each socket holds one."""

    __slots__ = ("items", "waiter")

    def __init__(self) -> None:
        self.items: list = []
        self.waiter: asyncio.Future | None = None

    def put_nowait(self, item) -> None:
        self.items.append(item)
        if self.waiter is not None and not self.waiter.done():
            self.waiter.set_result(None)

    async def get(self):
        while not self.items:
            self.waiter = asyncio.get_running_loop().create_future()
            try:
                await self.waiter
            finally:
                self.waiter = None
        return self.items.pop(0)


async def dispatch_in_turn(sources: list, dispatch, *, inbox: Inbox | None = None, decode=None) -> None:
    """Hand each message of ``inbox`` to ``dispatch``, one at a time, in the order they came, until ``dispatch`` or a
    source raises; meanwhile await messages from every one of ``sources`` (coroutine functions) at once and put them
    in it. ``decode`` turns a ``bytes`` item (the Redis layer's message) into its message."""
    inbox = Inbox() if inbox is None else inbox

    async def pump(source) -> None:
        try:
            while True:
                inbox.put_nowait(await source())
        except asyncio.CancelledError:
            raise
        except BaseException as error:  # noqa: BLE001  (handed to the consumer, which raises it)
            inbox.put_nowait(error)

    pumps = [asyncio.ensure_future(pump(source)) for source in sources]
    try:
        while True:
            message = await inbox.get()
            if message.__class__ is bytes:
                message = decode(message)
            elif isinstance(message, BaseException):
                raise message
            await dispatch(message)
    finally:
        for task in pumps:
            task.cancel()
        for task in pumps:
            try:
                await task
            except asyncio.CancelledError:
                pass
