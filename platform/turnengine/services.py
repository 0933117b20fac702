"""The turn engine's services: the only code that changes a match's state.

Every change runs in one short transaction: lock the match row, check, apply the action and any chance steps that
follow it, append to the action log, bump the version, commit. Its :class:`~turnengine.updates.Update` is
registered to be sent on commit (``turnengine.outbox``), so nobody ever sees a state that was rolled back, and
unredacted state never leaves this module: frames are built per seat from ``rules.view``.

Chance: step ``k`` of a match draws from ``random.Random(f"{seed}:{k}")``. The seed is secret while the match runs
(its SHA-256 is public from the start) and published when it ends, so anyone can re-derive every roll and shuffle.
"""

from __future__ import annotations

import random
from datetime import UTC, datetime, timedelta

from django.conf import settings
from django.db import transaction
from django.utils import timezone
from tapete_sdk.plugin import CHANCE, RulesError, canonical_action, replay

from ratings.elo import final_ranking
from ratings.models import RatingChange
from ratings.selectors import match_pool, ratings_by_user
from ratings.services import rating_apply_outcome
from turnengine import bot_seats, clocks, jobs, match_sql, outbox
from turnengine.chat import recent_chat
from turnengine.errors import EngineError, engine_error
from turnengine.models import Match, MatchAction, PresenceNotice, Seat
from turnengine.signals import announce_finish
from turnengine.updates import Update, encode_frame


def chance_rng(seed: str, step: int) -> random.Random:
    return random.Random(f"{seed}:{step}")


# --- applying actions -----------------------------------------------------------------------------------------


def match_begin(*, match: Match, now: datetime | None = None) -> list[MatchAction]:
    """Deal the opening position of a locked, full match and make it active (called by the lobby's start)."""
    now = now or timezone.now()
    rules = match.rules
    match.state = rules.initial_state(match.options, match.num_players)
    match.status = Match.Status.ACTIVE
    match.started_at = now
    if not match.time_control:
        match.time_control = clocks.profile_json(clocks.DEFAULT_PROFILE)
    match.clock = clocks.initial_clock(time_control(match), match.num_players)
    logged = advance(match, rules, None, None, now)
    persist(match, logged, now, also=BEGIN_FIELDS)
    return logged


def match_apply_action(*, match_id: int, user, expected_version: int, action: dict) -> Update:
    """Apply ``user``'s action at ``match_id`` if ``expected_version`` is current; its frames are sent on commit
    (and returned)."""
    match, logged = match_commit_action(
        match_id=match_id, user=user, expected_version=expected_version, action=action
    )
    update = build_update(match, logged)
    outbox.send_on_commit(update)
    return update


def match_commit_action(
    *, match_id: int, user, expected_version: int, action: dict, now: datetime | None = None
) -> tuple[Match, list[MatchAction]]:
    """The transaction alone: lock, check, apply, log, commit. Returns the match and the rows it logged, from which
    :func:`build_update` makes the frames (the consumer builds them in the same database-thread hop: see
    ``realtime.consumers``)."""
    now = now or timezone.now()
    with transaction.atomic():
        match, seat = lock_with_seat(match_id, user)
        if expected_version != match.version:
            raise engine_error("stale", version=match.version)
        rules = match.rules
        # From here on the action is the rules' canonical form, never the client's object (stored and broadcast).
        action = _rules_call(match, canonical_action, rules, match.state, seat, action)
        delay_ms = _rules_call(match, rules.action_delay_ms, match.state, seat, action)
        if delay_ms and match.last_action_at:
            elapsed_ms = (now - match.last_action_at).total_seconds() * 1000
            if elapsed_ms < delay_ms:
                raise engine_error("too_early", version=match.version)
        match.clock["timeouts"][seat] = 0  # a move of one's own ends a run of timeouts
        logged = advance(match, rules, seat, action, now)
        persist(match, logged, now)
    return match, logged


def lock_with_seat(match_id: int, user) -> tuple[Match, int]:
    """Lock the match row and find the user's seat in the same query (one round trip fewer per move)."""
    match = match_sql.lock_match(match_id, user.pk)
    if match is None:
        raise engine_error("not_found")
    if match.status != Match.Status.ACTIVE:
        raise engine_error("not_active", version=match.version)
    if match.user_seat is None:
        raise engine_error("not_seated", version=match.version)
    return match, match.user_seat


def _rules_call(match: Match, function, *args):
    try:
        return function(*args)
    except RulesError as error:
        raise EngineError(error.code, error.message, version=match.version) from None


def _apply(match: Match, rules, seat: int, action: dict) -> MatchAction:
    match.state, events = _rules_call(match, rules.apply_action, match.state, seat, action)
    match.steps += 1
    return MatchAction(match=match, step=match.steps, seat=seat, action=action, events=events)


def advance(match: Match, rules, seat: int | None, action: dict | None, now: datetime) -> list[MatchAction]:
    """Apply ``seat``'s action (if any), then every chance step and every move auto-played for absent seats the
    game awaits, and move the clocks on. Returns the logged rows."""
    before = rules.awaited(match.state)
    logged = [_apply(match, rules, seat, action)] if action is not None else []
    while True:
        acting = rules.to_act(match.state)
        if CHANCE in acting:
            chance = rules.sample_chance(match.state, chance_rng(match.seed, match.steps + 1))
            logged.append(_apply(match, rules, CHANCE, chance))
            continue
        control, now_ms = time_control(match), epoch_ms(now)
        played_for = sorted(
            s for s in rules.awaited(match.state) if clocks.played_for(match.clock, control, s, now_ms)
        )
        if not played_for:
            break
        logged.append(_apply(match, rules, played_for[0], bot_seats.auto_play_action(match, played_for[0])))
    after = rules.awaited(match.state)
    window_ms = getattr(rules, "window_ms", None)
    windows = {s: window_ms(match.state, s) for s in after - before} if window_ms else {}
    match.clock = clocks.transition(
        match.clock,
        time_control(match),
        before=before,
        after=after,
        actor=seat,
        now_ms=epoch_ms(now),
        windows=windows,
        pause_ms=reveal_pause_ms(rules, logged),
    )
    return logged


def reveal_pause_ms(rules, logged: list[MatchAction]) -> int:
    """The pause the rules ask for after the events just logged (a reveal players need to see): the clocks that
    start now start that much later (``turnengine.clocks``). Rules without ``reveal_pause_ms`` never pause."""
    pause = getattr(rules, "reveal_pause_ms", None)
    if pause is None or not logged:
        return 0
    return pause([event for row in logged for event in row.events])


def time_control(match: Match) -> clocks.TimeControl:
    return clocks.TimeControl.from_json(match.time_control)


def epoch_ms(moment: datetime) -> int:
    return int(moment.timestamp() * 1000)


# What a move may change; a finish adds its result, the start its settings.
MOVE_FIELDS = ("state", "version", "steps", "last_action_at", "clock", "deadline_at")
FINISH_FIELDS = ("status", "result", "finished_at")
BEGIN_FIELDS = ("status", "started_at", "time_control")


def persist(match: Match, logged: list[MatchAction], now: datetime, also: tuple[str, ...] = ()) -> None:
    """Bump the version, settle a finish or the next deadline, and write the match with its logged rows; ``also``
    names further fields the caller changed."""
    fields = MOVE_FIELDS + also
    match.version += 1
    match.last_action_at = now
    outcome = match.rules.outcome(match.state)
    if outcome is not None:
        match.status = Match.Status.FINISHED
        match.result = final_result(match, outcome)
        match.finished_at = now
        match.deadline_at = None
        fields += FINISH_FIELDS
        rating_apply_outcome(match=match)  # same transaction as the result: both stand or neither
        announce_finish(match)
    else:
        deadline = clocks.next_deadline(match.clock, time_control(match))
        match.deadline_at = None if deadline is None else datetime.fromtimestamp(deadline / 1000, tz=UTC)
    for row in logged:
        row.version = match.version
    match_sql.write_move(match, tuple(dict.fromkeys(fields)), logged)
    if match.deadline_at is not None:
        schedule_deadline(match)
    if match.status == Match.Status.ACTIVE:
        bot_seats.schedule_bots(match)


def final_result(match: Match, outcome) -> dict:
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


def deadline_horizon() -> timedelta:
    """How far ahead deadlines are handed to Celery: two rounds of the sweeper, which queues the later ones as they
    come this near (``timers.sweep``)."""
    return timedelta(seconds=2 * settings.TAPETE_SWEEP_SECONDS)


def schedule_deadline(match: Match) -> None:
    """After the commit, ask Celery to check this match at its deadline (keyed by the version it was set for), if
    the deadline falls within the horizon. A later one is left to the sweeper: most moves then queue nothing, and
    no task waits for hours in a worker (Celery keeps a task with an ETA in the worker's memory until it is due,
    and the Redis broker hands it out again each time its visibility timeout passes)."""
    if not settings.TAPETE_SCHEDULE_DEADLINES or match.deadline_at > timezone.now() + deadline_horizon():
        return
    jobs.deadline_on_commit(match.pk, match.version, match.deadline_at)


# --- what each seat receives ----------------------------------------------------------------------------------


def visible_events(events: list[dict], seat: int | None) -> list[dict]:
    """The events ``seat`` (None: spectators) may see, without their visibility tags."""
    return [
        {key: value for key, value in event.items() if key != "visible_to"}
        for event in events
        if event.get("visible_to") is None or (seat is not None and seat in event["visible_to"])
    ]


def match_meta(match: Match) -> dict:
    """Public facts about the match that every frame of a new version carries (clocks included; once it is over,
    each seat's rating change on a ranked table)."""
    return {
        "status": match.status,
        "result": match.result,
        "seed_hash": match.seed_hash,
        "seed": match.seed if match.seed_is_public else None,
        "clock": clock_payload(match),
        "rating_changes": rating_changes(match) if match.status == Match.Status.FINISHED else None,
    }


def rating_changes(match: Match) -> dict[str, dict] | None:
    """Seat -> its rating before and after this match and the change, for a rated finished match."""
    if not match.ranked:
        return None
    seats = dict(match.seats.values_list("user_id", "index"))
    rows = RatingChange.objects.filter(match=match, reversed_at__isnull=True).values_list(
        "user_id", "before", "after", "delta"
    )
    return {
        str(seats[user_id]): {"before": round(before), "after": round(after), "delta": round(delta)}
        for user_id, before, after, delta in rows
        if user_id in seats
    }


def clock_payload(match: Match) -> dict | None:
    """Every seat's time: bank left, the deadline of running clocks (epoch ms; none once the match is over or
    aborted), when each clock starts (``since``: later than now during a reveal pause), the disconnection grace,
    absences; plus the server's time so clients can count down without trusting their own clock."""
    if not match.clock:
        return None
    control = time_control(match)
    running = match.status == Match.Status.ACTIVE
    return {
        "kind": control.kind,
        "bank_ms": match.clock["bank"],
        "deadlines": {
            str(seat): deadline for seat, deadline in clocks.deadlines(match.clock, control).items()
        }
        if running
        else {},
        "since": match.clock["since"] if running else [None] * match.num_players,
        "windows": [window is not None for window in match.clock["window"]],
        "absent": match.clock["absent"],
        "grace_ms": control.grace_ms,
        "server_ms": epoch_ms(timezone.now()),
    }


def seat_payload(match: Match, seat: int | None, events: list[dict], meta: dict | None = None) -> dict:
    """What ``seat`` (None: spectators) sees of the match now; ``meta`` is :func:`match_meta`, if already built."""
    rules = match.rules
    return {
        **(meta or match_meta(match)),
        "seat": seat,
        "view": rules.view(match.state, seat),
        "legal": rules.legal_actions(match.state, seat) if seat is not None else [],
        "events": visible_events(events, seat),
    }


def build_update(match: Match, logged: list[MatchAction]) -> Update:
    events = [event for row in logged for event in row.events]
    meta = match_meta(match)
    watched = match.spectator_connections > 0  # read under the match's row lock: see presence.connection_open
    update = Update(match_id=match.pk, version=match.version)
    for seat in [*range(match.num_players), *([None] if watched else [])]:
        update.frames[match.group_name(seat)] = encode_frame(
            "view", match.version, seat_payload(match, seat, events, meta)
        )
    return update


def match_snapshot(*, match: Match, seat: int | None, chat_limit: int = 50, extra: dict | None = None) -> str:
    """The full frame a client gets on connect and on ``sync``: view, legal actions, its whole log, seats, chat."""
    log = table_log(match) if match.state is not None else None
    data = seat_payload(match, seat, log) if log is not None else {**match_meta(match), "seat": seat}
    data.update(
        {
            "snapshot": True,
            "match_id": match.pk,
            "game": match.game,
            "players": seats_public(match),
            "chat": recent_chat(match=match, seat=seat, limit=chat_limit),
        }
    )
    data.update(extra or {})
    return encode_frame("view", match.version, data)


# A reloaded page gets at most this many of the table's connection lines (the most recent), so a player whose
# connection comes and goes all game long cannot make every snapshot grow without end.
SNAPSHOT_NOTICES = 200


def table_log(match: Match) -> list[dict]:
    """The table's whole log: every logged action's events, with the connection lines (``PresenceNotice``) in
    their place, each after the actions of the version it happened at."""
    rows = MatchAction.objects.filter(match=match).order_by("step").values_list("version", "events")
    recent = PresenceNotice.objects.filter(match=match).order_by("-pk")
    notices = list(recent.values_list("version", "notice")[:SNAPSHOT_NOTICES])
    notices.reverse()
    log, next_notice = [], 0
    for version, events in rows:
        while next_notice < len(notices) and notices[next_notice][0] < version:
            log.append(notices[next_notice][1])
            next_notice += 1
        log.extend(events)
    log.extend(notice for _version, notice in notices[next_notice:])
    return log


def seats_public(match: Match) -> list[dict]:
    """Who sits where, online or absent, with their rating in this table's pool."""
    clock = match.clock or {}
    absent = clock.get("absent") or [False] * match.num_players
    seats = list(match.seats.select_related("user").order_by("index"))
    ratings = ratings_by_user(
        game=match.game, pool=match_pool(match), user_ids=[seat.user_id for seat in seats]
    )
    return [
        {
            "seat": seat.index,
            "username": seat.user.username,
            "online": seat.connections > 0 or seat.user.is_bot,
            "absent": absent[seat.index],
            "offline_since": clocks.offline_since(clock, seat.index) if clock else None,
            "left": clocks.has_left(clock, seat.index) if clock else False,
            "rating": ratings[seat.user_id].display if seat.user_id in ratings else None,
            "bot": seat.user.is_bot,
        }
        for seat in seats
    ]


# --- presence ---------------------------------------------------------------------------------------------------


def presence_frames(match: Match, notice: dict | None = None) -> Update:
    """Who is online, offline (since when) and absent, with the clocks (a disconnection moves a deadline), for
    everyone at the table; ``notice`` is what changed, for the log ({type, seat}: disconnected, reconnected,
    left, back; kept by ``presence.record_notice``)."""
    data = {"players": seats_public(match), "clock": clock_payload(match), "notice": notice}
    return Update({match.group_name("all"): encode_frame("presence", match.version, data)})


# --- replays ----------------------------------------------------------------------------------------------------


def match_replay_state(*, match: Match) -> dict:
    """Rebuild the state from the stored options and action log (chance steps included)."""
    log = list(MatchAction.objects.filter(match=match).order_by("step").values_list("seat", "action"))
    return replay(match.rules, match.options, match.num_players, log)


def match_recompute_chance(*, match: Match) -> list[dict]:
    """Re-derive every chance action from the published seed, as an outside verifier would."""
    rules = match.rules
    state = rules.initial_state(match.options, match.num_players)
    derived = []
    for row in MatchAction.objects.filter(match=match).order_by("step"):
        if row.seat == CHANCE:
            derived.append(rules.sample_chance(state, chance_rng(match.seed, row.step)))
        state, _events = rules.apply_action(state, row.seat, row.action)
    return derived
