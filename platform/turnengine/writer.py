"""The one writer of match rows. Every change to a match (a move, a deadline, a computer player's move, a seat's
intent, presence, the lobby's start, bots and cancel, a rematch, a moderator's abort) runs as::

    with writer.locked(match_id, user=user) as change:
        match = change.match        # the row, locked until the commit; None if there is no such match
        ...                         # check (raise to refuse: nothing is written or sent), change its fields
        change.commit(changed=("clock",), logged=logged, now=now)
    return change.update            # what it sends on commit

:meth:`MatchChange.commit` does what every change needs, once: bump the version when the change is one every seat
must see (it ``logged`` actions: a move, a deadline, the start, a finish, an abort), settle a finish (its result, the
seats' ratings in the same transaction, the announcement), work out the next deadline from the clocks, write the row
and its logged actions (``turnengine.match_sql``: the per-move SQL, built once), and queue the deadline and the computer
players' next move after the commit. When the transaction of :func:`locked` closes, the change's frames are built
(the seats' views of a new version first, then the lobby's notice when the table's status or its waiting seats
changed, then the caller's ``frames``) and registered with the outbox, which sends them when the outermost
transaction commits: nothing is sent for a change that was rolled back or never committed (a refusal), and, unless
an outer transaction holds it (a moderator's, the lobby's "Play now"), the row lock is not held while views are
built. No caller sends a match's frames itself.

A player's move on PostgreSQL takes a shorter road to the same commit (:func:`change_match`): the match is read
without the lock (or taken from this process's copy, ``turnengine.match_cache``) and written by one statement that
stands only if nothing wrote the row meanwhile; otherwise, or when the change finishes the match, it is done again
under :func:`locked`.

Who may sit at a table is decided here too, under the table's lock (:func:`seat_player`, the only way a seat is
taken): a ranked table seats people only, never the site's computer players, and bot accounts only where the table
admits them (rated in the bot pool); a player barred from ranked play (``turnengine.fair_play``) sits at friendly
tables only.

The few writes that need no lock are here too: a table's creation (:func:`open_table`), the marker of a version
whose frames could not be published (:func:`mark_undelivered`), the expiry of tables nobody started
(:func:`expire_open_tables`) and the deletion of abandoned guests' tables (:func:`delete_tables_of`).
``tests/turnengine/test_writer.py`` checks that no other module writes a match row.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable, Iterator
from contextlib import contextmanager
from datetime import UTC, datetime, timedelta

from django.conf import settings
from django.contrib.auth import get_user_model
from django.db import transaction
from django.utils import timezone
from tapete_sdk.plugin import Outcome

from ratings.elo import final_ranking
from ratings.services import ABANDONED_BY_ALL, rating_apply_outcome
from turnengine import awaiting, bot_seats, clocks, jobs, match_cache, match_sql, outbox
from turnengine.errors import EngineError, seat_error
from turnengine.fair_play import active_playban, playban_message, playbans_after_finish
from turnengine.models import Match, MatchAction, Seat
from turnengine.programs import is_bot_account
from turnengine.seat_blocks import creator_block_refusal
from turnengine.seat_frames import build_update
from turnengine.signals import announce_finish
from turnengine.table_notices import NOTICE_FIELDS, table_notice
from turnengine.updates import Update

FINISH_FIELDS = ("status", "result", "finished_at")


@contextmanager
def locked(match_id: int, *, user=None) -> Iterator[MatchChange]:
    """Open a transaction and lock the match row (with ``user``'s seat, found in the same query: ``match.user_seat``,
    None if they do not sit there). The change's frames are registered once the transaction has closed."""
    with transaction.atomic():
        change = MatchChange(match_sql.lock_match(match_id, None if user is None else user.pk))
        yield change
    change.register()


class Conflict(Exception):
    """An optimistic change found its row written meanwhile, or needs what only a transaction gives (a finish
    settles ratings with the result; a turn-based table's change of turn rewrites its "Your move" rows,
    ``turnengine.awaiting``): :func:`change_match` does it again under the lock."""


def change_match(match_id: int, body: Callable[[MatchChange], None], *, user, version: int) -> None:
    """Run ``body`` (checks, then ``change.commit``) on the match a player acts at, expecting ``version``.

    On PostgreSQL it runs optimistically first: from this process's copy of the match at that version
    (``turnengine.match_cache``), else from the row read without a lock, and its write is one autocommitted
    statement that stands only if nothing wrote the row since it was read (``match_sql.write_move_guarded``). A
    copy that turns out stale, or that ``body`` refuses, is tried again on the row read afresh (so every refusal is
    decided on the row as it is); a row that changed again, or a change that needs the lock, is done as any other
    change, under :func:`locked`. The database settles every race either way: of two moves at one
    version one is written, the other is refused ``stale``. Elsewhere (SQLite) it runs under :func:`locked`."""
    if match_sql.optimistic_moves():
        kept = match_cache.recall(match_id)
        for copy in [kept, None] if kept is not None and kept[0].version == version else [None]:
            try:
                with _optimistic(match_id, copy, user=user) as change:
                    body(change)
                return
            except Conflict as conflict:
                if conflict.args == ("lock",):
                    break
            except EngineError:
                if copy is None:
                    raise  # decided on the row as it is; one decided on the copy is decided again on the row
    with locked(match_id, user=user) as change:
        body(change)


@contextmanager
def _optimistic(match_id: int, kept, *, user) -> Iterator[MatchChange]:
    kept = kept or match_sql.read_match(match_id)
    if kept is None:
        change = MatchChange(None)
    else:
        match, xmin, seats = kept
        match.user_seat = seats.get(user.pk)
        change = MatchChange(match, guard=(xmin, seats))
    yield change
    change.register()


class MatchChange:
    """One change to one locked match: :meth:`commit` writes it, :attr:`update` is what it sends. A change made
    without the lock (:func:`change_match`) carries the ``guard`` it is written under: the row's ``xmin`` as read,
    and the seats to keep with the copy it leaves in ``match_cache``."""

    def __init__(self, match: Match | None, *, guard: tuple[str, dict[int, int]] | None = None) -> None:
        self.match = match
        self.guard = guard
        self.update = Update()
        self._committed: tuple[list[MatchAction] | None, Callable[[Match], Update] | None, bool] | None = None
        # The status as locked: a change of status tells the lobby.
        self._status = None if match is None else match.status
        self._awaited = awaiting.awaited(match)  # whose move a turn-based table awaits, as locked

    def commit(
        self,
        *,
        changed: Iterable[str] = (),
        logged: list[MatchAction] | None = None,
        now: datetime | None = None,
        outcome: Outcome | None = None,
        frames: Callable[[Match], Update] | None = None,
        seats_changed: bool = False,
    ) -> None:
        """Write the match's ``changed`` fields and what follows from them.

        ``logged`` (a list, maybe empty) makes a new version that every seat is sent: the version moves, the rows
        are logged at it, and a running match whose new state has an outcome (or that is given ``outcome``) is
        finished. A change of the clocks moves the deadline. A change of status, or of a waiting table's seats
        (``seats_changed``: a player sat down or stood up; its computer players, ``bot_seats``), tells the lobby.
        ``frames`` builds the change's other frames (presence, an abort's notice) from the committed match."""
        match, now = self.match, now or timezone.now()
        fields = dict.fromkeys(changed)
        finished = False
        if logged is not None:
            match.version += 1
            match.last_action_at = now
            fields.update(dict.fromkeys(("version", "last_action_at")))
            for row in logged:
                row.version = match.version
            if match.status == Match.Status.ACTIVE:
                outcome = outcome or match.rules.outcome(match.state)
                if outcome is not None:
                    _finish(match, outcome, now)
                    fields.update(dict.fromkeys(FINISH_FIELDS))
                    finished = True
        if self.guard is not None and (finished or awaiting.awaited(match) != self._awaited):
            raise Conflict("lock")  # a finish's ratings, or a turn-based table's "Your move" rows: in one transaction
        if "clock" in fields or "status" in fields or logged is not None:
            match.deadline_at = _next_deadline(match)
            fields["deadline_at"] = None
        if fields:
            self._write(tuple(fields), logged or [])
            awaiting.record(match, self._awaited)  # the "Your move" rows and counts, when whose turn it is changed
        if finished:
            if match.ranked and match.result["abandoned"]:
                Seat.objects.filter(match=match, index__in=match.result["abandoned"]).update(abandoned=True)
            rating_apply_outcome(match=match)  # same transaction as the result: both stand or neither
            playbans_after_finish(match=match, now=now)
            announce_finish(match)
        if "deadline_at" in fields and match.deadline_at is not None:
            schedule_deadline(match)
        if logged is not None and match.status == Match.Status.ACTIVE:
            bot_seats.schedule_bots(match)
        waiting = self._status == Match.Status.OPEN
        listed = match.status != self._status or (waiting and (seats_changed or "bot_seats" in fields))
        self._committed = (logged, frames, listed)

    def _write(self, fields: tuple[str, ...], logged: list[MatchAction]) -> None:
        match = self.match
        if self.guard is None:
            match_sql.write_move(match, fields, logged)
            match_cache.forget(match.pk)  # its copy, if any, is of an older row
            return
        xmin, seats = self.guard
        written = match_sql.write_move_guarded(match, fields, logged, xmin)
        if written is None:
            raise Conflict("changed")
        match_cache.remember(match, written, seats)

    def register(self) -> None:
        """Build the committed change's frames and register them to be sent on commit."""
        if self._committed is None:
            return
        logged, frames, listed = self._committed
        match = self.match
        update = build_update(match, logged) if logged is not None and match.state is not None else Update()
        if listed:
            notice = table_notice(match, waiting=self._status == Match.Status.OPEN)
            update.frames.update(notice.frames)
            update.messages.update(notice.messages)
        if frames is not None:
            extra = frames(match)
            update.frames.update(extra.frames)
            update.messages.update(extra.messages)
        self.update = update
        outbox.send_on_commit(update)


def _finish(match: Match, outcome: Outcome, now: datetime) -> None:
    match.status = Match.Status.FINISHED
    match.result = final_result(match, outcome, now)
    match.finished_at = now


def final_result(match: Match, outcome: Outcome, now: datetime | None = None) -> dict:
    """The result a match records: the game's outcome, with the players who left the game moved below everyone who
    stayed, whatever the computer playing their seat achieved, so a player who left is never announced as the
    winner. In a ranked game every seat the computer played for (``computer_played``: absent, or disconnected past
    the grace, at any time) joins them, and they all share the last place, so nothing the computer did helps any
    of them; the seats gone at the end (left, absent, or still disconnected past the grace) are ``abandoned``, as
    is every seat of a game that ended because nobody was connected (``abandoned_by_all``). ``left`` and
    ``absent`` list those seats for the result screen."""
    clock = match.clock or {}
    seats = range(match.num_players)
    left = {seat for seat in seats if clock and clocks.has_left(clock, seat)}
    left |= set(Seat.objects.filter(match=match, abandoned=True).values_list("index", flat=True))
    result = outcome.to_json()
    result["abandoned"] = []
    if match.ranked and clock:
        control, now_ms = clocks.of_match(match), clocks.epoch_ms(now or timezone.now())
        gone = {seat for seat in seats if clocks.played_for(clock, control, seat, now_ms)} | left
        result["abandoned"] = sorted(seats if outcome.reason == ABANDONED_BY_ALL else gone)
        result["computer_played"] = sorted(seat for seat in seats if clocks.computer_played(clock, seat))
        gone |= set(result["computer_played"])
        stayed = [[seat for seat in group if seat not in gone] for group in result["ranking"]]
        result["ranking"] = [group for group in stayed if group] + ([sorted(gone)] if gone else [])
    else:
        result["ranking"] = final_ranking(result["ranking"], left)
    result["left"] = sorted(left)
    result["absent"] = [seat for seat, absent in enumerate(clock.get("absent") or []) if absent]
    return result


def _next_deadline(match: Match) -> datetime | None:
    if match.status != Match.Status.ACTIVE or not match.clock:
        return None
    deadline = clocks.next_deadline(match.clock, clocks.of_match(match))
    return None if deadline is None else datetime.fromtimestamp(deadline / 1000, tz=UTC)


# --- deadlines --------------------------------------------------------------------------------------------------


def deadline_horizon() -> timedelta:
    """How far ahead deadlines are handed to Celery: two rounds of the sweeper, which queues the later ones as they
    come this near (``timers.sweep``)."""
    return timedelta(seconds=2 * settings.TAPETE_SWEEP_SECONDS)


def schedule_deadline(match: Match, eta: datetime | None = None) -> None:
    """After the commit, ask Celery to check this match at its deadline (or at ``eta``), keyed by the version it
    was set for, if that falls within the horizon. A later one is left to the sweeper: most moves then queue
    nothing, and no task waits for hours in a worker (Celery keeps a task with an ETA in the worker's memory until
    it is due, and the Redis broker hands it out again each time its visibility timeout passes)."""
    eta = eta or match.deadline_at
    if not settings.TAPETE_SCHEDULE_DEADLINES or eta > timezone.now() + deadline_horizon():
        return
    jobs.deadline_on_commit(match.pk, match.version, eta)


# --- who may sit ------------------------------------------------------------------------------------------------


def seat_player(match: Match, *, user, index: int, ip_address: str | None = None) -> Seat:
    """Seat ``user`` at ``index`` of ``match``, which the caller holds locked (or has just opened), unless
    :func:`seat_refusal` refuses it (an :class:`EngineError`; nothing is written)."""
    refusal = seat_refusal(match, user)
    if refusal is not None:
        raise refusal
    return Seat.objects.create(match=match, index=index, user=user, ip_address=ip_address)


def seat_refusal(match: Match, user) -> EngineError | None:
    """Why ``user`` may not sit at ``match``, if they may not. The user's row is locked and read again first: a
    conversion to a bot account (``botapi.accounts.bot_account_convert``) locks it too and checks the account's
    seats, so a join racing a conversion either sits first (the conversion then finds the seat and is refused) or
    reads the converted account (and is refused here). An account already a bot stays one, so a computer player's row
    is not locked: "Play now" tables seating the same computer player do not wait for each other."""
    is_bot = user.is_bot or (
        get_user_model().objects.select_for_update(no_key=True).filter(pk=user.pk).values_list("is_bot", flat=True)
    ).first()
    if is_bot:
        bot_account = is_bot_account(user)
        if not bot_account and match.ranked:
            return seat_error("computer_unranked")
        if bot_account and not match.admits_bots:
            return seat_error("bots_not_admitted")
    if match.ranked:
        playban = active_playban(user=user)
        if playban is not None:
            return EngineError("playban", playban_message(playban))
    return creator_block_refusal(match, user)


# --- the writes that take no lock -------------------------------------------------------------------------------


def open_table(*, seats: Iterable[Seat] = (), **fields) -> Match:
    """A new table, open in the lobby, with its first ``seats`` (unsaved; the lobby checks the fields and chooses
    the seats), which lobby pages and event streams hear of once it is committed. Each seat is checked as
    :func:`seat_player` checks one (an :class:`EngineError` refuses it, and the caller's transaction rolls back)."""
    match = Match.objects.create(**fields)
    seats = list(seats)
    for seat in seats:
        seat.match = match
        refusal = seat_refusal(match, seat.user)
        if refusal is not None:
            raise refusal
    Seat.objects.bulk_create(seats)
    outbox.send_on_commit(table_notice(match, waiting=True))
    return match


def mark_undelivered(*, match_id: int, version: int, now: datetime | None = None) -> None:
    """Record that ``version``'s frames could not be published (the first failure of that version counts; a version
    that moved on is left alone): ``timers.match_expire`` holds that version's deadlines."""
    Match.objects.filter(pk=match_id, version=version).exclude(undelivered_version=version).update(
        undelivered_version=version, undelivered_at=now or timezone.now()
    )


def delete_tables_of(users, *, keep) -> int:
    """Delete the tables where ``users`` sat, except ``keep`` (a query of matches): abandoned guests' tables, their
    seats, log and chat going with them; returns how many."""
    with transaction.atomic():
        tables = Match.objects.filter(seats__user__in=users).exclude(pk__in=keep)
        return tables.delete()[1].get(Match._meta.label, 0)


def expire_open_tables(*, created_before: datetime) -> int:
    """Close the tables nobody started since ``created_before`` and tell the lobby of each. The UPDATE checks the
    status again under each row's lock, so a start racing it either wins or finds the table closed."""
    with transaction.atomic():
        open_tables = Match.objects.filter(status=Match.Status.OPEN)
        stale = list(open_tables.filter(created_at__lt=created_before).values_list("pk", flat=True))
        if not stale:
            return 0
        expired = open_tables.filter(pk__in=stale).update(status=Match.Status.ABORTED)
        closed = Match.objects.filter(pk__in=stale, status=Match.Status.ABORTED)
        for match in closed.only(*NOTICE_FIELDS).select_related("created_by"):
            outbox.send_on_commit(table_notice(match, waiting=True))
    return expired
