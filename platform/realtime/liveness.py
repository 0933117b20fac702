"""This server process's table sockets and its presence ticker: the process side of ``turnengine.presence``.

A process keeps in memory the sockets it really holds (:class:`ProcessLife`, one per event loop: an ASGI server
runs one for its whole life). One asyncio task per life, the ticker, started with the first socket, tells the
database every ``TAPETE_PRESENCE_TICK_SECONDS`` that the process is alive and brings its connection rows in line
with those sockets (``presence.process_tick``): an open or a close whose database write failed is settled at the
next tick, and if the sweeper gave the process up for dead (a stall longer than its bound) its sockets are counted
again. The ticker stops once the process holds no socket and no row, and starts again with the next socket.

Other sockets of the process whose rows name its life (a logged-in player's lobby socket, ``social.presence``) are
:meth:`ProcessLife.hold`-ed: the ticker keeps the life registered while it holds any, and once the life is given up
(``kill -9``) the sweeper forgets their rows too.

The process's name (host, address and port it listens on) is the same for the next life of the same server, which
closes the rows of the previous life on its first tick: a daphne restarted after ``kill -9`` does not wait for the
sweeper. Without a listening port (a test's in-process server) the name holds the process id instead.
"""

from __future__ import annotations

import asyncio
import logging
import os
import socket
import uuid
import weakref
from functools import partial

from django.conf import settings
from django.utils import timezone

from realtime.broadcast import run_writer
from turnengine import presence

logger = logging.getLogger("tapete.presence")


class ProcessLife:
    def __init__(self, name: str, loop: asyncio.AbstractEventLoop) -> None:
        self.id = uuid.uuid4().hex
        self.name = name
        self.loop = loop
        self.started_at = timezone.now()
        self.live: dict[str, tuple[int, int | None]] = {}  # socket key -> (match, seat or None)
        self.held: set[str] = set()  # other sockets whose rows name this life (lobby sockets: social.presence)
        self.ticker: asyncio.Task | None = None
        self.ticked = False
        self.emptied = asyncio.Event()

    def hold(self, consumer) -> str:
        """Count another socket of ``consumer`` as held by this life (the ticker keeps ticking) until
        :meth:`release`, or until the consumer is collected; returns its key."""
        key = uuid.uuid4().hex
        self.held.add(key)
        weakref.finalize(consumer, self.held.discard, key)
        self.ensure_ticking()
        return key

    def release(self, key: str) -> None:
        self.held.discard(key)

    def ensure_ticking(self) -> None:
        if self.ticker is None or self.ticker.done():
            self.ticker = self.loop.create_task(self._tick_forever(), name="tapete-presence-ticker")

    async def _tick_forever(self) -> None:
        while True:
            self.emptied.clear()
            live = dict(self.live)
            try:
                await run_writer(
                    partial(
                        presence.process_tick,
                        process_id=self.id,
                        process_name=self.name,
                        started_at=self.started_at,
                        live=live,
                        first=not self.ticked,
                    ),
                    timeout=send_bound(),
                )
            except Exception as error:  # noqa: BLE001  (the database is away: try again at the next tick)
                logger.warning("presence tick of %s failed with %s", self.name, type(error).__name__)
            else:
                self.ticked = True
                if not live and not self.live and not self.held:
                    return  # nothing held, nothing left in the database: the next socket starts a new ticker
            try:
                await asyncio.wait_for(self.emptied.wait(), settings.TAPETE_PRESENCE_TICK_SECONDS)
            except TimeoutError:
                pass


_life: ProcessLife | None = None


def current_life(scope: dict) -> ProcessLife:
    """This process's life in the running event loop (a new loop, as in tests, is a new life)."""
    global _life
    loop = asyncio.get_running_loop()
    if _life is None or _life.loop is not loop:
        _life = ProcessLife(process_name(scope), loop)
    return _life


def process_name(scope: dict) -> str:
    server = scope.get("server")
    where = f"{server[0]}:{server[1]}" if server and len(server) > 1 and server[1] else f"pid{os.getpid()}"
    return f"{socket.gethostname()}:{where}"[:200]


def send_bound() -> float:
    """How long a presence frame may take to publish: a tick at most, since a channel layer that hangs (Redis away)
    must not stop the ticker, which would then miss its ticks and be given up for dead. A frame not sent is logged;
    the counts are in the database all the same, and pages resync."""
    return min(settings.TAPETE_BROADCAST_TIMEOUT_SECONDS, max(1.0, settings.TAPETE_PRESENCE_TICK_SECONDS))


class Presence:
    """One socket of ``consumer`` at a table, counted while it is open: :meth:`opened` after joining the table's
    groups (for a spectator, before its snapshot is read), :meth:`closed` when it closes."""

    def __init__(self, consumer, match_id: int, seat: int | None, *, user_id: int | None = None) -> None:
        self.life = current_life(consumer.scope)
        self.key = uuid.uuid4().hex
        self.match_id, self.seat, self.user_id = match_id, seat, user_id
        self.life.live[self.key] = (match_id, seat)
        # Should the consumer die without closing (an exception out of a handler), its socket stops counting
        # here once the consumer is collected, and the ticker closes its row.
        weakref.finalize(consumer, self.life.live.pop, self.key, None)

    async def opened(self) -> None:
        self.life.ensure_ticking()
        try:
            await run_writer(
                partial(
                    presence.connection_open,
                    key=self.key,
                    process_id=self.life.id,
                    process_name=self.life.name,
                    match_id=self.match_id,
                    seat=self.seat,
                    user_id=self.user_id,
                ),
                timeout=send_bound(),
            )
        except Exception as error:  # noqa: BLE001  (the socket is live: the ticker writes its row once it can)
            logger.warning("presence open left to the next tick: %s", type(error).__name__)

    async def closed(self) -> None:
        if self.life.live.pop(self.key, None) is None:
            return
        if not self.life.live:
            self.life.emptied.set()
        try:
            await run_writer(
                partial(
                    presence.connection_close,
                    key=self.key,
                    match_id=self.match_id,
                    seat=self.seat,
                ),
                timeout=send_bound(),
            )
        except Exception as error:  # noqa: BLE001  (the ticker settles it once the database answers)
            logger.warning("presence close left to the next tick: %s", type(error).__name__)
            self.life.ensure_ticking()
