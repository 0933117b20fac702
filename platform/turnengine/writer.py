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
from django.db import transaction
from django.utils import timezone
from tapete_sdk.plugin import Outcome

from ratings.elo import final_ranking
from ratings.services import rating_apply_outcome
from turnengine import bot_seats, clocks, jobs, match_sql, outbox
from turnengine.models import Match, MatchAction, Seat
from turnengine.seat_frames import build_update
from turnengine.signals import announce_finish
from turnengine.table_notices import table_notice
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


class MatchChange:
    """One change to one locked match: :meth:`commit` writes it, :attr:`update` is what it sends."""

    def __init__(self, match: Match | None) -> None:
        self.match = match
        self.update = Update()
        self._committed: tuple[list[MatchAction] | None, Callable[[Match], Update] | None, bool] | None = None
        # The status as locked: a change of status tells the lobby.
        self._status = None if match is None else match.status

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
        if "clock" in fields or "status" in fields or logged is not None:
            match.deadline_at = _next_deadline(match)
            fields["deadline_at"] = None
        if fields:
            match_sql.write_move(match, tuple(fields), logged or [])
        if finished:
            rating_apply_outcome(match=match)  # same transaction as the result: both stand or neither
            announce_finish(match)
        if "deadline_at" in fields and match.deadline_at is not None:
            schedule_deadline(match)
        if logged is not None and match.status == Match.Status.ACTIVE:
            bot_seats.schedule_bots(match)
        waiting = self._status == Match.Status.OPEN
        listed = match.status != self._status or (waiting and (seats_changed or "bot_seats" in fields))
        self._committed = (logged, frames, listed)

    def register(self) -> None:
        """Build the committed change's frames and register them to be sent on commit."""
        if self._committed is None:
            return
        logged, frames, listed = self._committed
        match = self.match
        update = build_update(match, logged) if logged is not None and match.state is not None else Update()
        if listed:
            update.frames.update(table_notice(match, waiting=self._status == Match.Status.OPEN).frames)
        if frames is not None:
            extra = frames(match)
            update.frames.update(extra.frames)
            update.messages.update(extra.messages)
        self.update = update
        outbox.send_on_commit(update)


def _finish(match: Match, outcome: Outcome, now: datetime) -> None:
    match.status = Match.Status.FINISHED
    match.result = final_result(match, outcome)
    match.finished_at = now


def final_result(match: Match, outcome: Outcome) -> dict:
    """The result a match records: the game's outcome, with the players who left the game (or abandoned a ranked
    one) moved below everyone who stayed, whatever the computer playing their seat achieved, so a player who left
    is never announced as the winner. ``left`` and ``absent`` list those seats for the result screen."""
    clock = match.clock or {}
    left = {seat for seat in range(match.num_players) if clock and clocks.has_left(clock, seat)}
    left |= set(Seat.objects.filter(match=match, abandoned=True).values_list("index", flat=True))
    result = outcome.to_json()
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


# --- the writes that take no lock -------------------------------------------------------------------------------


def open_table(**fields) -> Match:
    """A new table, open in the lobby (the lobby checks the fields first; its seats are the lobby's), which lobby
    pages hear of once it is committed."""
    match = Match.objects.create(**fields)
    outbox.send_on_commit(table_notice(match, waiting=True))
    return match


def mark_undelivered(*, match_id: int, version: int, now: datetime | None = None) -> None:
    """Record that ``version``'s frames could not be published (the first failure of that version counts; a version
    that moved on is left alone): ``timers.match_expire`` holds that version's deadlines."""
    Match.objects.filter(pk=match_id, version=version).exclude(undelivered_version=version).update(
        undelivered_version=version, undelivered_at=now or timezone.now()
    )


def delete_tables_of(users, *, unless_seated) -> int:
    """Delete the tables where ``users`` sat and none of ``unless_seated`` did (abandoned guests': their seats, log
    and chat go with them); returns how many."""
    with transaction.atomic():
        tables = Match.objects.filter(seats__user__in=users).exclude(seats__user__in=unless_seated)
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
        for match in closed.only("game", "version", "status"):
            outbox.send_on_commit(table_notice(match, waiting=True))
    return expired
