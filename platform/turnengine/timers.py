"""Deadlines, absences and abandoned tables: the services that keep a table from ever hanging.

* :func:`match_expire` plays the game's timeout action for a seat whose clock ran out. Celery calls it at the
  deadline, keyed by (match, version): if anybody moved in the meantime the version differs and it does nothing,
  so a move racing its deadline resolves in the database to exactly one of them.
* Two timeouts in a row, or leaving, make a seat **absent**: the engine then plays for it at once whenever the
  game awaits it (see ``services.advance``). The player may come back (:func:`seat_reclaim`); a player absent
  through timeouts who had disconnected is back as soon as a socket of theirs opens again.
* In real time, a disconnected seat the game awaits is played by the computer once the table's grace has passed
  (``turnengine.clocks``): its deadline is the end of the grace, and :func:`match_expire` then counts a timeout
  and lets the engine play for it, until the player reconnects.
* Ranked games (docs/fair-play.md): once every seat is gone (absent, left, or disconnected past the grace), the game
  ends at once as abandoned by all (:func:`abandon_by_all`); in a two-player game, the player who stayed may end it
  as its winner as soon as the opponent is gone (:func:`match_claim_win`).
* Each timeout, grace expiry and new absence adds a notice to the log (``seat_timeout``, ``seat_autoplayed``,
  ``seat_absent``: public events ahead of the game's own).
* Delivery: a deadline never plays a timeout against a seat that could not see the position. While the current
  version's frames could not be published (``writer.mark_undelivered``), :func:`match_expire` holds off for
  :func:`delivery_hold`; a seat whose view the heartbeat delivered late has its running clock re-armed
  (:func:`seats_rearm`, ``realtime.heartbeat``): after the delivery bound, or at once while its process does not
  hear the channel layer (frames published then were lost there, though Redis took them: ``realtime.layerwatch``).
* :func:`sweep` (Celery beat) queues the deadlines that come near (a commit queues its deadline itself only when
  it falls within two sweeps), re-queues deadlines and bot moves whose task was lost, and closes tables nobody
  started. The same beat task closes the connections of dead server processes (``presence.sweep_dead_processes``).
"""

from __future__ import annotations

from datetime import datetime, timedelta
from functools import partial

from django.conf import settings
from django.utils import timezone
from tapete_sdk.plugin import Outcome

from turnengine import clocks, jobs, presence, services, writer
from turnengine.errors import engine_error
from turnengine.models import Match, Seat
from turnengine.seat_frames import presence_frames
from turnengine.updates import Update, encode_frame


def match_expire(*, match_id: int, version: int, now: datetime | None = None) -> Update | None:
    """If ``version`` is still current and a clock has run out, play that seat's timeout action (None: nothing
    to do)."""
    now = now or timezone.now()
    with writer.locked(match_id) as change:
        match = change.match
        if match is None or match.status != Match.Status.ACTIVE or match.version != version:
            return None
        if held_for_delivery(match, now):
            writer.schedule_deadline(match, delivery_hold_end(match))
            return None
        control, now_ms = clocks.of_match(match), clocks.epoch_ms(now)
        seat = clocks.expired_seat(match.clock, control, now_ms)
        if seat is None:
            return None
        rules = match.rules
        notices = []
        disconnected = clocks.played_for(match.clock, control, seat, now_ms)
        if disconnected or match.clock["window"][seat] is None:
            # Running out of one's own time (or of the grace, away) is a fault; a window is not.
            match.clock["timeouts"][seat] += 1
            notices.append({"type": "seat_autoplayed" if disconnected else "seat_timeout", "seat": seat})
            if match.clock["timeouts"][seat] >= clocks.TIMEOUTS_BEFORE_ABSENT:
                match.clock["absent"][seat] = True
                notices.append({"type": "seat_absent", "seat": seat})
        if match.ranked and clocks.all_away(match.clock, control, now_ms):
            abandon_by_all(change, now)
            return change.update
        # Disconnected beyond the grace: the engine plays for the seat (services.advance), like for an absent one.
        action = None if disconnected else rules.timeout_action(match.state, seat)
        logged = services.advance(match, rules, None if disconnected else seat, action, now)
        if logged:  # the engine's notices join the log, before what they caused
            logged[0].events = [{**notice, "visible_to": None} for notice in notices] + logged[0].events
        change.commit(changed=services.PLAY_FIELDS, logged=logged, now=now, frames=presence_frames)
    return change.update


# --- delivery and the clocks -----------------------------------------------------------------------------------


def delivery_hold() -> timedelta:
    """How long the deadlines of a version whose frames could not be published wait: two heartbeats (every process
    has brought its sockets up to date from the database by then, and re-armed the clocks of the seats it found
    behind) and the delivery bound."""
    return timedelta(seconds=2 * settings.TAPETE_HEARTBEAT_SECONDS + settings.TAPETE_DELIVERY_BOUND_SECONDS)


def delivery_hold_end(match: Match) -> datetime:
    return match.undelivered_at + delivery_hold()


def held_for_delivery(match: Match, now: datetime) -> bool:
    """Whether the current version's frames could not be published and the sockets may not have it yet."""
    return (
        match.undelivered_version == match.version
        and match.undelivered_at is not None
        and now < delivery_hold_end(match)
    )


def seats_rearm(*, match_id: int, version: int, seats: set[int], now: datetime | None = None) -> Update | None:
    """``seats`` received their view of ``version`` late (a heartbeat brought them up to date): their running
    clocks start again from now with the time they had (``clocks.rearm``), and everyone is told the new clocks.
    Nothing changes (None) if the version moved on; the version itself does not move, so no action goes
    stale."""
    now = now or timezone.now()
    with writer.locked(match_id) as change:
        match = change.match
        if match is None or match.status != Match.Status.ACTIVE or match.version != version or not match.clock:
            return None
        if not clocks.rearm(match.clock, seats, clocks.epoch_ms(now)):
            return None
        change.commit(changed=("clock",), now=now, frames=presence_frames)
    return change.update


def seat_reclaim(*, match_id: int, user, now: datetime | None = None) -> Update:
    """An absent player comes back: auto-play stops for their seat. A seat that is not absent changes nothing, and
    nothing is sent."""
    with writer.locked(match_id, user=user) as change:
        match, seat = services.seated(change)
        if match.clock["absent"][seat]:
            match.clock["absent"][seat] = False
            match.clock["timeouts"][seat] = 0
            clocks.set_left(match.clock, seat, False)
            notice = {"type": "back", "seat": seat}
            presence.record_notice(match, notice)
            change.commit(changed=("clock",), now=now, frames=partial(presence_frames, notice=notice))
    return change.update


def seat_leave(*, match_id: int, user, now: datetime | None = None) -> Update:
    """A player leaves a running game: the seat becomes absent (auto-played); in a ranked game it is abandonment.
    Leaving is the one intent besides a move that moves the version, so a seat may leave at most
    ``TAPETE_SEAT_INTENTS`` times per ``TAPETE_SEAT_INTENT_WINDOW_SECONDS`` (leaving and coming back in a loop
    would otherwise make every other player's move ``stale``); an absent seat's ``leave`` changes nothing."""
    now = now or timezone.now()
    with writer.locked(match_id, user=user) as change:
        match, seat = services.seated(change)
        if not match.clock["absent"][seat]:
            spend_intent(match, seat, now)
            match.clock["absent"][seat] = True
            clocks.set_left(match.clock, seat, True)
            notice = {"type": "left", "seat": seat}
            frames = partial(presence_frames, notice=notice)
            if match.ranked:
                Seat.objects.filter(match=match, index=seat).update(abandoned=True)
            if match.ranked and clocks.all_away(match.clock, clocks.of_match(match), clocks.epoch_ms(now)):
                abandon_by_all(change, now, frames=frames)
            else:
                logged = services.advance(match, match.rules, None, None, now)
                change.commit(changed=services.PLAY_FIELDS, logged=logged, now=now, frames=frames)
            presence.record_notice(match, notice)  # at the new version, after the actions it caused
    return change.update


def spend_intent(match: Match, seat: int, now: datetime) -> None:
    """Count one version-moving intent of ``seat`` in the match's clock (``intents``: per seat, the epoch ms of
    the recent ones), or refuse it with ``intent_budget`` when the seat has spent its budget."""
    now_ms = clocks.epoch_ms(now)
    since_ms = now_ms - settings.TAPETE_SEAT_INTENT_WINDOW_SECONDS * 1000
    intents = match.clock.get("intents") or [[] for _ in range(match.num_players)]
    recent = [moment for moment in intents[seat] if moment > since_ms]
    if len(recent) >= settings.TAPETE_SEAT_INTENTS:
        raise engine_error("intent_budget", version=match.version)
    match.clock["intents"] = [
        recent + [now_ms] if index == seat else list(times) for index, times in enumerate(intents)
    ]


def match_end_by_vote(*, match_id: int, user, now: datetime | None = None) -> Update:
    """A player ends a table where everyone else is absent: present players share the first place, absent ones
    the last, and the seed is published."""
    with writer.locked(match_id, user=user) as change:
        match, seat = services.seated(change)
        absent = match.clock["absent"]
        if absent[seat] or not all(absent[other] for other in range(match.num_players) if other != seat):
            raise engine_error("others_present", version=match.version)
        present = [s for s in range(match.num_players) if not absent[s]]
        gone = [s for s in range(match.num_players) if absent[s]]
        change.commit(logged=[], now=now, outcome=Outcome(ranking=[present, gone], reason="ended_by_vote"))
    return change.update


def abandon_by_all(change: writer.MatchChange, now: datetime, frames=presence_frames) -> None:
    """End the locked ranked match of ``change`` because nobody is there any more: every seat shares the result and
    counts as abandoned (``writer.final_result``), and nobody's rating moves (``ratings.services``)."""
    seats = list(range(change.match.num_players))
    change.commit(logged=[], now=now, outcome=Outcome(ranking=[seats], reason=writer.ABANDONED_BY_ALL), frames=frames)


def match_claim_win(*, match_id: int, user, now: datetime | None = None) -> Update:
    """In a two-player ranked game, the player who stayed ends it as its winner once the opponent is gone: left,
    absent, or disconnected past the grace (as on Lichess, they may also keep waiting). Refused with
    ``claim_not_allowed`` otherwise."""
    now = now or timezone.now()
    with writer.locked(match_id, user=user) as change:
        match, seat = services.seated(change)
        control, now_ms = clocks.of_match(match), clocks.epoch_ms(now)
        if not claim_allowed(match, seat, control, now_ms):
            raise engine_error("claim_not_allowed", version=match.version)
        opponent = 1 - seat
        change.commit(logged=[], now=now, outcome=Outcome(ranking=[[seat], [opponent]], reason="win_claimed"))
    return change.update


def claim_allowed(match: Match, seat: int, control: clocks.TimeControl, now_ms: int) -> bool:
    """Whether ``seat`` may claim the win: a two-player ranked game, the seat there and its opponent gone."""
    if not match.ranked or match.num_players != 2 or clocks.played_for(match.clock, control, seat, now_ms):
        return False
    return clocks.played_for(match.clock, control, 1 - seat, now_ms)


def match_abort(change: writer.MatchChange, *, now: datetime | None = None) -> bool:
    """Stop the locked match of ``change`` without a result (so without rating changes): the clocks stop, the seed
    is published, and the frames say who stopped it (an ``aborted`` frame after the last view), sent when the
    caller's transaction (a moderator's, with its audit entry) commits. False (nothing changes) if the match is
    already over."""
    now, match = now or timezone.now(), change.match
    if match.status in (Match.Status.FINISHED, Match.Status.ABORTED):
        return False
    if match.clock and match.state is not None:
        match.clock = clocks.transition(
            match.clock,
            clocks.of_match(match),
            before=match.rules.awaited(match.state),
            after=set(),
            actor=None,
            now_ms=clocks.epoch_ms(now),
            windows={},
        )
    match.status = Match.Status.ABORTED
    match.finished_at = now
    change.commit(changed=("status", "finished_at", "clock"), logged=[], now=now, frames=_aborted_frame)
    return True


def _aborted_frame(match: Match) -> Update:
    return Update({match.group_name("all"): encode_frame("aborted", match.version, {"by": "moderator"})})


def sweep(*, now: datetime | None = None) -> dict[str, int]:
    """Queue the deadlines that fall within the horizon (``writer.deadline_horizon``): the ones a commit left to
    the sweeper, and overdue ones whose task was lost (worker restart, broker loss); a deadline queued twice
    expires once, keyed by its version. Re-queue stalled bot moves and expire stale open tables."""
    now = now or timezone.now()
    due = list(
        Match.objects.filter(
            status=Match.Status.ACTIVE, deadline_at__lte=now + writer.deadline_horizon()
        ).values_list("pk", "version", "deadline_at")
    )
    for match_id, version, deadline_at in due:
        jobs.queue_deadline(match_id, version, deadline_at)
    stalled = stalled_bot_moves(now=now)
    for match_id, version in stalled:
        jobs.queue_bot_move(match_id, version)
    cutoff = now - timedelta(seconds=settings.TAPETE_OPEN_TABLE_TTL_SECONDS)
    expired = writer.expire_open_tables(created_before=cutoff)
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
