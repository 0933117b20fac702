"""Shared fixtures: users, tables of each game, and helpers to play them through the engine's services."""

from __future__ import annotations

import itertools
import random
import threading
import uuid
from collections import defaultdict

import pytest
from django.db import connection
from django.test import TestCase
from tapete_sdk import registry
from tapete_sdk.plugin import CodedError

from lobby import services as lobby
from realtime import broadcast
from turnengine import outbox, services, updates
from turnengine.models import Match

PASSWORD = "correct-horse-battery-42"
# Every installed game, from the registry: the site's and the test-only fourth (tests/tictactoe, tests/settings.py).
GAME_KEYS = [rules.key for rules in registry.all_games()]
# The games the site ships (the packages under games/), for the tests of the production recipe.
SITE_GAME_KEYS = [key for key in GAME_KEYS if registry.package_of(key).startswith("games.")]
# Options that keep engine tests quick: no challenge grace period (tested on its own), short Chinese Checkers games;
# other games' defaults.
FAST_OPTIONS = defaultdict(dict, {"spicy": {"challengeGraceMs": 0}, "chinesecheckers": {"maxTurns": 15}})
_usernames = itertools.count(1)


def pytest_configure(config):
    """The embedded default's folder (its SQLite test database, beat schedules; one per parallel process:
    tests/settings.py), which settings do not create."""
    from django.conf import settings

    settings.VAR_DIR.mkdir(parents=True, exist_ok=True)


# Tests of the pure libraries (the games' rules and bots, the SDK): they reach no service, so a run against
# PostgreSQL and Redis tells nothing more than one on the embedded default (CI runs them there only: .ci/run).
PURE_TESTS = ("tests/games/", "tests/sdk/", "tests/test_rules_are_pure.py")


def pytest_collection_modifyitems(config, items):
    """Marks the pure tests ``pure``; browser tests last: they are the slowest, and a failure elsewhere should show
    first."""
    root = str(config.rootpath) + "/"
    for item in items:
        if str(item.path).removeprefix(root).startswith(PURE_TESTS):
            item.add_marker(pytest.mark.pure)
    items.sort(key=lambda item: "/e2e/" in str(item.path))


@pytest.hookimpl(wrapper=True)
def pytest_runtest_makereport(item, call):
    """A failing test that ran server or worker processes (tests/servers.py) reports what their logs said while it
    ran: a failure seen only on a CI machine can then be read from CI's output."""
    report = yield
    if report.when == "call" and report.failed:
        from tests.servers import recent_logs

        logs = recent_logs(since=call.start)
        if logs:
            report.sections.append(("server and worker logs", logs))
    return report


@pytest.fixture(scope="session")
def django_db_setup(django_db_setup):
    """Consumers under test query from asgiref's database thread, whose connection would outlive the tests and keep
    PostgreSQL from dropping the test database: close it first."""
    yield
    from asgiref.sync import SyncToAsync
    from django.db import connections

    SyncToAsync.single_thread_executor.submit(connections.close_all).result()


@pytest.fixture(autouse=True)
def deadlines_driven_by_the_tests(settings):
    """Tests move time themselves (``now=``) and beat the heartbeat themselves (``HEARTBEAT.beat()``: a beat in
    the background sends a socket a frame at a moment of its own, which a test that waits for silence would take for
    an answer); the Celery integration tests switch scheduling back on. The servers and workers a test starts keep
    both."""
    settings.TAPETE_SCHEDULE_DEADLINES = False
    settings.TAPETE_SCHEDULE_HEARTBEAT = False
    settings.TAPETE_SCHEDULE_BOTS = False
    settings.TAPETE_SCHEDULE_ANALYSIS = False
    settings.TAPETE_SCHEDULE_TOURNAMENTS = False


@pytest.fixture(autouse=True)
def fresh_http_limits(settings):
    """Each test counts its log-ins, sign-ups and tables afresh (django-ratelimit's keys under a prefix of its own),
    without clearing a cache that the Redis broker may share."""
    settings.RATELIMIT_CACHE_PREFIX = f"rl:{uuid.uuid4().hex}:"


@pytest.fixture
def make_user(django_user_model):
    def make(username: str | None = None):
        name = username or f"player{next(_usernames)}"
        return django_user_model.objects.create_user(
            username=name, email=f"{name}@example.org", password=PASSWORD
        )

    return make


@pytest.fixture
def sent():
    """What the outbox hands to the transport, in order (the transport's own sender is put back after)."""
    frames = []
    outbox.install_sender(frames.append)
    yield frames
    outbox.install_sender(broadcast.broadcast_sync)


@pytest.fixture
def start_table(make_user):
    """Open a table of ``game`` for ``num_players`` new users, seat them all and start it."""

    def start(
        game: str,
        num_players: int = 2,
        options: dict | None = None,
        ranked: bool = False,
        time_control: str = "normal",
    ):
        users = [make_user() for _ in range(num_players)]
        match = lobby.table_create(
            user=users[0],
            game=game,
            num_players=num_players,
            options=options or {},
            ranked=ranked,
            time_control=time_control,
        )
        for user in users[1:]:
            lobby.table_join(user=user, match_id=match.pk)
        lobby.table_start(user=users[0], match_id=match.pk)
        match.refresh_from_db()
        return match, users

    return start


def play_one_random_action(match: Match, users: list, rng: random.Random) -> None:
    """Let a random seat that may act play a random legal action through the service."""
    match.refresh_from_db()
    rules = match.rules
    seat = rng.choice(sorted(rules.to_act(match.state)))
    action = rng.choice(rules.legal_actions(match.state, seat))
    services.match_apply_action(match_id=match.pk, user=users[seat], expected_version=match.version, action=action)
    match.refresh_from_db()


def committed_updates(call, /, *args, **kwargs) -> list[updates.Update]:
    """Call the writer ``call`` and return the updates it committed, collected through the outbox as a socket's
    ``run_writer`` collects them (the on-commit callbacks of the test's own transaction are run at once)."""
    collected: list[updates.Update] = []
    with TestCase.captureOnCommitCallbacks(execute=True):
        outbox.collect_into(collected, call, *args, **kwargs)
    return collected


def play_to_the_end(match: Match, users: list, seed: int = 0, max_steps: int = 5000) -> Match:
    rng = random.Random(seed)
    for _ in range(max_steps):
        if match.status != Match.Status.ACTIVE:
            return match
        play_one_random_action(match, users, rng)
    raise AssertionError("the match did not end")


def play_bid_then_dudo(match, users) -> None:
    """Perudo: the awaited seat opens with its first legal bid and the next awaited seat calls Dudo (a reveal)."""
    seat = min(match.rules.awaited(match.state))
    bid = next(action for action in match.rules.legal_actions(match.state, seat) if action["type"] == "bid")
    services.match_apply_action(match_id=match.pk, user=users[seat], expected_version=match.version, action=bid)
    match.refresh_from_db()
    caller = min(match.rules.awaited(match.state))
    services.match_apply_action(
        match_id=match.pk, user=users[caller], expected_version=match.version, action={"type": "dudo"}
    )
    match.refresh_from_db()


def race(calls: list) -> list:
    """Run the calls at the same moment in threads (each with its own database connection); return each one's
    result, or the refusal (a ``CodedError``) it raised."""
    barrier = threading.Barrier(len(calls))
    results = [None] * len(calls)

    def run(index, call):
        try:
            barrier.wait()
            results[index] = call()
        except CodedError as error:
            results[index] = error
        finally:
            connection.close()

    threads = [threading.Thread(target=run, args=(index, call)) for index, call in enumerate(calls)]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join(30)
    return results


TEST_PROCESS = ("test-process", "test-host:pid-test")
_open_sockets: dict[tuple[int, int | None], list[str]] = {}


def socket_presence(match: Match, seat: int | None, delta: int, now=None) -> updates.Update:
    """Open (+1) a socket of ``seat`` (None: a spectator) at ``match``, or close (-1) its latest one, through
    ``turnengine.presence`` as the consumer does, held by one made-up server process (an open at ``now``, if
    given)."""
    from turnengine import presence

    keys = _open_sockets.setdefault((match.pk, seat), [])
    if delta > 0:
        keys.append(uuid.uuid4().hex)
        process_id, process_name = TEST_PROCESS
        return presence.connection_open(
            key=keys[-1],
            process_id=process_id,
            process_name=process_name,
            match_id=match.pk,
            seat=seat,
            now=now,
        )
    key = keys.pop() if keys else uuid.uuid4().hex  # closing a socket never opened changes nothing
    return presence.connection_close(key=key, match_id=match.pk, seat=seat)



def computer_plays_for_an_away_seat(match: Match, users: list) -> int:
    """Perudo: the awaited seat's only socket closes and the grace runs out, so the computer plays for it; then the
    other player's bid, logged at the same replay step as the computer's move (the step two moves share). Returns
    the away seat."""
    from datetime import timedelta

    from turnengine import timers

    away = min(match.rules.awaited(match.state))
    socket_presence(match, away, +1)
    socket_presence(match, away, -1)
    match.refresh_from_db()
    grace_end = match.deadline_at
    timers.match_expire(match_id=match.pk, version=match.version, now=grace_end)
    match.refresh_from_db()
    other = 1 - away
    if other in match.rules.awaited(match.state):
        action = next(a for a in match.rules.legal_actions(match.state, other) if a["type"] == "bid")
        services.match_apply_action(
            match_id=match.pk,
            user=users[other],
            expected_version=match.version,
            action=action,
            now=grace_end + timedelta(seconds=5),
        )
        match.refresh_from_db()
    return away
