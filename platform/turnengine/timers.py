"""Deadlines, absences and abandoned tables: the services that keep a table from ever hanging.

* :func:`match_expire` plays the game's timeout action for a seat whose clock ran out. Celery calls it at the
  deadline, keyed by (match, version): if anybody moved in the meantime the version differs and it does nothing,
  so a move racing its deadline resolves in the database to exactly one of them.
* Two timeouts in a row, or leaving, make a seat **absent**: the engine then plays its timeout action at once
  whenever the game awaits it (see ``services.advance``). The player may come back (:func:`seat_reclaim`).
* :func:`sweep` (Celery beat) queues the deadlines that come near (a commit queues its deadline itself only when
  it falls within two sweeps), re-queues deadlines and bot moves whose task was lost, and closes tables nobody
  started.
"""

from __future__ import annotations

from datetime import datetime, timedelta

from django.conf import settings
from django.db import transaction
from django.utils import timezone

from ratings.services import rating_apply_outcome
from turnengine import clocks, services
from turnengine.errors import engine_error
from turnengine.models import Match, Seat
from turnengine.plugin import Outcome
from turnengine.signals import announce_finish


def match_expire(*, match_id: int, version: int, now: datetime | None = None) -> services.Update | None:
    """If ``version`` is still current and a clock has run out, play that seat's timeout action."""
    now = now or timezone.now()
    with transaction.atomic():
        match = Match.objects.select_for_update().filter(pk=match_id).first()
        if match is None or match.status != Match.Status.ACTIVE or match.version != version:
            return None
        control = services.time_control(match)
        seat = clocks.expired_seat(match.clock, control, services.epoch_ms(now))
        if seat is None:
            return None
        rules = match.rules
        if match.clock["window"][seat] is None:  # running out of one's own time is a fault; a window is not
            match.clock["timeouts"][seat] += 1
            if match.clock["timeouts"][seat] >= clocks.TIMEOUTS_BEFORE_ABSENT:
                match.clock["absent"][seat] = True
        logged = services.advance(match, rules, seat, rules.timeout_action(match.state, seat), now)
        services.persist(match, logged, now)
    update = services.build_update(match, logged)
    update.frames.update(services.presence_frames(match).frames)
    return update


def seat_reclaim(*, match_id: int, user, now: datetime | None = None) -> services.Update:
    """An absent player comes back: auto-play stops for their seat."""
    with transaction.atomic():
        match, seat = services.lock_with_seat(match_id, user)
        match.clock["absent"][seat] = False
        match.clock["timeouts"][seat] = 0
        match.save(update_fields=["clock"])
    return services.presence_frames(match)


def seat_leave(*, match_id: int, user, now: datetime | None = None) -> services.Update:
    """A player leaves a running game: the seat becomes absent (auto-played); in a ranked game it is abandonment."""
    now = now or timezone.now()
    with transaction.atomic():
        match, seat = services.lock_with_seat(match_id, user)
        match.clock["absent"][seat] = True
        if match.ranked:
            Seat.objects.filter(match=match, index=seat).update(abandoned=True)
        logged = services.advance(match, match.rules, None, None, now)
        services.persist(match, logged, now)
    update = services.build_update(match, logged)
    update.frames.update(services.presence_frames(match).frames)
    return update


def match_end_by_vote(*, match_id: int, user, now: datetime | None = None) -> services.Update:
    """A player ends a table where everyone else is absent: present players share the first place, absent ones
    the last, and the seed is published."""
    now = now or timezone.now()
    with transaction.atomic():
        match, seat = services.lock_with_seat(match_id, user)
        absent = match.clock["absent"]
        if absent[seat] or not all(absent[other] for other in range(match.num_players) if other != seat):
            raise engine_error("others_present", version=match.version)
        present = [s for s in range(match.num_players) if not absent[s]]
        gone = [s for s in range(match.num_players) if absent[s]]
        match.status = Match.Status.FINISHED
        match.result = Outcome(ranking=[present, gone], reason="ended_by_vote").to_json()
        match.finished_at = now
        match.deadline_at = None
        match.version += 1
        match.save(update_fields=["status", "result", "finished_at", "deadline_at", "version"])
        rating_apply_outcome(match=match)
        announce_finish(match)
    return services.build_update(match, [])


def sweep(*, now: datetime | None = None) -> dict[str, int]:
    """Queue the deadlines that fall within the horizon (``services.deadline_horizon``): the ones a commit left to
    the sweeper, and overdue ones whose task was lost (worker restart, broker loss); a deadline queued twice
    expires once, keyed by its version. Re-queue stalled bot moves and expire stale open tables."""
    from turnengine.tasks import bot_move, match_deadline

    now = now or timezone.now()
    due = list(
        Match.objects.filter(
            status=Match.Status.ACTIVE, deadline_at__lte=now + services.deadline_horizon()
        ).values_list("pk", "version", "deadline_at")
    )
    for match_id, version, deadline_at in due:
        match_deadline.apply_async((match_id, version), eta=deadline_at)
    stalled = stalled_bot_moves(now=now)
    for match_id, version in stalled:
        bot_move.delay(match_id, version)
    cutoff = now - timedelta(seconds=settings.TAPETE_OPEN_TABLE_TTL_SECONDS)
    expired = Match.objects.filter(status=Match.Status.OPEN, created_at__lt=cutoff).update(
        status=Match.Status.ABORTED
    )
    return {"deadlines_queued": len(due), "bots_requeued": len(stalled), "expired_tables": expired}


def stalled_bot_moves(*, now: datetime) -> list[tuple[int, int]]:
    """(match, version) of the running matches where a bot may act but nothing happened for well over a bot's
    pause: its task was lost. Re-queuing is safe, since a bot task for a version that moved on does nothing."""
    if not settings.TAPETE_SCHEDULE_BOTS:
        return []
    quiet_since = now - timedelta(
        seconds=2 * settings.TAPETE_BOT_DELAY_SECONDS + settings.TAPETE_SWEEP_SECONDS
    )
    candidates = (
        Match.objects.filter(status=Match.Status.ACTIVE, last_action_at__lte=quiet_since)
        .exclude(bot_seats=[])
        .only("pk", "version", "game", "state", "bot_seats")
    )
    return [
        (match.pk, match.version)
        for match in candidates
        if any(seat in match.rules.to_act(match.state) for seat in match.bot_seats)
    ]
