"""Timeouts, absence and sweeping with time under the tests' control (``now=``): no real waiting."""

import random
import threading
from datetime import timedelta

import pytest
from django.db import connection
from django.utils import timezone

from turnengine import seat_frames, services, timers, updates
from turnengine.errors import EngineError
from turnengine.models import Match, MatchAction, Seat

pytestmark = pytest.mark.django_db


def _deadline(match):
    match.refresh_from_db()
    return match.deadline_at


def _expire(match, after=timedelta(milliseconds=1)):
    """Let the current deadline pass and run the deadline task's service."""
    match.refresh_from_db()
    update = timers.match_expire(match_id=match.pk, version=match.version, now=match.deadline_at + after)
    match.refresh_from_db()
    return update


def django_capture_on_commit_callbacks(execute: bool):
    from django.test import TestCase

    return TestCase.captureOnCommitCallbacks(execute=execute)


def _sweep_running_tasks_at_once(settings) -> dict:
    """The sweeper, with the tasks it queues run in this process as they are queued. Through the Django settings,
    which the Celery app reads its configuration from (``CELERY_*``): a value set on ``app.conf`` is shadowed by
    the setting in Celery 5.6."""
    settings.CELERY_TASK_ALWAYS_EAGER = True
    try:
        return timers.sweep()
    finally:
        settings.CELERY_TASK_ALWAYS_EAGER = False


def _play(match, users, seat, rng):
    action = rng.choice(match.rules.legal_actions(match.state, seat))
    services.match_apply_action(
        match_id=match.pk, user=users[seat], expected_version=match.version, action=action
    )
    match.refresh_from_db()


def test_a_started_table_has_a_deadline_for_the_awaited_seat(start_table):
    match, _users = start_table("perudo", 2, time_control="blitz")
    (seat,) = match.rules.awaited(match.state)
    assert match.clock["since"][seat] is not None
    # clocks count whole milliseconds
    assert abs(match.deadline_at - (match.last_action_at + timedelta(minutes=2))) < timedelta(milliseconds=1)


def test_nothing_happens_before_the_deadline_or_for_a_stale_version(start_table):
    match, _users = start_table("perudo", 2)
    version = match.version
    assert (
        timers.match_expire(match_id=match.pk, version=version, now=match.deadline_at - timedelta(seconds=1))
        is None
    )
    assert (
        timers.match_expire(
            match_id=match.pk, version=version - 1, now=match.deadline_at + timedelta(hours=1)
        )
        is None
    )
    match.refresh_from_db()
    assert match.version == version


def test_an_expired_clock_plays_the_games_timeout_action(start_table):
    match, _users = start_table("perudo", 2)
    (seat,) = match.rules.awaited(match.state)
    expected = match.rules.timeout_action(match.state, seat)
    assert _expire(match) is not None
    last = MatchAction.objects.filter(match=match, seat=seat).order_by("-step").first()
    assert last.action == expected
    assert match.clock["timeouts"][seat] == 1 and not match.clock["absent"][seat]


def test_two_timeouts_in_a_row_make_a_seat_absent_and_auto_play_takes_over(start_table):
    match, users = start_table("chinesecheckers", 2, {"firstPlayer": "seat0"})
    rng = random.Random(1)
    _expire(match)  # seat 0 times out
    _play(match, users, 1, rng)  # seat 1 moves
    _expire(match)  # seat 0 times out again: absent
    assert match.clock["absent"] == [True, False]
    _play(match, users, 1, rng)
    # Seat 0 was auto-played at once, in the same commit: it is seat 1's turn again.
    assert match.rules.awaited(match.state) == frozenset({1})
    presence = seat_frames.seats_public(match)
    assert presence[0]["absent"] is True


def test_a_move_of_ones_own_ends_the_run_of_timeouts(start_table):
    match, users = start_table("chinesecheckers", 2, {"firstPlayer": "seat0"})
    rng = random.Random(2)
    _expire(match)
    _play(match, users, 1, rng)
    _play(match, users, 0, rng)
    assert match.clock["timeouts"][0] == 0


def test_an_absent_player_comes_back(start_table):
    match, users = start_table("chinesecheckers", 2, {"firstPlayer": "seat0"})
    timers.seat_leave(match_id=match.pk, user=users[1])
    match.refresh_from_db()
    assert match.clock["absent"] == [False, True]
    timers.seat_reclaim(match_id=match.pk, user=users[1])
    match.refresh_from_db()
    assert match.clock["absent"] == [False, False]


def test_leaving_a_ranked_game_is_abandonment_and_the_table_plays_on(start_table):
    match, users = start_table("perudo", 4, ranked=True)
    timers.seat_leave(match_id=match.pk, user=users[3])
    assert Seat.objects.get(match=match, index=3).abandoned
    rng = random.Random(3)
    for _ in range(2000):
        match.refresh_from_db()
        if match.status != Match.Status.ACTIVE:
            break
        present = [s for s in match.rules.to_act(match.state) if s != 3]
        if present:
            _play(match, users, rng.choice(present), rng)
        else:
            _expire(match)
    assert match.status == Match.Status.FINISHED
    assert sorted(seat for group in match.result["ranking"] for seat in group) == [0, 1, 2, 3]


def test_a_four_player_table_finishes_when_a_player_stops_playing(start_table):
    """Done-when of the clocks issue: one player closes the browser; timeouts then auto-play finish the game."""
    match, users = start_table("perudo", 4)
    rng = random.Random(4)
    for _ in range(3000):
        match.refresh_from_db()
        if match.status != Match.Status.ACTIVE:
            break
        awaited = match.rules.awaited(match.state)
        if 2 in awaited:
            _expire(match)  # seat 2 is gone: only its clock moves the game on
        else:
            _play(match, users, rng.choice(sorted(match.rules.to_act(match.state) - {2})), rng)
    assert match.status == Match.Status.FINISHED
    assert match.clock["absent"][2]


def test_ending_by_vote_needs_everyone_else_absent(start_table):
    match, users = start_table("spicy", 3, {"challengeGraceMs": 0})
    with pytest.raises(EngineError) as refused:
        timers.match_end_by_vote(match_id=match.pk, user=users[0])
    assert refused.value.code == "others_present"
    timers.seat_leave(match_id=match.pk, user=users[1])
    timers.seat_leave(match_id=match.pk, user=users[2])
    timers.match_end_by_vote(match_id=match.pk, user=users[0])
    match.refresh_from_db()
    assert match.status == Match.Status.FINISHED
    assert match.result["ranking"] == [[0], [1, 2]] and match.result["reason"] == "ended_by_vote"


def test_the_sweeper_catches_a_lost_deadline_and_closes_stale_open_tables(start_table, make_user, settings):
    from lobby import services as lobby

    match, _users = start_table("perudo", 2)
    version = match.version
    # The deadline task was lost: move the match's clock two hours into the past.
    shift = timedelta(hours=2)
    Match.objects.filter(pk=match.pk).update(deadline_at=match.deadline_at - shift)
    match.refresh_from_db()
    match.clock["since"] = [
        None if s is None else s - int(shift.total_seconds() * 1000) for s in match.clock["since"]
    ]
    Match.objects.filter(pk=match.pk).update(clock=match.clock)
    stale = lobby.table_create(user=make_user(), game="spicy", num_players=3, options={}, ranked=False)
    Match.objects.filter(pk=stale.pk).update(created_at=timezone.now() - timedelta(days=1))
    result = _sweep_running_tasks_at_once(settings)
    assert result == {"deadlines_queued": 1, "bots_requeued": 0, "expired_tables": 1}
    assert Match.objects.get(pk=match.pk).version == version + 1
    assert Match.objects.get(pk=stale.pk).status == Match.Status.ABORTED


def test_a_commit_queues_only_a_near_deadline_and_the_sweeper_queues_the_rest(
    start_table, settings, monkeypatch
):
    from turnengine import jobs

    queued = []
    monkeypatch.setattr(
        jobs, "queue_deadline", lambda match_id, version, eta: queued.append((match_id, version, eta))
    )
    settings.TAPETE_SCHEDULE_DEADLINES = True
    settings.TAPETE_SWEEP_SECONDS = 15
    match, users = start_table("chinesecheckers", 2, {"firstPlayer": "seat0"})  # blitz: two minutes ahead
    with django_capture_on_commit_callbacks(execute=True):
        _play(match, users, 0, random.Random(1))
    assert queued == [], "a deadline two minutes away is not handed to Celery at the move"
    assert timers.sweep(now=match.deadline_at - timedelta(seconds=31))["deadlines_queued"] == 0
    assert timers.sweep(now=match.deadline_at - timedelta(seconds=29))["deadlines_queued"] == 1
    assert queued == [(match.pk, match.version, match.deadline_at)], "queued for its version, due at its time"
    short = {"profile": "test", "kind": "realtime", "bank_ms": 5000, "increment_ms": 0, "cap_ms": 5000}
    Match.objects.filter(pk=match.pk).update(time_control=short, clock={**match.clock, "bank": [5000, 5000]})
    match.refresh_from_db()
    with django_capture_on_commit_callbacks(execute=True):
        _play(match, users, 1, random.Random(1))
    assert queued[-1] == (match.pk, match.version, match.deadline_at), (
        "a near deadline is queued at the commit"
    )


def test_the_sweeper_replays_a_bot_move_whose_task_was_lost(make_user, settings):
    from lobby import services as lobby

    settings.TAPETE_SCHEDULE_BOTS = True
    human = make_user()
    match = lobby.table_create(user=human, game="perudo", num_players=2, options={}, ranked=False)
    lobby.table_add_bot(user=human, match_id=match.pk, level="easy")
    lobby.table_start(user=human, match_id=match.pk)
    match.refresh_from_db()
    if 0 in match.rules.awaited(match.state):  # let the human open so that the bot is the one to act
        _play(match, {0: human}, 0, random.Random(3))
    assert match.rules.awaited(match.state) == {1}
    version = match.version
    recently = timezone.now() - timedelta(seconds=settings.TAPETE_BOT_DELAY_SECONDS)
    Match.objects.filter(pk=match.pk).update(last_action_at=recently)
    assert timers.sweep()["bots_requeued"] == 0, "a bot still inside its pause is left alone"
    Match.objects.filter(pk=match.pk).update(last_action_at=timezone.now() - timedelta(minutes=5))
    result = _sweep_running_tasks_at_once(settings)
    assert result["bots_requeued"] == 1
    assert MatchAction.objects.filter(match=match, seat=1).count() == 1
    assert Match.objects.get(pk=match.pk).version == version + 1


@pytest.mark.django_db(transaction=True)
def test_a_move_racing_its_deadline_applies_exactly_one_of_them(start_table):
    match, users = start_table("chinesecheckers", 2, {"firstPlayer": "seat0"})
    version = match.version
    move = match.rules.legal_actions(match.state, 0)[0]
    barrier = threading.Barrier(2)
    outcomes = []

    def run(call):
        try:
            barrier.wait()
            outcomes.append(call())
        except EngineError as error:
            outcomes.append(error)
        finally:
            connection.close()

    def move_applied():  # a move's service returns nothing (its frames go through the outbox)
        services.match_apply_action(match_id=match.pk, user=users[0], expected_version=version, action=move)
        return "applied"

    calls = [
        move_applied,
        lambda: timers.match_expire(
            match_id=match.pk, version=version, now=match.deadline_at + timedelta(seconds=1)
        ),
    ]
    threads = [threading.Thread(target=run, args=(call,)) for call in calls]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join(30)
    applied = [o for o in outcomes if o == "applied" or isinstance(o, updates.Update)]
    assert len(applied) == 1
    assert all(
        o is None or (isinstance(o, EngineError) and o.code == "stale") for o in outcomes if o not in applied
    )
    assert Match.objects.get(pk=match.pk).version == version + 1


def test_a_last_card_waits_for_the_grace_period_not_the_opponents_bank(start_table):
    from games.spicy.rules import LAST_CARD

    match, users = start_table("spicy", 2, {"challengeGraceMs": 3000, "handSize": 1})
    (seat,) = match.rules.awaited(match.state)
    play = next(a for a in match.rules.legal_actions(match.state, seat) if a["type"] == "play")
    services.match_apply_action(
        match_id=match.pk, user=users[seat], expected_version=match.version, action=play
    )
    match.refresh_from_db()
    assert match.state["phase"] == LAST_CARD
    opponent = 1 - seat
    assert match.clock["window"][opponent] == 3000
    assert abs(match.deadline_at - (match.last_action_at + timedelta(seconds=3))) < timedelta(milliseconds=1)
    _expire(match)  # nobody challenged in time: the opponent declines automatically, and it is no fault
    assert match.clock["timeouts"][opponent] == 0
    assert match.state["phase"] != LAST_CARD or match.status == Match.Status.FINISHED
