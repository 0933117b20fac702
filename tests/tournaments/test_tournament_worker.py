"""A Swiss tournament's life under a real Celery worker and its beat, as ``./dev serve`` and the deployment run them:
beat's sweep starts it on time and pairs round 1, the tables (played here through the engine's own services) queue
their tournament's step as they finish, round 2 is paired, and the tournament ends; its page's socket, served by a
real daphne process, hears each step (on the embedded default through the relay, as ``./dev serve`` sets it up).
Then a worker killed (SIGKILL) in the middle of pairing a round, its transaction open with the round's row and a
table written: a new worker pairs that round once, whole, and the tournament plays on to its end.

Runs on the Redis broker with PostgreSQL when ``REDIS_URL`` and a PostgreSQL ``DATABASE_URL`` are set, and on the
embedded default (the SQLite broker, SQLite) otherwise. Real seconds pass here, by nature."""

from __future__ import annotations

import json
import os
import secrets
import signal
import threading
import time
from datetime import timedelta
from pathlib import Path

import pytest
from django.db import connection
from django.utils import timezone
from websockets.sync.client import connect

from tests.servers import celery_worker, daphne_servers, wait_for_other_database_sessions
from tests.tournaments.test_life_cycle import current_tables, win
from tournaments.models import Entry, Pairing, Round, Tournament, TournamentTable
from turnengine.models import Match

pytestmark = pytest.mark.django_db(transaction=True)

BOUND = 30  # seconds a step may take on a loaded machine; a healthy one takes about one sweep


def _env() -> dict:
    """The site's processes use the test database and the same broker as this process; beat sweeps every second
    and, on the SQLite broker, the worker looks for messages every 50 ms."""
    db = connection.settings_dict
    if connection.vendor == "sqlite":
        url = f"sqlite:///{Path(db['NAME']).resolve()}"
    else:
        url = f"postgres://{db['USER']}@{db['HOST']}:{db['PORT']}/{db['NAME']}"
    return {
        "DATABASE_URL": url,
        "REDIS_URL": os.environ.get("REDIS_URL", ""),
        "TAPETE_SWEEP_SECONDS": "1",
        "TAPETE_WORKER_TICK_SECONDS": "0.05",
    }


def _until(condition, what: str, bound: float = BOUND):
    deadline = time.monotonic() + bound
    while time.monotonic() < deadline:
        value = condition()
        if value:
            return value
        time.sleep(0.1)
    raise AssertionError(f"{what}: not within {bound} s")


def _round(tournament: Tournament, number: int) -> Round | None:
    return Round.objects.filter(tournament=tournament, number=number).first()


def _finish_round(tournament: Tournament) -> None:
    """Seat 0 wins each table of the current round, through the engine's move service; each finish queues the
    tournament's step (``tournaments.schedule``), which the worker runs."""
    for match in current_tables(tournament):
        win(match, 0)


class TournamentSocket:
    """The tournament page's websocket, listening on a thread: every frame it hears."""

    def __init__(self, port: int, tournament_id: int):
        self.frames: list[dict] = []
        self._url = f"ws://127.0.0.1:{port}/ws/tournament/{tournament_id}/"
        self._origin = f"http://127.0.0.1:{port}"
        self._open = threading.Event()
        self._thread = threading.Thread(target=self._listen, daemon=True)
        self._thread.start()
        assert self._open.wait(10), "the tournament's socket did not open"

    def _listen(self) -> None:
        with connect(self._url, additional_headers={"Origin": self._origin}, compression=None) as socket:
            self._socket = socket
            self._open.set()
            for text in socket:
                self.frames.append(json.loads(text))

    def statuses(self) -> list[str]:
        return [frame["d"]["status"] for frame in self.frames if frame["t"] == "tournament"]

    def close(self) -> None:
        self._socket.close()
        self._thread.join(5)


def test_a_worker_and_its_beat_run_a_swiss_from_its_start_to_its_end(make_tournament, settings):
    settings.TAPETE_SCHEDULE_TOURNAMENTS = True  # a finished table queues its tournament's step, as in production
    tournament, _users = make_tournament(players=5, rounds=2, starts_at=timezone.now() + timedelta(seconds=2))
    env = {**_env(), "TAPETE_RELAY_TOKEN": secrets.token_hex(16)}
    with daphne_servers(1, env) as (port,):
        relay = {} if env["REDIS_URL"] else {"TAPETE_RELAY_URL": f"http://127.0.0.1:{port}/internal/relay/"}
        page = TournamentSocket(port, tournament.pk)
        try:
            with celery_worker({**env, **relay}):
                first = _until(lambda: _round(tournament, 1), "beat's sweep pairs round 1")
                tournament.refresh_from_db()
                assert tournament.status == Tournament.Status.RUNNING
                assert tournament.started_at >= tournament.starts_at  # on time: never before
                assert first.tables.count() == 2 and first.pairings.filter(table__isnull=True).count() == 1
                _finish_round(tournament)

                second = _until(lambda: _round(tournament, 2), "the finished tables' step pairs round 2")
                assert second.tables.count() == 2
                byes = Pairing.objects.filter(round__tournament=tournament, table__isnull=True)
                assert len(set(byes.values_list("entry_id", flat=True))) == 2  # a bye each, to two players
                _finish_round(tournament)

                _until(
                    lambda: Tournament.objects.filter(pk=tournament.pk, status=Tournament.Status.FINISHED).exists(),
                    "the last finished table's step ends the tournament",
                )
                _until(lambda: "finished" in page.statuses(), "the page's socket hears the end")
        finally:
            page.close()
    wait_for_other_database_sessions(connection)
    assert list(Round.objects.filter(tournament=tournament).values_list("number", flat=True)) == [1, 2]
    assert TournamentTable.objects.filter(round__tournament=tournament, scored=True).count() == 4
    scores = Entry.objects.filter(tournament=tournament).values_list("score", flat=True)
    assert sum(scores) == 2 * (2 * 2 + 1)  # each round: two wins of 2 points and a bye of 1
    # The page heard the start (with round 1: one transaction), round 2 and the end, each once, up to the last change
    # (frames sent from the worker's two threads may arrive out of order: the page goes by their versions).
    tournament.refresh_from_db()
    heard = {frame["v"]: frame["d"]["status"] for frame in page.frames if frame["t"] == "tournament"}
    assert len(heard) == len(page.frames) >= 3, page.frames
    assert max(heard) == tournament.version and heard[max(heard)] == "finished"
    assert heard[min(heard)] == "running"


def test_a_worker_killed_while_it_pairs_a_round_the_next_worker_pairs_it_once(make_tournament, settings, tmp_path):
    """The first worker's application (``tests/tournaments/pairing_pause.py``) stops inside the pairing of round 2,
    after writing its row and its first table; the test kills the worker's whole process group there."""
    settings.TAPETE_SCHEDULE_TOURNAMENTS = True
    tournament, _users = make_tournament(players=8, rounds=2, starts_at=timezone.now())
    paused = tmp_path / "paused"
    pausing = {**_env(), "TAPETE_TEST_PAUSE_ROUND": "2", "TAPETE_TEST_PAUSE_FILE": str(paused)}
    with celery_worker(pausing, application="tests.tournaments.pairing_pause") as worker:
        _until(lambda: _round(tournament, 1), "the first worker pairs round 1")
        _finish_round(tournament)
        _until(paused.exists, "the first worker gets inside the pairing of round 2")
        assert not _round(tournament, 2), "the round's row is not committed while the pairing goes on"
        os.killpg(worker.pid, signal.SIGKILL)  # the worker and its beat: a crash
        worker.wait(10)
    wait_for_other_database_sessions(connection)  # PostgreSQL has ended the dead worker's session: rolled back
    half_written = int(paused.read_text())
    assert not _round(tournament, 2)
    assert not TournamentTable.objects.filter(pk=half_written).exists()
    assert Match.objects.count() == 4, "the killed pairing's table is gone with its transaction"

    with celery_worker(_env(), purge=False):  # the broker as the crash left it
        second = _until(lambda: _round(tournament, 2), "the next worker pairs round 2")
        assert second.tables.count() == 4
        _finish_round(tournament)
        _until(
            lambda: Tournament.objects.filter(pk=tournament.pk, status=Tournament.Status.FINISHED).exists(),
            "the tournament ends",
        )
    wait_for_other_database_sessions(connection)
    assert list(Round.objects.filter(tournament=tournament).values_list("number", flat=True)) == [1, 2]
    assert Match.objects.count() == 8 == TournamentTable.objects.filter(round__tournament=tournament).count()
    for number in (1, 2):  # every player at one table of each round, none twice
        seated = Pairing.objects.filter(round__number=number, round__tournament=tournament, table__isnull=False)
        assert sorted(seated.values_list("entry_id", flat=True)) == sorted(
            Entry.objects.filter(tournament=tournament).values_list("pk", flat=True)
        )
    assert sum(Entry.objects.filter(tournament=tournament).values_list("score", flat=True)) == 2 * 4 * 2
