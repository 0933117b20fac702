"""Who is at a table, counted from live connections: a seat is online while a socket of its player is open.

Each open socket is a ``Connection`` row held by one life of an ASGI server process (``ServerProcess``). Presence
is never bumped up and down: every change inserts or deletes rows and then **recounts** the seat's (or the
spectators') rows under the match's row lock, writing the count to ``Seat.connections`` (what "online" reads) or
``Match.spectator_connections`` (what a move reads, under the same lock, to decide whether to build the
spectators' frame). So a count cannot drift from the rows, and rows cannot outlive their sockets:

* a socket that closes deletes its row (:func:`connection_close`);
* each process refreshes its ``seen_at`` every ``TAPETE_PRESENCE_TICK_SECONDS`` and reconciles its rows with the
  sockets it really holds (:func:`process_tick`, driven by ``realtime.liveness``), so a close or an open whose
  database write failed (PostgreSQL dropped its connections) is settled at the next tick;
* the sweeper (Celery beat, ``turnengine.tasks.sweep_deadlines``) closes every connection of a process not seen for
  ``DEAD_AFTER_TICKS`` ticks (``kill -9``, a lost machine: :func:`sweep_dead_processes`);
* the next life of the same server (same host and port) closes the rows of its previous life when it starts.

Other rows held by a process life (the social app's lobby sockets, ``social.presence``) go the same way: such an
app writes its rows with the life's id, keeps the life registered (:func:`process_seen`) and installs a hook
(:func:`install_lives_gone`) that the sweeper and a new life's first tick call once they have forgotten lives.

Each of these settles a seat exactly as a socket's own close does: when its last connection goes, it is offline
from then on (the real-time grace starts if the game awaits it) and everyone gets a ``presence`` frame; when its
first one comes back, online again. Only a real disconnection reaches the log: a ``reconnected`` line when the seat
comes back after at least the grace (a reload or a page change writes nothing), or takes its place back after being
played as absent. The log's connection lines are kept (``PresenceNotice``), so a reloaded page shows them in their
place (``seat_frames.match_snapshot``).
"""

from __future__ import annotations

from collections import defaultdict
from collections.abc import Callable, Iterable, Mapping
from datetime import datetime, timedelta
from functools import partial

from django.conf import settings
from django.utils import timezone

from turnengine import clocks, writer
from turnengine.models import Connection, Match, PresenceNotice, Seat, ServerProcess
from turnengine.seat_frames import presence_frames
from turnengine.spectating import spectators_frame
from turnengine.updates import Update

DEAD_AFTER_TICKS = 3
NOTICE_TYPES = ("disconnected", "reconnected", "left", "back")  # the ``notice`` of a presence frame


def _nothing_else_held() -> None:
    return None


_lives_gone: Callable[[], None] = _nothing_else_held


def install_lives_gone(hook: Callable[[], None]) -> None:
    """``hook()``: forget the rows of process lives no longer registered (called inside the sweep's and the first
    tick's work; its frames leave through the outbox)."""
    global _lives_gone
    _lives_gone = hook


def connection_open(
    *,
    key: str,
    process_id: str,
    process_name: str,
    match_id: int,
    seat: int | None,
    now: datetime | None = None,
    user_id: int | None = None,
) -> Update:
    """Count a socket that opened (idempotent: a key already counted changes nothing). A spectator's is counted
    before its snapshot is read: a move committed before this is in the snapshot, and a move after it reads the
    count under the match's lock and sends the spectators' frame. ``user_id`` names a logged-in spectator (a row
    the ticker opens again after a failed write names nobody, as a visitor's)."""
    now = now or timezone.now()
    return _settle(
        match_id,
        seat,
        add=Connection(key=key, process_id=process_id, match_id=match_id, seat=seat, user_id=user_id),
        seen=(process_id, process_name),
        now=now,
    )


def connection_close(*, key: str, match_id: int, seat: int | None) -> Update:
    """Uncount a socket that closed (idempotent: an unknown key changes nothing)."""
    return _settle(match_id, seat, remove=[key])


def process_tick(
    *,
    process_id: str,
    process_name: str,
    started_at: datetime,
    live: Mapping[str, tuple[int, int | None]],
    first: bool = False,
    now: datetime | None = None,
) -> list[Update]:
    """One tick of a process's liveness: refresh its ``seen_at`` (registering it again if the sweeper had given
    it up for dead), then make its rows match ``live`` (key -> (match, seat) of the sockets it holds): open the
    missing ones, close the others. On a life's ``first`` tick, close the rows of this server's previous lives."""
    now = now or timezone.now()
    updates = []
    if first:
        previous_lives = list(
            ServerProcess.objects.filter(name=process_name)
            .exclude(pk=process_id)
            .values_list("pk", flat=True)
        )
        for previous in previous_lives:
            updates += close_process(previous)
            ServerProcess.objects.filter(pk=previous).delete()
        if previous_lives:
            _lives_gone()
    if not ServerProcess.objects.filter(pk=process_id).update(seen_at=now):
        ServerProcess.objects.create(pk=process_id, name=process_name, started_at=started_at, seen_at=now)
    held = dict(Connection.objects.filter(process_id=process_id).values_list("key", "match_id"))
    for key, (match_id, seat) in live.items():
        if key not in held:
            updates.append(
                connection_open(
                    key=key,
                    process_id=process_id,
                    process_name=process_name,
                    match_id=match_id,
                    seat=seat,
                    now=now,
                )
            )
    gone = Connection.objects.filter(process_id=process_id).exclude(key__in=list(live))
    updates += _close_rows(gone.values_list("key", "match_id", "seat"))
    return updates


def sweep_dead_processes(*, now: datetime | None = None) -> list[Update]:
    """Close every connection of the processes not seen for ``DEAD_AFTER_TICKS`` ticks, and forget them."""
    now = now or timezone.now()
    cutoff = now - timedelta(seconds=DEAD_AFTER_TICKS * settings.TAPETE_PRESENCE_TICK_SECONDS)
    updates = []
    for process_id in ServerProcess.objects.filter(seen_at__lt=cutoff).values_list("pk", flat=True):
        updates += close_process(process_id)
        # Unless it came back meanwhile (a stalled process's next tick registers it again).
        ServerProcess.objects.filter(pk=process_id, seen_at__lt=cutoff).delete()
    _lives_gone()  # every sweep: rows of lives forgotten by any way (this sweep, an earlier one, a first tick)
    return updates


def close_process(process_id: str) -> list[Update]:
    """Close every connection a process life held, seat by seat, each as that socket's own close would."""
    return _close_rows(
        Connection.objects.filter(process_id=process_id).values_list("key", "match_id", "seat")
    )


def _close_rows(rows: Iterable[tuple[str, int, int | None]]) -> list[Update]:
    keys = defaultdict(list)
    for key, match_id, seat in rows:
        keys[match_id, seat].append(key)
    return [
        _settle(match_id, seat, remove=group) for (match_id, seat), group in sorted(keys.items(), key=str)
    ]


def process_seen(process_id: str, process_name: str, now: datetime | None = None) -> None:
    """Register the process life ``process_id`` as alive now (inside the transaction that writes a row it holds, so
    the sweeper cannot give it up before its next tick)."""
    now = now or timezone.now()
    if not ServerProcess.objects.filter(pk=process_id).update(seen_at=now):
        ServerProcess.objects.create(pk=process_id, name=process_name, started_at=now, seen_at=now)


def _settle(
    match_id: int,
    seat: int | None,
    *,
    add: Connection | None = None,
    remove: list[str] = (),
    seen: tuple[str, str] | None = None,
    now: datetime | None = None,
) -> Update:
    """Under the match's lock: add or remove connection rows, recount the seat's (or the spectators') rows into
    its counter, and settle a seat whose last connection went or whose first came back; if the count or the clock
    changed, everyone's ``presence`` frame is sent on commit (a socket's open that the ticker counted first, or a
    close the ticker settled, sends the same frame no second time). ``seen`` (process id and name): the process life
    that adds the row is registered as alive in the same transaction (:func:`process_seen`)."""
    with writer.locked(match_id) as change:
        if seen is not None:
            process_seen(*seen, now)
        match = change.match
        if match is None:
            return change.update
        if add is not None:
            Connection.objects.bulk_create([add], ignore_conflicts=True)
        removed = Connection.objects.filter(key__in=remove).delete()[0] if remove else 0
        count = Connection.objects.filter(match_id=match_id, seat=seat).count()
        if seat is None:
            if match.spectator_connections != count:
                match.spectator_connections = count
                change.commit(changed=("spectator_connections",), frames=spectators_frame)
            return change.update
        recounted = Seat.objects.filter(match=match, index=seat).exclude(connections=count).update(connections=count)
        changed, notice = False, None
        if match.status == Match.Status.ACTIVE and match.clock:
            changed, notice = _connection_changed(
                match, seat, count, closed=removed > 0, now=now or timezone.now()
            )
        if recounted or changed:
            change.commit(changed=("clock",) if changed else (), frames=partial(presence_frames, notice=notice))
    return change.update


def _connection_changed(
    match: Match, seat: int, count: int, *, closed: bool, now: datetime
) -> tuple[bool, dict | None]:
    """A seat's last connection went (it is offline from now: the grace starts if the game awaits it) or one came
    back while it was offline (it takes its seat back at once, unless its player left the game). Changes the clock
    and says whether it did, with the notice for everyone's log (also kept for the snapshot), if any.

    Only a real disconnection writes a line: a reload, a page change or a language switch closes the seat's last
    socket and opens another within moments, so going offline writes nothing (the players' bar shows it live), and
    coming back writes "connected again" only after an absence of at least the grace (``real_absence_ms``), or
    when the seat takes its place back after being played as absent."""
    clock = match.clock
    offline = clocks.offline_since(clock, seat)
    now_ms = clocks.epoch_ms(now)
    if count == 0 and closed and offline is None:
        clocks.set_offline(clock, seat, now_ms)
        return True, None
    if not (count > 0 and offline is not None):
        return False, None
    clocks.set_offline(clock, seat, None)
    notice = None
    if clock["absent"][seat] and not clocks.has_left(clock, seat):
        clock["absent"][seat] = False  # absent through timeouts while away: back with the connection
        clock["timeouts"][seat] = 0
        notice = {"type": "reconnected", "seat": seat, "back": True}
    elif now_ms - offline >= real_absence_ms(clocks.of_match(match)):
        notice = {"type": "reconnected", "seat": seat, "away_s": (now_ms - offline) // 1000}
    if notice:
        record_notice(match, notice)
    return True, notice


def real_absence_ms(control: clocks.TimeControl) -> int:
    """How long a seat must have been offline for its return to be a line of the log: the table's grace (the
    default grace where the time control has none, as on turn-based tables)."""
    return control.grace_ms or clocks.DEFAULT_GRACE_MS


def record_notice(match: Match, notice: dict) -> None:
    """Keep a connection line of the table's log (inside the transaction that caused it), at the match's version."""
    if notice["type"] not in NOTICE_TYPES:  # the vocabulary docs/protocol.md documents, and table.js writes out
        raise ValueError(f"unknown presence notice {notice['type']!r}")
    PresenceNotice.objects.create(match=match, version=match.version, notice=notice)
