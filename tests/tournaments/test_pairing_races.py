"""A round is paired once, whoever asks at the same moment: two processes advancing a tournament at once (the beat
sweep and a finished table's task, or a duplicated message) take turns on the tournament's row, and the round's
unique key backs it."""

import os
import signal
import subprocess
import sys
import time

import pytest
from django.db import connection
from django.utils import timezone

from tests.conftest import race
from tests.servers import child_env, database_url
from tests.tournaments.test_life_cycle import current_tables, win
from tournaments import life_cycle
from tournaments.models import Pairing, Round, Tournament, TournamentTable
from turnengine.models import Match

pytestmark = pytest.mark.django_db(transaction=True)


def test_two_concurrent_calls_pair_the_first_round_once(make_tournament):
    tournament, _users = make_tournament(players=6)
    calls = [lambda: life_cycle.tournament_advance(tournament.pk, now=tournament.starts_at)] * 2
    race(calls)
    assert Round.objects.filter(tournament=tournament).count() == 1
    assert TournamentTable.objects.filter(round__tournament=tournament).count() == 3
    assert Match.objects.filter(tournament_table__round__tournament=tournament).count() == 3
    assert Pairing.objects.filter(round__tournament=tournament).count() == 6


def test_two_concurrent_calls_after_a_round_pair_the_next_once(make_tournament):
    tournament, _users = make_tournament(players=4, rounds=3)
    life_cycle.tournament_advance(tournament.pk, now=tournament.starts_at)
    for match in current_tables(tournament):
        win(match, 0)
    race([lambda: life_cycle.tournament_advance(tournament.pk)] * 3)
    assert list(Round.objects.filter(tournament=tournament).values_list("number", flat=True)) == [1, 2]
    assert Pairing.objects.filter(round__tournament=tournament, round__number=2).count() == 4


PAIR_IN_A_CHILD = """
import os, sys
import django
django.setup()
from tournaments import life_cycle
from turnengine import outbox
outbox.install_sender(lambda update: None)
print("pairing", flush=True)
life_cycle.tournament_advance(int(sys.argv[1]))
"""


@pytest.mark.skipif(connection.vendor != "postgresql", reason="a killed process's open transaction: PostgreSQL's")
def test_a_process_killed_mid_pairing_leaves_nothing_and_the_round_is_paired_once(make_tournament):
    """A worker killed (SIGKILL) while it pairs a round, its transaction open with the round and some of its tables
    written: the database rolls it all back, and the next call (the next sweep) pairs the round once, whole."""
    tournament, _users = make_tournament(players=60)
    Tournament.objects.filter(pk=tournament.pk).update(starts_at=timezone.now())
    env = child_env({"DATABASE_URL": database_url(connection), "TAPETE_SCHEDULE_DEADLINES": "false",
                     "TAPETE_SCHEDULE_BOTS": "false", "TAPETE_SCHEDULE_TOURNAMENTS": "false"})
    child = subprocess.Popen([sys.executable, "-c", PAIR_IN_A_CHILD, str(tournament.pk)], env=env,
                             stdout=subprocess.PIPE, text=True)
    try:
        assert child.stdout.readline().strip() == "pairing"
        deadline = time.monotonic() + 30
        while time.monotonic() < deadline and not holding_new_matches():
            time.sleep(0.02)
        assert holding_new_matches(), "the child never got to the tables"
        os.kill(child.pid, signal.SIGKILL)
    finally:
        child.wait(10)
    time.sleep(0.5)  # PostgreSQL ends the dead client's session and rolls its transaction back
    assert not Round.objects.filter(tournament=tournament).exists()
    assert not Match.objects.filter(tournament_table__round__tournament=tournament).exists()
    life_cycle.tournament_advance(tournament.pk)
    life_cycle.tournament_advance(tournament.pk)
    assert Round.objects.filter(tournament=tournament).count() == 1
    assert TournamentTable.objects.filter(round__tournament=tournament).count() == 30
    assert Pairing.objects.filter(round__tournament=tournament).count() == 60


def holding_new_matches() -> bool:
    """Whether another session of the test database (the child's) is inside a transaction that has inserted matches (a lock on the match table)
    after the round's row (a lock on the rounds' table)."""
    with connection.cursor() as cursor:
        cursor.execute(
            "SELECT count(DISTINCT c.relname) FROM pg_locks l JOIN pg_class c ON c.oid = l.relation "
            "JOIN pg_stat_activity a ON a.pid = l.pid "
            "WHERE l.mode = 'RowExclusiveLock' "
            "AND c.relname IN ('tournaments_round', 'turnengine_match') AND a.pid <> pg_backend_pid() "
            "AND a.backend_type = 'client backend' AND a.datname = current_database()"
        )
        return cursor.fetchone()[0] == 2
