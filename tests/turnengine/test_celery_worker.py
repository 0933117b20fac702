"""Clocks with a real Celery worker: nobody's absence hangs a table, even across a worker crash.

Runs on the Redis broker with PostgreSQL when ``REDIS_URL`` and a PostgreSQL ``DATABASE_URL`` are set (CI), and on
the embedded default (the SQLite broker, SQLite) otherwise. Real seconds pass here, by nature."""

import os
import signal
import time
from pathlib import Path

import pytest
from django.db import connection

from lobby import services as lobby
from tests.servers import celery_worker, wait_for_other_database_sessions
from turnengine import services
from turnengine.models import Match

pytestmark = pytest.mark.django_db(transaction=True)

TINY_CLOCK = {"profile": "test", "kind": "realtime", "bank_ms": 400, "increment_ms": 300, "cap_ms": 600}
# Beyond the horizon of two 1-second sweeps: the move leaves the deadline to the sweeper, which queues it.
SWEPT_CLOCK = {"profile": "test", "kind": "realtime", "bank_ms": 3000, "increment_ms": 0, "cap_ms": 3000}


def _worker_env() -> dict:
    """The worker uses the test database and the same broker as this process."""
    db = connection.settings_dict
    if connection.vendor == "sqlite":
        return {"DATABASE_URL": f"sqlite:///{Path(db['NAME']).resolve()}", "TAPETE_SWEEP_SECONDS": "1"}
    return {
        "DATABASE_URL": f"postgres://{db['USER']}@{db['HOST']}:{db['PORT']}/{db['NAME']}",
        "REDIS_URL": os.environ.get("REDIS_URL", ""),
        "TAPETE_SWEEP_SECONDS": "1",
    }


def _table(make_user, settings, clock=TINY_CLOCK):
    settings.TAPETE_SCHEDULE_DEADLINES = True
    settings.TAPETE_SWEEP_SECONDS = 1  # as in the worker
    present, gone = make_user(), make_user()
    match = lobby.table_create(
        user=present,
        game="perudo",
        num_players=2,
        options={"startingDice": 2, "maxDice": 2},
        ranked=False,
        time_control="blitz",
    )
    Match.objects.filter(pk=match.pk).update(time_control=clock)
    lobby.table_join(user=gone, match_id=match.pk)
    lobby.table_start(user=present, match_id=match.pk)
    return match, [present, gone]


def _play_until(match, users, condition, timeout: float) -> None:
    """Seat 0 plays whenever awaited; seat 1 never does. Stops when ``condition(match)`` holds."""
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        match.refresh_from_db()
        if condition(match):
            return
        if match.status == Match.Status.ACTIVE and 0 in match.rules.awaited(match.state):
            action = match.rules.timeout_action(match.state, 0)
            try:
                services.match_apply_action(
                    match_id=match.pk, user=users[0], expected_version=match.version, action=action
                )
            except services.EngineError:
                pass  # the worker moved first: read the new state
        time.sleep(0.05)
    raise AssertionError(f"timed out waiting; clock {match.clock}, status {match.status}")


@pytest.mark.parametrize(
    "clock", [TINY_CLOCK, SWEPT_CLOCK], ids=["queued-at-the-move", "queued-by-the-sweeper"]
)
def test_a_player_who_never_moves_is_timed_out_and_the_game_still_ends(make_user, settings, clock):
    match, users = _table(make_user, settings, clock)
    with celery_worker(_worker_env()):
        _play_until(match, users, lambda m: m.status == Match.Status.FINISHED, timeout=120)
    wait_for_other_database_sessions(connection)
    assert match.clock["absent"] == [False, True]
    assert match.result["ranking"] in ([[0], [1]], [[1], [0]])


def test_a_worker_killed_mid_game_loses_no_deadline(make_user, settings):
    match, users = _table(make_user, settings)
    with celery_worker(_worker_env()) as worker:
        _play_until(match, users, lambda m: m.clock["timeouts"][1] >= 1 or m.clock["absent"][1], timeout=60)
        worker.send_signal(signal.SIGKILL)  # a crash: any deadline it held is gone with it
        worker.wait(10)
    time.sleep(1)  # the next deadline passes while no worker runs
    # The restarted worker's sweeper finds the overdue deadline (nothing purged: the broker is as the crash left it).
    with celery_worker(_worker_env(), purge=False):
        _play_until(match, users, lambda m: m.status == Match.Status.FINISHED, timeout=120)
    wait_for_other_database_sessions(connection)
    assert match.status == Match.Status.FINISHED


def test_a_single_player_plays_a_table_of_bots_to_the_end(make_user, settings):
    settings.TAPETE_SCHEDULE_BOTS = True
    settings.TAPETE_BOT_DELAY_SECONDS = 0.05
    human = make_user()
    match = lobby.table_create(
        user=human,
        game="perudo",
        num_players=3,
        options={"startingDice": 2, "maxDice": 2},
        ranked=False,
        time_control="blitz",
    )
    lobby.table_add_bot(user=human, match_id=match.pk, level="easy")
    lobby.table_add_bot(user=human, match_id=match.pk, level="medium")
    lobby.table_start(user=human, match_id=match.pk)
    with celery_worker({**_worker_env(), "TAPETE_BOT_DELAY_SECONDS": "0.05"}):
        _play_until(match, [human], lambda m: m.status == Match.Status.FINISHED, timeout=120)
    wait_for_other_database_sessions(connection)
    assert match.status == Match.Status.FINISHED
    assert sorted(seat for group in match.result["ranking"] for seat in group) == [0, 1, 2]


def test_with_beat_stopped_a_play_worker_sweeps_and_a_far_deadline_still_passes(make_user, settings):
    """No beat at all: the deadline lies beyond the horizon, so the start does not queue it; the worker's watch
    notices that no sweep ran (turnengine.beat_watch) and sweeps in beat's place."""
    match, users = _table(make_user, settings, SWEPT_CLOCK)
    with celery_worker(_worker_env(), beat=False):
        _play_until(match, users, lambda m: m.clock["timeouts"][1] >= 1 or m.clock["absent"][1], timeout=60)
    wait_for_other_database_sessions(connection)
