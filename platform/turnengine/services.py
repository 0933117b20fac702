"""The turn engine's moves: the start of a match, a player's action, and every chance step and auto-played move that
follows, each written by the match writer (``turnengine.writer``: lock, check, change, bump the version, commit;
the frames go on commit, built per seat by ``turnengine.seat_frames``).

Chance: step ``k`` of a match draws from ``random.Random(f"{seed}:{k}")``. The seed is secret while the match runs
(its SHA-256 is public from the start) and published when it ends, so anyone can re-derive every roll and shuffle.
"""

from __future__ import annotations

import random
from datetime import datetime
from functools import partial

from django.utils import timezone
from tapete_sdk.plugin import CHANCE, canonical_action, replay

from turnengine import bot_seats, clocks, spectating, vacations, writer
from turnengine.errors import engine_error, rule_errors_coded
from turnengine.models import Match, MatchAction

# What an advance changes (the writer adds the version, the deadline and a finish).
PLAY_FIELDS = ("state", "steps", "clock")


def chance_rng(seed: str, step: int) -> random.Random:
    return random.Random(f"{seed}:{step}")


# --- applying actions -----------------------------------------------------------------------------------------


def match_begin(change: writer.MatchChange, *, now: datetime | None = None) -> None:
    """Deal the opening position of the locked, full match of ``change`` and make it active (the lobby's start):
    every seat gets its first view on commit."""
    match, now = change.match, now or timezone.now()
    rules = match.rules
    match.state = rules.initial_state(match.options, match.num_players)
    match.status = Match.Status.ACTIVE
    match.started_at = now
    if not match.time_control:
        match.time_control = clocks.profile_json(clocks.DEFAULT_PROFILE)
    match.clock = clocks.initial_clock(clocks.of_match(match), match.num_players)
    vacations.windows_at_start(match, now)
    logged = advance(match, rules, None, None, now)
    change.commit(
        changed=(*PLAY_FIELDS, "status", "started_at", "time_control"),
        logged=logged,
        now=now,
        frames=spectating.close_to_spectators,
    )


def match_apply_action(
    *, match_id: int, user, expected_version: int, action: dict, now: datetime | None = None
) -> None:
    """Apply ``user``'s action at ``match_id`` if ``expected_version`` is current; its frames go through the outbox
    on commit (a socket collects them and sends the mover's own view first: ``realtime.broadcast.run_writer``)."""
    now = now or timezone.now()
    writer.change_match(
        match_id, partial(_apply_action, expected_version, action, now), user=user, version=expected_version
    )


def _apply_action(expected_version: int, action: dict, now: datetime, change: writer.MatchChange) -> None:
    match, seat = seated(change)
    if expected_version != match.version:
        raise engine_error("stale", version=match.version)
    rules = match.rules
    with rule_errors_coded(match.version):
        # From here on the action is the rules' canonical form, never the client's object (stored and sent).
        action = canonical_action(rules, match.state, seat, action)
        delay_ms = rules.action_delay_ms(match.state, seat, action)
        if delay_ms and match.last_action_at:
            elapsed_ms = (now - match.last_action_at).total_seconds() * 1000
            if elapsed_ms < delay_ms:
                raise engine_error("too_early", version=match.version)
        match.clock["timeouts"][seat] = 0  # a move of one's own ends a run of timeouts
        logged = advance(match, rules, seat, action, now)
    change.commit(changed=PLAY_FIELDS, logged=logged, now=now)


def seated(change: writer.MatchChange) -> tuple[Match, int]:
    """The running match of ``change`` (locked with the user's seat) and that seat; refused otherwise."""
    match = change.match
    if match is None:
        raise engine_error("not_found")
    if match.status != Match.Status.ACTIVE:
        raise engine_error("not_active", version=match.version)
    if match.user_seat is None:
        raise engine_error("not_seated", version=match.version)
    return match, match.user_seat


def _apply(match: Match, rules, seat: int, action: dict) -> MatchAction:
    match.state, events = rules.apply_action(match.state, seat, action)
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
        control, now_ms = clocks.of_match(match), clocks.epoch_ms(now)
        played_for = sorted(
            s for s in rules.awaited(match.state) if clocks.played_for(match.clock, control, s, now_ms)
        )
        if not played_for:
            break
        clocks.set_computer_played(match.clock, played_for[0])
        logged.append(_apply(match, rules, played_for[0], bot_seats.auto_play_action(match, played_for[0])))
    after = rules.awaited(match.state)
    window_ms = getattr(rules, "window_ms", None)
    windows = {s: window_ms(match.state, s) for s in after - before} if window_ms else {}
    match.clock = clocks.transition(
        match.clock,
        clocks.of_match(match),
        before=before,
        after=after,
        actor=seat,
        now_ms=clocks.epoch_ms(now),
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
