"""Fault: a burst of post-game analyses does not delay a deadline (docs/deploy-queues.md). The workers run as the
deployment recipe runs them, one for the "play" queue and one for "bulk"; while the bulk worker's processes are all
busy analysing Chinese Checkers games, a player's clock runs out and the play worker applies the timeout within
2 s of the deadline. Needs the Redis broker and PostgreSQL (CI's first pass). Real seconds pass here, by nature."""

from __future__ import annotations

import os
import random
import time
from datetime import timedelta

import pytest
from django.db import connection
from django.utils import timezone

from botapi.models import Analysis
from botapi.tasks import analyse_match
from lobby import services as lobby
from tests.servers import celery_worker, wait_for_other_database_sessions
from turnengine import services
from turnengine.models import Match

REDIS_URL = os.environ.get("REDIS_URL", "")
pytestmark = [
    pytest.mark.django_db(transaction=True),
    pytest.mark.redis,
    pytest.mark.postgres,
    pytest.mark.skipif(
        not REDIS_URL or not os.environ.get("DATABASE_URL", "").startswith("postgres"),
        reason="needs REDIS_URL and a PostgreSQL DATABASE_URL (CI sets both)",
    ),
]
GAMES, ANALYSES = 2, 10  # each game analysed five times over: five times the bulk worker's threads
TURNS = 100  # about 2 s an analysis on the development machine: the burst outlasts the deadline on a much faster one
CLOCK = {"profile": "test", "kind": "realtime", "bank_ms": 3000, "increment_ms": 0, "cap_ms": 3000}
LATE_AT_MOST = timedelta(seconds=2)


def _finished_chinese_checkers(start_table) -> int:
    match, users = start_table("chinesecheckers", 2, options={"maxTurns": TURNS})
    rng = random.Random(match.pk)
    while match.status == Match.Status.ACTIVE:
        seat = min(match.rules.awaited(match.state))
        action = rng.choice(match.rules.legal_actions(match.state, seat))
        services.match_apply_action(
            match_id=match.pk, user=users[seat], expected_version=match.version, action=action
        )
        match.refresh_from_db()
    return match.pk


def _worker_env(queues: str) -> dict:
    db = connection.settings_dict
    return {
        "DATABASE_URL": f"postgres://{db['USER']}@{db['HOST']}:{db['PORT']}/{db['NAME']}",
        "REDIS_URL": REDIS_URL,
        "TAPETE_WORKER_QUEUES": queues,
    }


def _clocked_table(make_user) -> Match:
    """A started Perudo table whose first player has 3 s: its deadline is queued by the start, on "play"."""
    first, second = make_user(), make_user()
    match = lobby.table_create(
        user=first, game="perudo", num_players=2, options={"startingDice": 2}, ranked=False, time_control="blitz"
    )
    Match.objects.filter(pk=match.pk).update(time_control=CLOCK)
    lobby.table_join(user=second, match_id=match.pk)
    lobby.table_start(user=first, match_id=match.pk)
    match.refresh_from_db()
    return match


def test_a_burst_of_analyses_does_not_delay_a_deadline(start_table, make_user, settings):
    settings.TAPETE_SCHEDULE_ANALYSIS = False  # the burst is queued below, all at once
    finished = [_finished_chinese_checkers(start_table) for _ in range(GAMES)]
    settings.TAPETE_SCHEDULE_DEADLINES = True
    with celery_worker(_worker_env("bulk"), beat=False), celery_worker(_worker_env("play"), beat=False, purge=False):
        for index in range(ANALYSES):
            analyse_match.delay(finished[index % GAMES])
        time.sleep(3)  # the bulk worker starts and takes the first analyses
        match = _clocked_table(make_user)
        deadline = match.deadline_at
        started = match.version
        while match.version == started and timezone.now() < deadline + timedelta(seconds=30):
            time.sleep(0.05)
            match.refresh_from_db()
        applied = timezone.now()
    wait_for_other_database_sessions(connection)
    # The burst was still running when the deadline was applied: an analysis (running then, or queued and taken
    # at once by a thread) was stored after it. (Stopping the worker lets its running analyses finish.)
    assert Analysis.objects.filter(computed_at__gt=applied).exists(), "the analyses were too quick: no burst then"
    assert match.version > started, "the deadline was never applied"
    assert applied - deadline <= LATE_AT_MOST, f"the deadline was applied {applied - deadline} late"
