"""Delivery under faults, on the real stack: two daphne processes and a Celery worker (with beat) on PostgreSQL and
Redis, with Redis (or PostgreSQL) behind a TCP proxy (``tests.faults.TcpProxy``).

* Redis cut off from both daphne processes for 10 seconds while the tables play, and from the Celery worker for
  the first 5 of them (so the worker loses its broker while it holds deadline tasks, then applies deadlines while
  the servers still cannot publish): moves go on (the mover's own view is sent straight after the commit, the
  heartbeat brings the other seat up to date from the database), every socket has the version the tables were at
  when Redis came back within 5 seconds, the worker does not exit, and no clock ran out against a seat. Each seat
  here answers its view within a fraction of a second and the clocks (3 s) are shorter than a heartbeat (5 s), so
  a timeout would mean a seat was timed out on a view it did not have: without the fairness rule, this fails.
* PostgreSQL slowed down while a seat sends ``sync`` after every move: no view older than one already received,
  and no view twice (but the snapshot a ``sync`` asked for).

Real seconds pass here, by nature; the bounds are outcomes, not speeds. Needs PostgreSQL and Redis (CI's first pass).
"""

from __future__ import annotations

import asyncio
import json
import os
import random
import time
from urllib.parse import urlsplit, urlunsplit

import pytest
import websockets
from django.db import connection, connections

from lobby import services as lobby
from realtime.broadcast import broadcast_sync
from realtime.channel_layer import RedisPubSubLayer
from realtime.layerwatch import LayerWatch
from tests.faults import TcpProxy, assert_heals_until_heard, watch_answers
from tests.servers import (
    REAL_SERVICES,
    celery_worker,
    daphne_servers,
    match_socket,
    wait_for_other_database_sessions,
)
from tests.turnengine.wsclient import make_session_key
from turnengine.models import Match, MatchAction

REDIS_URL = os.environ.get("REDIS_URL", "")
pytestmark = [
    pytest.mark.django_db(transaction=True),
    *REAL_SERVICES,
]

TABLES = 3
OUTAGE_SECONDS = 10
HEARTBEAT_SECONDS = 5
# Shorter than a heartbeat: a seat that had to wait for the heartbeat to see a move would run out without the rule.
CLOCK = {
    "profile": "test",
    "kind": "realtime",
    "bank_ms": 3000,
    "increment_ms": 1000,
    "cap_ms": 3000,
    "grace_ms": 0,
}
TIMEOUT_EVENTS = {"seat_timeout", "seat_autoplayed", "seat_absent"}


def _through(proxy: TcpProxy, url: str) -> str:
    return urlunsplit(urlsplit(url)._replace(netloc=f"127.0.0.1:{proxy.port}"))


def _database_url(port: int | None = None) -> str:
    db = connection.settings_dict
    return f"postgres://{db['USER']}@{db['HOST']}:{port or db['PORT']}/{db['NAME']}"


class Seat:
    """One seat's websocket client, as a page plays: it answers its view after a short pause, asks ``sync`` when a
    heartbeat shows a version it does not have, reconnects when its socket closes, and keeps every view it got."""

    def __init__(
        self, port: int, match_id: int, key: str, seat: int, *, sync_after_move: bool = False
    ) -> None:
        self.port, self.match_id, self.key, self.seat = port, match_id, key, seat
        self.sync_after_move = sync_after_move
        self.version = -1
        self.views: list[tuple[int, bool]] = []  # (version, snapshot) in arrival order, per connection
        self.connections = 0
        self.acting = True
        self.rng = random.Random(seat * 7919 + match_id)

    async def run(self) -> None:
        while True:
            try:
                async with match_socket(self.port, self.match_id, self.key) as socket:
                    self.connections += 1
                    self.views.append((-1, True))  # a new connection starts over with its snapshot
                    await self._play(socket)
            except (websockets.exceptions.WebSocketException, OSError):
                pass
            await asyncio.sleep(0.3)

    async def _play(self, socket) -> None:
        async for raw in socket:
            frame = json.loads(raw)
            if frame["t"] == "heartbeat" and frame["v"] > self.version:
                await socket.send(json.dumps({"t": "sync"}))
            if frame["t"] != "view":
                continue
            data = frame["d"]
            self.views.append((frame["v"], bool(data.get("snapshot"))))
            if frame["v"] < self.version:
                continue
            self.version = frame["v"]
            if (
                self.acting
                and data.get("status") == "active"
                and self.seat in data["view"].get("awaited", [])
            ):
                await asyncio.sleep(0.1)
                move = self.rng.choice(data["legal"])
                await socket.send(json.dumps({"t": "act", "v": frame["v"], "d": move}))
                if self.sync_after_move:
                    await socket.send(json.dumps({"t": "sync"}))


def _tables(start_table_users, count: int) -> list[tuple[Match, list]]:
    tables = []
    for _ in range(count):
        users = start_table_users()
        match = lobby.table_create(
            user=users[0], game="chinesecheckers", num_players=2, options={"maxTurns": 1000}, ranked=False
        )
        Match.objects.filter(pk=match.pk).update(time_control=CLOCK)
        lobby.table_join(user=users[1], match_id=match.pk)
        tables.append((match, users))
    return tables


def _versions(match_ids: list[int]) -> dict[int, int]:
    return dict(Match.objects.filter(pk__in=match_ids).values_list("pk", "version"))


def _start(match: Match, user) -> None:
    broadcast_sync(lobby.table_start(user=user, match_id=match.pk))


async def _in_thread(function, *args):
    """The ORM off the event loop, with the thread's connection closed after (the test database is dropped at the
    end and must have no other session)."""

    def call():
        try:
            return function(*args)
        finally:
            connections.close_all()

    return await asyncio.to_thread(call)


def test_after_a_redis_outage_every_socket_is_up_to_date_and_no_seat_was_timed_out_unseen(make_user):
    tables = _tables(lambda: [make_user(), make_user()], TABLES)
    ids = [match.pk for match, _ in tables]
    redis = urlsplit(REDIS_URL)
    with (
        TcpProxy(redis.hostname, redis.port or 6379) as proxy,
        TcpProxy(redis.hostname, redis.port or 6379) as worker_proxy,
    ):
        env = {
            "DATABASE_URL": _database_url(),
            "REDIS_URL": _through(proxy, REDIS_URL),
            "DJANGO_DEBUG": "false",
            "TAPETE_HEARTBEAT_SECONDS": str(HEARTBEAT_SECONDS),
            "TAPETE_SWEEP_SECONDS": "1",
        }
        worker_env = {**env, "REDIS_URL": _through(worker_proxy, REDIS_URL)}
        with daphne_servers(2, env) as ports, celery_worker(worker_env) as worker:
            seats = [
                Seat(ports[seat], match.pk, make_session_key(users[seat]), seat)
                for match, users in tables
                for seat in range(2)
            ]

            async def scenario() -> tuple[dict[int, int], float, dict[int, int]]:
                clients = [asyncio.create_task(seat.run()) for seat in seats]
                while not all(seat.connections for seat in seats):
                    await asyncio.sleep(0.1)
                for match, users in tables:  # started once every seat watches: the clocks are short
                    await _in_thread(_start, match, users[0])
                await asyncio.sleep(3)
                before = await _in_thread(_versions, ids)
                proxy.cut()
                worker_proxy.cut()
                await asyncio.sleep(OUTAGE_SECONDS / 2)
                worker_proxy.restore()
                await asyncio.sleep(OUTAGE_SECONDS / 2)
                at_return = await _in_thread(_versions, ids)
                proxy.restore()
                returned = time.monotonic()
                while time.monotonic() - returned < 5:
                    if all(seat.version >= at_return[seat.match_id] for seat in seats):
                        break
                    await asyncio.sleep(0.1)
                caught_up = time.monotonic() - returned
                await asyncio.sleep(3)  # the tables go on
                for seat in seats:
                    seat.acting = False
                after = await _in_thread(_versions, ids)
                for client in clients:
                    client.cancel()
                await asyncio.gather(*clients, return_exceptions=True)
                assert all(at_return[i] > before[i] for i in ids), (
                    f"play stopped during the outage: {before} {at_return}"
                )
                return at_return, caught_up, after

            at_return, caught_up, after = asyncio.run(scenario())
            assert worker.poll() is None, "the Celery worker exited"
    wait_for_other_database_sessions(connection)
    assert caught_up < 5, {
        seat.match_id: (seat.seat, seat.version, at_return[seat.match_id]) for seat in seats
    }
    assert all(after[i] > at_return[i] for i in ids), "a table did not resume after the outage"
    logged = MatchAction.objects.filter(match_id__in=ids, version__lte=max(after.values()))
    timeouts = [
        (row.match_id, row.version, event)
        for row in logged
        if row.version <= after[row.match_id]
        for event in row.events
        if event.get("type") in TIMEOUT_EVENTS
    ]
    assert timeouts == [], "a clock ran out against a seat"


def test_with_a_slow_database_views_never_go_backwards_nor_come_twice(make_user):
    ((match, users),) = _tables(lambda: [make_user(), make_user()], 1)
    Match.objects.filter(pk=match.pk).update(time_control={"profile": "unlimited", "kind": "none"})
    db = connection.settings_dict
    with TcpProxy(db["HOST"], int(db["PORT"])) as proxy:
        env = {
            "DATABASE_URL": _database_url(proxy.port),
            "REDIS_URL": REDIS_URL,
            "DJANGO_DEBUG": "false",
            "TAPETE_WS_SYNC_BURST": "100",  # this client syncs after every move: the cap is not under test
        }
        with daphne_servers(2, env) as ports:
            seats = [
                Seat(ports[seat], match.pk, make_session_key(users[seat]), seat, sync_after_move=True)
                for seat in range(2)
            ]

            async def scenario() -> None:
                clients = [asyncio.create_task(seat.run()) for seat in seats]
                while not all(seat.connections for seat in seats):
                    await asyncio.sleep(0.1)
                await _in_thread(_start, match, users[0])
                await asyncio.sleep(2)
                proxy.slow(0.05)  # each database round trip 100 ms longer
                await asyncio.sleep(12)
                for client in clients:
                    client.cancel()
                await asyncio.gather(*clients, return_exceptions=True)

            asyncio.run(scenario())
    wait_for_other_database_sessions(connection)
    match.refresh_from_db()
    assert match.version > 10, "the table hardly moved"
    for seat in seats:
        highest = -1
        seen_views: set[int] = set()
        for version, snapshot in seat.views:
            if version == -1:  # a new connection: it starts over
                highest, seen_views = -1, set()
                continue
            assert version >= highest, f"seat {seat.seat}: view v{version} after v{highest}"
            if not snapshot:
                assert version not in seen_views, f"seat {seat.seat}: view v{version} twice"
            seen_views.add(version)
            highest = version
        assert seat.connections == 1, "the socket closed under a slow database"


@pytest.mark.asyncio
async def test_with_redis_cut_off_the_watch_heals_every_tick_until_it_hears_a_probe_again():
    """What the heartbeat does each half second (``realtime.layerwatch``), on a Redis layer behind the proxy: while
    Redis is cut off, and after it returns until this process hears a probe sent since (channels_redis subscribes
    again up to a second after the publishers can send), every tick asks to heal every match, the last of them once
    that probe came back (what was lost before it is read from the database then); then nothing."""

    async def heard() -> None:
        while watch.heard < watch.sent:
            await asyncio.sleep(0.01)

    with TcpProxy(urlsplit(REDIS_URL).hostname, urlsplit(REDIS_URL).port or 6379) as proxy:
        layer = RedisPubSubLayer(hosts=[{"address": _through(proxy, REDIS_URL)}], prefix="test-watch")
        watch = LayerWatch(layer)
        try:
            for _ in range(3):
                assert await watch.tick() is False
                await asyncio.wait_for(heard(), 10)
            proxy.cut()
            assert [await watch.tick() for _ in range(3)] == [True, True, True]
            returned_at = watch.sent
            proxy.restore()
            answers = await watch_answers(watch, returned_at)
        finally:
            watch.close()
            await layer.flush()
    assert_heals_until_heard(answers)
