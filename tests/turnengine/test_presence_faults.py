"""Presence stays true through faults, on the real stack: two daphne processes, a Celery worker with its beat, Redis
and PostgreSQL (skipped without them; CI runs them).

* ``kill -9`` of a daphne while seats and a spectator are connected to it: once the sweeper has run, those seats
  are offline with their grace started, the others online, the spectators counted right; reconnected to the other
  process, they are online again and the spectator gets the next move.
* a daphne restarted on its port after ``kill -9`` closes its previous life's connections itself, with no sweeper.
* PostgreSQL's connections dropped and cut off (behind ``tests.faults.TcpProxy``) while sockets open and close:
  afterwards every count is exactly the sockets open, no open socket was lost, and no server raised.

Real seconds pass here, by nature; the bounds are generous outcomes, not timings.
"""

from __future__ import annotations

import asyncio
import json
import os
import random
import re
import signal
import time

import pytest
import websockets
from django.db import connection, connections
from django.utils import timezone

from tests.faults import TcpProxy
from tests.servers import (
    LOGS,
    REAL_SERVICES,
    celery_worker,
    child_env,
    daphne_command,
    database_url,
    free_port,
    match_socket,
    processes,
    wait_for_other_database_sessions,
)
from tests.turnengine.wsclient import make_session_key
from turnengine import clocks
from turnengine.models import Connection, Match, Seat

pytestmark = [
    *REAL_SERVICES,
    pytest.mark.django_db(transaction=True),
]

TICK_SECONDS = 1
SWEEP_SECONDS = 2
SETTLE_BOUND = 30  # seconds: far above three ticks plus a sweep


def _env(database: str) -> dict[str, str]:
    return {
        "DATABASE_URL": database,
        "REDIS_URL": os.environ["REDIS_URL"],
        "DJANGO_DEBUG": "false",
        "TAPETE_PRESENCE_TICK_SECONDS": str(TICK_SECONDS),
        "TAPETE_SWEEP_SECONDS": str(SWEEP_SECONDS),
        "TAPETE_WS_SOCKETS_PER_IP": "1000",
    }


def _facts(match_id: int) -> dict:
    """What the database says: each seat's count and offline moment, the spectators' count."""
    match = Match.objects.get(pk=match_id)
    return {
        "seats": {
            seat.index: (seat.connections, clocks.offline_since(match.clock, seat.index))
            for seat in Seat.objects.filter(match=match)
        },
        "spectators": match.spectator_connections,
        "rows": sorted(
            (seat if seat is not None else -1)
            for seat in Connection.objects.filter(match=match).values_list("seat", flat=True)
        ),
    }


async def _in_thread(function, *args, **kwargs):
    """Run a database read off the event loop, closing that thread's connection after it (else the test database
    could not be dropped at the end of the run)."""

    def run():
        try:
            return function(*args, **kwargs)
        finally:
            connections.close_all()

    return await asyncio.to_thread(run)


async def _until(condition, what: str, bound: float = SETTLE_BOUND):
    started = time.monotonic()
    while True:
        result = await _in_thread(condition)
        if result:
            return result
        assert time.monotonic() - started < bound, f"{what}: not within {bound} s"
        await asyncio.sleep(0.2)


async def _next(socket, kind: str, timeout: float = 10) -> dict:
    while True:
        frame = json.loads(await asyncio.wait_for(socket.recv(), timeout))
        if frame["t"] == kind:
            return frame


# Where an exception that escaped presence's code or a socket's close shows in the stack that escaped. (Other
# failures while PostgreSQL is away are not presence's: Channels' session middleware failing a handshake.)
PRESENCE_FRAMES = ("turnengine/presence.py", "realtime/liveness.py", "in websocket_disconnect", "in closed")
ESCAPED = re.compile(r"Exception inside application|Task exception was never retrieved")


def _tracebacks(since: float) -> list[str]:
    """The daphne logs (``tests.servers`` keeps each process's standard error) written since ``since`` where an
    exception escaped through the presence code or a socket's close: the last stack of a chained traceback is the
    one that escaped."""
    found = []
    for path in LOGS.glob("daphne-*.log"):
        if path.stat().st_mtime < since:
            continue
        for report in ESCAPED.split(path.read_text(errors="replace"))[1:]:
            escaped = report.rsplit("Traceback (most recent call last):", 1)[-1]
            if any(frame in escaped for frame in PRESENCE_FRAMES):
                found.append(path.name)
    return found


def test_a_killed_daphne_leaves_no_one_online_and_its_players_come_back_on_the_other(start_table, make_user):
    match, users = start_table("perudo", 3)
    watcher = make_user()
    keys = [make_session_key(user) for user in [*users, watcher]]
    env = _env(database_url(connection))
    ports = {"daphne:doomed": free_port(), "daphne:survivor": free_port()}
    commands = {name: (daphne_command(port), child_env(env)) for name, port in ports.items()}
    doomed, survivor = ports["daphne:doomed"], ports["daphne:survivor"]
    awaited = min(match.rules.awaited(match.state))
    on_doomed = sorted(
        {awaited, (awaited + 1) % 3}
    )  # the seat the game awaits among them: its grace must start
    (stayer,) = set(range(3)) - set(on_doomed)

    def everyone_online():
        facts = _facts(match.pk)
        return facts["seats"] == {seat: (1, None) for seat in range(3)} and facts["spectators"] == 1

    async def scenario(started):
        sockets = {seat: await match_socket(doomed, match.pk, keys[seat]) for seat in on_doomed}
        sockets[stayer] = await match_socket(survivor, match.pk, keys[stayer])
        spectator = await match_socket(doomed, match.pk, keys[3])
        for socket in [*sockets.values(), spectator]:
            await _next(socket, "view")
        await _until(everyone_online, "everyone counted")

        os.killpg(started["daphne:doomed"].pid, signal.SIGKILL)
        killed_at = clocks.epoch_ms(timezone.now())

        def settled():
            facts = _facts(match.pk)
            offline = all(facts["seats"][seat][0] == 0 and facts["seats"][seat][1] for seat in on_doomed)
            return facts if offline and facts["spectators"] == 0 else None

        facts = await _until(settled, "the killed server's seats offline")
        assert facts["seats"][stayer] == (1, None), "the other server's player stays online"
        assert facts["rows"] == [stayer]
        for seat in on_doomed:
            assert facts["seats"][seat][1] >= killed_at - 1000
        current = await _in_thread(Match.objects.get, pk=match.pk)
        grace_end = facts["seats"][awaited][1] + clocks.of_match(current).grace_ms
        assert clocks.deadlines(current.clock, clocks.of_match(current))[awaited] == grace_end

        async def hear_them_offline() -> None:
            # One frame showing exactly the killed server's seats offline. Frames of the connections' opening are
            # still unread before it (one showed the stayer offline until its socket counted), so the offline
            # seats of several frames must not be added up.
            while True:
                players = (await _next(sockets[stayer], "presence"))["d"]["players"]
                if {player["seat"] for player in players if not player["online"]} == set(on_doomed):
                    return

        # Bounded as a whole: the heartbeat's frames keep each _next alive.
        await asyncio.wait_for(hear_them_offline(), SETTLE_BOUND)
        players = {p["seat"]: p["online"] for p in (await _snapshot(sockets[stayer]))["d"]["players"]}
        assert players == {seat: seat == stayer for seat in range(3)}

        # Back through the other server: online again, and the spectator gets the next move.
        for seat in on_doomed:
            sockets[seat] = await match_socket(survivor, match.pk, keys[seat])
        spectator = await match_socket(survivor, match.pk, keys[3])
        views = {seat: await _next(sockets[seat], "view") for seat in on_doomed}
        await _next(spectator, "view")
        await _until(everyone_online, "everyone online again")
        mover = views[awaited]
        await sockets[awaited].send(json.dumps({"t": "act", "v": mover["v"], "d": mover["d"]["legal"][0]}))
        seen = await _next(spectator, "view")
        assert seen["v"] == mover["v"] + 1 and seen["d"]["seat"] is None
        for socket in [*sockets.values(), spectator]:
            await socket.close()

    since = time.time()
    with celery_worker(env), processes(commands, ports) as started:
        asyncio.run(scenario(started))
    wait_for_other_database_sessions(connection)
    assert not _tracebacks(since), "a server raised"


SYNC = json.dumps({"t": "sync", "v": None, "d": {}})  # a client's request for its snapshot


async def _snapshot(socket) -> dict:
    await socket.send(SYNC)
    return await _next(socket, "view")


SNAPSHOT_BOUND = 30


class _Kept:
    """A socket kept open through the faults, read all along as a browser reads it. One left unread fills its
    client's queue, which then stops reading, pongs included: the server drops it as a dead peer once its ping goes
    unanswered for the ping timeout (seen on a slow CI machine, where the scenario outlasted ping and timeout)."""

    def __init__(self, socket) -> None:
        self.socket = socket
        self.frames: asyncio.Queue = asyncio.Queue()
        self.reader = asyncio.create_task(self._read())

    async def _read(self) -> None:
        try:
            async for text in self.socket:
                self.frames.put_nowait(json.loads(text))
        except websockets.exceptions.ConnectionClosed:
            pass
        self.frames.put_nowait(None)  # closed

    async def snapshot(self) -> dict | None:
        """This socket's answer to a ``sync`` (None: it closed), asked again after a refusal that a client retries
        (``sync_limited``: many sockets of one user ask at once here; ``server_error``: the read met a database
        connection the faults dropped, which the next read replaces), within :data:`SNAPSHOT_BOUND` seconds in all:
        the server's heartbeat frames would otherwise keep a wait for a view that never comes alive (a CI run took
        316 s in this test). A socket that answers nothing in time fails the test with what it did say."""
        while not self.frames.empty():
            if self.frames.get_nowait() is None:
                return None
        deadline = time.monotonic() + SNAPSHOT_BOUND
        heard = []
        try:
            await self.socket.send(SYNC)
            while (frame := await asyncio.wait_for(self.frames.get(), deadline - time.monotonic())) is not None:
                if frame["t"] == "view":
                    return frame
                heard.append(frame["d"]["code"] if frame["t"] == "error" else frame["t"])
                if frame["t"] == "error" and frame["d"]["code"] in ("sync_limited", "server_error"):
                    await asyncio.sleep(1)
                    await self.socket.send(SYNC)
        except websockets.exceptions.ConnectionClosed:
            pass
        except TimeoutError:
            raise AssertionError(f"an open socket sent no view in {SNAPSHOT_BOUND} s; it sent {heard}") from None
        return None

    async def close(self) -> None:
        await self.socket.close()
        await self.reader


def test_dropped_database_connections_leave_exact_counts_and_no_open_socket_lost(start_table, make_user):
    match, users = start_table("perudo", 2)
    watchers = [make_user() for _ in range(3)]
    keys = {
        **{seat: make_session_key(user) for seat, user in enumerate(users)},
        **{f"watcher{index}": make_session_key(user) for index, user in enumerate(watchers)},
    }
    db = connection.settings_dict
    rng = random.Random(17)

    async def scenario(ports: list[int], proxy: TcpProxy) -> None:
        # Open before the faults and kept open through them: neither may be lost.
        stayers = {}
        for name, port in ((0, ports[0]), ("watcher0", ports[1])):
            socket = await match_socket(port, match.pk, keys[name])
            await _next(socket, "view")
            stayers[name] = _Kept(socket)
        churned: dict[object, list] = {1: [], "watcher1": [], "watcher2": []}
        refused = opened = 0

        async def churn(until: float) -> None:
            nonlocal refused, opened
            while time.monotonic() < until:
                who = rng.choice(list(churned))
                socket = None
                try:
                    socket = await match_socket(rng.choice(ports), match.pk, keys[who])
                    await _next(socket, "view", timeout=5)
                except (OSError, TimeoutError, websockets.exceptions.WebSocketException):
                    refused += 1  # a handshake or an open that failed while the database was away
                    if socket is not None:
                        await socket.close()
                    continue
                churned[who].append(_Kept(socket))
                opened += 1
                if rng.random() < 0.6:  # most go again soon; the others stay to the end
                    await asyncio.sleep(rng.uniform(0, 0.3))
                    await churned[who].pop().close()

        async def faults() -> None:
            for _ in range(6):
                await asyncio.sleep(0.4)
                proxy.drop()
            proxy.cut()
            await asyncio.sleep(3)
            proxy.restore()
            for _ in range(3):
                await asyncio.sleep(0.4)
                proxy.drop()

        until = time.monotonic() + 7
        await asyncio.gather(faults(), churn(until), churn(until))
        # Every socket still open answers (those the server closed on a failed open count as gone).
        for sockets in churned.values():
            for kept in list(sockets):
                if await kept.snapshot() is None:
                    sockets.remove(kept)
        for name, kept in stayers.items():
            assert await kept.snapshot() is not None, (
                f"{name}'s socket, open before the faults, was lost ({kept.socket.close_code})"
            )
        open_seat = len(churned[1])
        expected = {
            "spectators": 1 + len(churned["watcher1"]) + len(churned["watcher2"]),
            "rows": sorted(
                [0] + [1] * open_seat + [-1] * (1 + len(churned["watcher1"]) + len(churned["watcher2"]))
            ),
        }

        seen = {}

        def exact():
            facts = seen["last"] = _facts(match.pk)
            seats_right = facts["seats"][0] == (1, None) and facts["seats"][1][0] == open_seat
            seat_one_offline = (facts["seats"][1][1] is None) == (open_seat > 0)
            return seats_right and seat_one_offline and {key: facts[key] for key in expected} == expected

        try:
            await _until(exact, "counts exactly the open sockets")
        except AssertionError:
            raise AssertionError(
                f"expected {expected} and seat 1 open {open_seat}, found {seen['last']}"
            ) from None
        assert opened >= 10, f"only {opened} sockets opened ({refused} refused): the churn did not happen"
        for sockets in [*churned.values(), list(stayers.values())]:
            for kept in sockets:
                await kept.close()

    since = time.time()
    with TcpProxy(db["HOST"] or "127.0.0.1", int(db["PORT"] or 5432)) as proxy:
        through = f"postgres://{db['USER']}@127.0.0.1:{proxy.port}/{db['NAME']}"
        ports = {"daphne:a": free_port(), "daphne:b": free_port()}
        commands = {name: (daphne_command(port), child_env(_env(through))) for name, port in ports.items()}
        with processes(commands, ports):
            asyncio.run(scenario(list(ports.values()), proxy))
    wait_for_other_database_sessions(connection)
    assert not _tracebacks(since), "a server raised"


def test_a_daphne_restarted_after_kill_9_closes_its_previous_lifes_connections_without_the_sweeper(
    start_table, make_user
):
    match, users = start_table("perudo", 2)
    watcher = make_user()
    keys = [make_session_key(user) for user in [*users, watcher]]
    env = child_env(_env(database_url(connection)))  # no Celery worker: no sweeper
    port = free_port()

    async def before_the_kill():
        sockets = [await match_socket(port, match.pk, key) for key in keys[:2]]
        for socket in sockets:
            await _next(socket, "view")
        await _until(lambda: _facts(match.pk)["rows"] == [0, 1], "both seats counted")
        return sockets

    async def after_the_restart():
        watching = await match_socket(
            port, match.pk, keys[2]
        )  # the new life's first socket starts its ticker
        await _next(watching, "view")

        def settled():
            facts = _facts(match.pk)
            return (
                facts if facts["rows"] == [-1] and all(facts["seats"][seat][1] for seat in (0, 1)) else None
            )

        facts = await _until(settled, "the previous life's seats offline", bound=15)
        assert facts["seats"] == {seat: (0, facts["seats"][seat][1]) for seat in (0, 1)}
        await watching.close()

    loop = asyncio.new_event_loop()
    try:
        with processes({"daphne:first": (daphne_command(port), env)}, {"daphne:first": port}) as started:
            sockets = loop.run_until_complete(before_the_kill())
            os.killpg(started["daphne:first"].pid, signal.SIGKILL)
            started["daphne:first"].wait()
        for socket in sockets:
            loop.run_until_complete(socket.close())
        with processes({"daphne:again": (daphne_command(port), env)}, {"daphne:again": port}):
            loop.run_until_complete(after_the_restart())
    finally:
        loop.close()
    wait_for_other_database_sessions(connection)
