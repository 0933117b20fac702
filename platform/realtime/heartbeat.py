"""The heartbeat of an ASGI process: its match sockets are never left behind silently.

One asyncio task per process (not one per socket), started with the process's first match socket and stopped
with its last (never, with ``TAPETE_SCHEDULE_HEARTBEAT`` off: the tests beat themselves), beats each of the
process's matches every ``TAPETE_HEARTBEAT_SECONDS``, a part of them at a time (``BEAT_PART_SECONDS``: at the 5 s
default, a tenth of the matches every half second, so that no moment carries the whole process's beat). Each
part, it

1. reads the current version of every match of the part that has a socket in this process, in one query;
2. brings each socket that is behind (the last view it was sent is older) up to date with a snapshot built for its
   own seat (``MatchConsumer.catch_up``), once the match's last commit is older than ``TAPETE_DELIVERY_BOUND_SECONDS``
   or its delivery failed (a younger commit's views are still on their way: such a socket gets nothing this beat,
   not even the heartbeat, which would overtake the view and make the client ask ``sync`` for nothing). Its frames
   were lost: the channel layer was down when they were published (``realtime.broadcast``), or this process was not
   subscribed yet when Redis came back. The database owns the truth, so this needs neither the channel layer nor the
   client;
3. before that, re-arms the running clocks of those sockets' seats, whose view is late (``timers.seats_rearm``), so
   their snapshots show the time they really have;
4. sends every socket a ``heartbeat`` frame carrying the match's version (docs/protocol.md): a client that does not
   have that version asks ``sync``. It lets the event loop run between two matches, so that a beat over a
   thousand sockets does not hold up the moves that come meanwhile.

Before each part, a probe through the channel layer (``realtime.layerwatch``) tells whether this process hears it:
while it does not, and once more when it does again, every socket of the process that is behind is healed at once
(:meth:`Heartbeat.heal_all`), however young its match's last commit, since no view is on its way then. The matches
to heal are healed together, not one after another: each heal ends with a publish that a deaf layer holds for the
broadcast timeout.

A failing beat (the database down) is logged in one line and the next one tries again.
"""

from __future__ import annotations

import asyncio
import logging
from datetime import timedelta
from functools import partial

from channels.db import database_sync_to_async
from django.conf import settings
from django.utils import timezone

from realtime.broadcast import run_writer
from realtime.layerwatch import LayerWatch
from realtime.weakgroups import WeakGroups
from turnengine import timers, updates
from turnengine.models import Match

logger = logging.getLogger("tapete.delivery")

# How often a part of the beat runs. A whole beat at once held the moves of the next tens of milliseconds behind it
# every period (bench/RESULTS.md, 2026-12-06, 15:04 and 16:29); a period shorter than two of these is beaten whole.
BEAT_PART_SECONDS = 0.5


def beat_parts(period: float) -> int:
    """Into how many parts a beat every ``period`` seconds is split: a match is in part ``match_id % parts``."""
    return max(1, int(period / BEAT_PART_SECONDS))


class Heartbeat:
    def __init__(self) -> None:
        self.sockets = WeakGroups()  # match id -> its sockets
        self.task: asyncio.Task | None = None

    def add(self, socket) -> None:
        """Count a match socket (a ``MatchConsumer`` after its snapshot was sent) in this process's beats."""
        self.sockets.add(socket.match_id, socket)
        if not settings.TAPETE_SCHEDULE_HEARTBEAT:
            return
        loop = asyncio.get_running_loop()
        if self.task is None or self.task.done() or self.task.get_loop() is not loop:
            self.task = loop.create_task(self._run(), name="tapete-heartbeat")

    def discard(self, socket) -> None:
        self.sockets.discard(getattr(socket, "match_id", None), socket)
        if not self.sockets and self.task is not None:
            self.task.cancel()
            self.task = None

    async def _run(self) -> None:
        period = settings.TAPETE_HEARTBEAT_SECONDS
        parts = beat_parts(period)
        part = 0
        watch = LayerWatch()
        try:
            while True:
                await asyncio.sleep(period / parts)
                try:
                    if await watch.tick():
                        await self.heal_all()
                    await self.beat(part, parts)
                except Exception as error:  # noqa: BLE001  (the next beat tries again)
                    logger.warning("heartbeat failed: %s", type(error).__name__)
                part = (part + 1) % parts
        finally:
            watch.close()

    async def beat(self, part: int = 0, parts: int = 1) -> None:
        """One beat over the match sockets of this process whose match is in ``part`` of ``parts`` (all of them by
        default: the task's body; tests call it directly)."""
        by_match = self.sockets.members(where=None if parts == 1 else lambda match_id: match_id % parts == part)
        now = timezone.now()
        compared = [found async for found in self._compare(by_match)]
        await self._heal_together(
            [(match_id, version, behind) for match_id, _sockets, version, late, behind in compared if late and behind],
            now=now,
        )
        for _match_id, sockets, version, late, behind in compared:
            if not late:  # the last commit is younger than the bound: its views are still on their way
                sockets = [socket for socket in sockets if socket not in behind]
            frame = updates.encode_frame("heartbeat", version, {})
            for socket in sockets:
                await socket.send_quietly(frame)
            # A send never suspends (it is written to the socket's transport at once): without this, a beat held the
            # event loop while it wrote to every socket of the process, and the moves that came meanwhile waited
            # (up to 108 ms every beat at 1,000 sockets: bench/RESULTS.md, 2026-12-06, 15:04–15:21).
            await asyncio.sleep(0)

    async def heal_all(self) -> None:
        """Bring every socket of this process that is behind up to date now, however young its match's last commit:
        the channel layer was not heard (``realtime.layerwatch``), so no view is on its way."""
        now = timezone.now()
        compared = [found async for found in self._compare(self.sockets.members())]
        await self._heal_together(
            [(match_id, version, behind) for match_id, _sockets, version, _late, behind in compared if behind],
            now=now,
        )

    async def _heal_together(self, matches: list[tuple[int, int, list]], *, now) -> None:
        """:meth:`heal` each (match id, version, sockets behind) of ``matches`` together, not one after another: a
        heal ends with the re-armed clocks' publish, which a layer that does not answer holds for the whole
        broadcast timeout, so that one after another a deaf process's last match would be healed only after a
        timeout for every match before it. A heal that fails is logged; the others go on."""
        healed = await asyncio.gather(
            *(self.heal(match_id, version, behind, now=now) for match_id, version, behind in matches),
            return_exceptions=True,
        )
        for (match_id, _version, _behind), outcome in zip(matches, healed, strict=True):
            if isinstance(outcome, Exception):
                logger.warning("heartbeat: match %s could not be healed (%s)", match_id, type(outcome).__name__)
            elif isinstance(outcome, BaseException):  # a cancellation of the beat, not of one heal
                raise outcome

    @staticmethod
    async def _compare(by_match: dict):
        """For each match of ``by_match`` (match id -> its sockets) found in the database, in one query: its id, its
        sockets, its version, whether its views are late (``current_versions``) and the sockets behind it."""
        if not by_match:
            return
        current = await database_sync_to_async(current_versions)(list(by_match))
        for match_id, sockets in by_match.items():
            if match_id in current:
                version, late = current[match_id]
                yield match_id, sockets, version, late, [socket for socket in sockets if socket.sent_version < version]

    async def heal(self, match_id: int, version: int, behind: list, *, now) -> None:
        """Re-arm the clocks of the seats whose view is late, then send each socket that is behind its snapshot, then
        everyone the new clocks."""

        async def catch_up(_rearmed=None) -> None:
            for socket in behind:
                try:
                    await socket.catch_up()
                except Exception as error:  # noqa: BLE001  (one socket's failure must not stop the beat)
                    logger.warning(
                        "heartbeat: a socket of match %s could not catch up (%s)",
                        match_id,
                        type(error).__name__,
                    )

        seats = {socket.seat for socket in behind if socket.seat is not None}
        if not seats:
            await catch_up()
            return
        rearm = partial(timers.seats_rearm, match_id=match_id, version=version, seats=seats, now=now)
        await run_writer(rearm, first=catch_up)


def current_versions(match_ids: list[int]) -> dict[int, tuple[int, bool]]:
    """Match id -> (current version, whether its views are late): one query for every match of the process."""
    now = timezone.now()
    bound = now - timedelta(seconds=settings.TAPETE_DELIVERY_BOUND_SECONDS)
    rows = Match.objects.filter(pk__in=match_ids).values_list(
        "pk", "version", "undelivered_version", "last_action_at"
    )
    # Whatever the status: a finishing move's views lost leave a finished match's sockets behind, and only the
    # beat brings them its result (an arena's next table waited on it).
    return {
        pk: (version, undelivered == version or (last_action is not None and last_action <= bound))
        for pk, version, undelivered, last_action in rows
    }


HEARTBEAT = Heartbeat()
