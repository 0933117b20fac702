"""Websocket load: N concurrent 2-seat games over real sockets, against a bare echo on the same stack.

Starts ``--processes`` servers of ``bench.echo:application`` (the site with the echo routes) under the site's
``python -m tapete.serve`` (``--server daphne`` for daphne alone), or targets running ones with ``--target``, which
must serve that application too; opens ``--games`` tables of ``--game`` with two seats each, connects the two seats
to different processes, and lets the seat to move play a
random legal move about every ``--interval`` seconds. A move's round trip runs from sending the action until
*every* seat has the new version's view. Then two bare echoes on the same stack at the same rate: a pair echo
(one socket's frame fanned out through the channel layer to both sockets of a pair, on different processes: the
move's round trip without the engine) and a ping echo (each socket's frame straight back). Prints moves/s,
p50/p95/p99 round trips, errors, the ratios to both echoes, the CPU per move over the measured window (the servers
and their children, PostgreSQL's whole cluster, the load generator: ``bench/proc_usage.py``), the same per pair
echo (the stack's own cost of a move's fan-out, the floor under a move's CPU) and the machine's
pure-Python speed before and after the run (this machine's speed changes by about two within an hour: compare runs
only beside it).

``--find-knee`` plays every game throughout and steps the offered load (moves/s over all the games, set by the
pace of each game) up by ``--knee-factor`` from ``--knee-start``, then bisects between the highest good step and
the lowest bad one: a step is good if its p99 is under ``--p99-limit`` ms, it had no error and its load was made.
It prints each step's figures and CPU, then the knee (one process unless ``--processes`` says otherwise).

Embedded default (SQLite, in-memory layer: one process only)::

    PYTHONPATH=platform:. .venv/bin/python bench/ws_load.py --processes 1 --games 50

PostgreSQL + Redis, 2 ASGI processes (the issue's target: 500 games, p99 <= 50 ms, p50 <= 3x echo)::

    export DATABASE_URL=postgres://postgres@127.0.0.1:5432/tapete_bench REDIS_URL=redis://127.0.0.1:6379/1
    PYTHONPATH=platform:. .venv/bin/python bench/ws_load.py --processes 2 --games 500 --duration 60
    PYTHONPATH=platform:. .venv/bin/python bench/ws_load.py --find-knee --games 500
"""

from __future__ import annotations

import argparse
import asyncio
import gc
import os
import random
import statistics
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path[:0] = [str(ROOT / "platform"), str(ROOT)]
os.environ.setdefault("DJANGO_SETTINGS_MODULE", "tapete.settings")

import django  # noqa: E402
import orjson  # noqa: E402

django.setup()

import websockets  # noqa: E402
from django.conf import settings  # noqa: E402
from django.core.management import call_command  # noqa: E402
from tapete_sdk import registry  # noqa: E402

from accounts.models import User  # noqa: E402
from bench import proc_usage  # noqa: E402
from bench.proc_usage import CpuWindow, describe, exactly, listening_pids, named, server_tree  # noqa: E402
from bench.rules_bench import sample_positions  # noqa: E402
from bench.stage_trace import stage_durations  # noqa: E402
from lobby import services as lobby  # noqa: E402
from tests.servers import daphne_servers  # noqa: E402
from tests.turnengine.wsclient import make_session_key  # noqa: E402
from turnengine import outbox  # noqa: E402

GAME_OPTIONS = {"spicy": {"challengeGraceMs": 0}, "chinesecheckers": {"maxTurns": 1000}}


def percentile(values: list[float], share: float) -> float:
    if not values:
        return float("nan")
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, int(share * len(ordered)))]


def create_tables(game: str, count: int, time_control: str = "normal") -> list[tuple[int, list[str]]]:
    """``count`` started 2-seat tables: (match id, session keys of seats 0 and 1). No socket is open yet, so the
    starts' first views are not sent: each seat's socket reads its snapshot when it connects. (Sent, they went
    through this process's channel layer, one event loop each, before the load generator starts its own.)"""
    run = f"{int(time.time())}-{random.randrange(10**6)}"
    tables = []
    outbox.install_sender(lambda update: None)
    for index in range(count):
        users = [User.objects.create_user(f"bench-{run}-{index}-{seat}") for seat in range(2)]
        match = lobby.table_create(
            user=users[0],
            game=game,
            num_players=2,
            options=GAME_OPTIONS.get(game, {}),
            ranked=False,
            time_control=time_control,
        )
        lobby.table_join(user=users[1], match_id=match.pk)
        lobby.table_start(user=users[0], match_id=match.pk)
        tables.append((match.pk, [make_session_key(user) for user in users]))
    return tables


async def open_socket(address: str, path: str, session_key: str | None):
    headers = {"Origin": f"http://{address}"}
    if session_key:
        headers["Cookie"] = f"{settings.SESSION_COOKIE_NAME}={session_key}"
    return await websockets.connect(
        f"ws://{address}{path}", additional_headers=headers, compression=None, max_queue=None
    )


class Stats:
    def __init__(self) -> None:
        self.round_trips: list[float] = []
        self.sent_at: list[float] = []
        self.errors: dict[str, int] = {}
        self.in_flight: set[float] = set()  # when each move still awaiting its views was sent
        # The pair echo's CPU window: its figures, its seconds, and the exchanges made within it.
        self.cpu: dict = {}
        self.window = 0.0
        self.measured = 0

    def error(self, code: str) -> None:
        self.errors[code] = self.errors.get(code, 0) + 1


class Clock:
    """Every game connects first; the measured play starts together once all are ready."""

    def __init__(self, games: int, connecting_at_once: int, interval: float) -> None:
        self.waiting = games
        self.interval = interval  # a game's mean seconds between moves: --find-knee changes it as it goes
        self.finished = 0  # games whose play ended (the game over, or a socket failed)
        self.all_ready = asyncio.Event()
        self.started = asyncio.Event()  # the pair echo's: its window is set, the pairs may begin
        self.stop = float("inf")
        self.measure_from = float("inf")  # moves sent before this are warm-up: played, not measured
        # Players arrive over time, not all in one instant: a bounded number of handshakes are under way at once.
        self.handshakes = asyncio.Semaphore(connecting_at_once)

    def ready(self) -> None:
        self.waiting -= 1
        if self.waiting == 0:
            self.all_ready.set()


async def play_game(
    match_id: int, keys: list[str], addresses: list[str], args, stats: Stats, clock: Clock
) -> None:
    sockets: list = []
    latest: list[dict | None] = [None, None]
    arrivals: dict[int, list[float]] = {}
    changed = asyncio.Event()

    async def listen(seat: int) -> None:
        async for text in sockets[seat]:
            frame = orjson.loads(text)  # the load generator shares the servers' two cores: parse cheaply
            if frame["t"] == "view":
                latest[seat] = frame
                arrivals.setdefault(frame["v"], []).append(time.perf_counter())
                changed.set()
            elif frame["t"] == "error":
                stats.error(frame["d"]["code"])

    listeners = []
    rng = random.Random(match_id)
    try:
        try:
            for seat in range(2):
                async with clock.handshakes:
                    sockets.append(
                        await open_socket(
                            addresses[seat % len(addresses)], f"/ws/match/{match_id}/", keys[seat]
                        )
                    )
            listeners = [asyncio.create_task(listen(seat)) for seat in range(2)]
            while latest[0] is None or latest[1] is None:
                changed.clear()
                await asyncio.wait_for(changed.wait(), 60)
        finally:
            clock.ready()
        await clock.all_ready.wait()
        await asyncio.sleep(rng.uniform(0, clock.interval))
        while time.perf_counter() < clock.stop:
            movers = [seat for seat in range(2) if latest[seat] and latest[seat]["d"]["legal"]]
            if not movers:
                if latest[0] and latest[0]["d"]["status"] != "active":
                    break
                changed.clear()
                await asyncio.wait_for(changed.wait(), 10)
                continue
            seat = rng.choice(movers)
            frame = latest[seat]
            sent = time.perf_counter()
            stats.in_flight.add(sent)
            await sockets[seat].send(
                orjson.dumps({"t": "act", "v": frame["v"], "d": rng.choice(frame["d"]["legal"])}).decode()
            )
            target = frame["v"] + 1
            deadline = sent + 10
            while len(arrivals.get(target, [])) < 2 and time.perf_counter() < deadline:
                changed.clear()
                await asyncio.wait_for(changed.wait(), max(0.01, deadline - time.perf_counter()))
            stats.in_flight.discard(sent)
            if len(arrivals.get(target, [])) < 2:
                stats.error("lost_move")
            elif sent >= clock.measure_from:
                stats.round_trips.append(max(arrivals[target][:2]) - sent)
                stats.sent_at.append(sent)
            await asyncio.sleep(
                max(0.0, clock.interval * rng.uniform(0.5, 1.5) - (time.perf_counter() - sent))
            )
    except (OSError, TimeoutError, websockets.WebSocketException) as error:
        stats.error(f"{type(error).__name__}: {error.__cause__!r}"[:120])
    finally:
        clock.finished += 1
        for task in listeners:
            task.cancel()
        for socket in sockets:
            await socket.close()


PING = '{"t":"ping","v":0,"d":{}}'


async def echo_loop(args, stats: Stats, stop: float, rng: random.Random, exchange) -> None:
    """Until ``stop``, about every ``--interval`` seconds: time ``exchange()`` (send a ping, await its echoes)."""
    await asyncio.sleep(rng.uniform(0, args.interval))
    try:
        while time.perf_counter() < stop:
            sent = time.perf_counter()
            await asyncio.wait_for(exchange(), 10)
            stats.round_trips.append(time.perf_counter() - sent)
            stats.sent_at.append(sent)
            await asyncio.sleep(
                max(0.0, args.interval * rng.uniform(0.5, 1.5) - (time.perf_counter() - sent))
            )
    except (TimeoutError, websockets.ConnectionClosed) as error:
        stats.error(type(error).__name__)


async def echo_client(
    address: str, key: str, args, stats: Stats, stop: float, seed: int, handshakes: asyncio.Semaphore
) -> None:
    try:
        async with handshakes:
            socket = await open_socket(address, "/ws/echo/", key)
    except (OSError, TimeoutError, websockets.WebSocketException) as error:
        stats.error(type(error).__name__)
        return

    async def exchange() -> None:
        await socket.send(PING)
        await socket.recv()

    try:
        await echo_loop(args, stats, stop, random.Random(seed), exchange)
    finally:
        await socket.close()


async def pair_echo_client(
    pair: int, keys: list[str], addresses: list[str], args, stats: Stats, clock: Clock
) -> None:
    """The move's round trip without the engine: a frame sent by one socket of the pair, through the channel layer,
    until both sockets (on different processes, like a table's two seats) have it. The pairs start together once
    all are connected and ``clock.started`` is set, and exchange until ``clock.stop``."""
    sockets = []
    try:
        for seat in range(2):
            async with clock.handshakes:
                sockets.append(
                    await open_socket(addresses[seat % len(addresses)], f"/ws/echo/{pair}/", keys[seat])
                )
    except (OSError, TimeoutError, websockets.WebSocketException) as error:
        stats.error(type(error).__name__)
        for socket in sockets:
            await socket.close()
        return
    finally:
        clock.ready()
    await clock.started.wait()
    stop = clock.stop
    rng = random.Random(pair)

    async def exchange() -> None:
        await sockets[rng.randrange(2)].send(PING)
        await asyncio.gather(*(socket.recv() for socket in sockets))

    try:
        await echo_loop(args, stats, stop, rng, exchange)
    finally:
        for socket in sockets:
            await socket.close()


LOCAL = {"127.0.0.1", "localhost", "::1", "[::1]", ""}  # "" (or a path): PostgreSQL's Unix socket
SERVERS, POSTGRES, LOAD_GENERATOR = "servers", "PostgreSQL (whole cluster)", "load generator"
CPU_LABELS = {
    SERVERS: "servers (every server process found listening here, and its children)",
    POSTGRES: "PostgreSQL (the whole cluster's: every process named postgres on this machine, other clients too)",
    LOAD_GENERATOR: "load generator (this process)",
}


def usage_selectors(addresses: list[str]) -> dict:
    """What :class:`CpuWindow` reads: the servers at ``addresses`` that listen on this machine, and their children
    (``None`` if none is found here); every ``postgres`` process when the site's PostgreSQL is on this machine; this
    process."""
    ports = [int(port) for host, port in (address.rsplit(":", 1) for address in addresses) if host in LOCAL]
    pids = listening_pids(ports) if proc_usage.available() else []
    return {
        SERVERS: server_tree(pids) if pids else None,
        POSTGRES: named("postgres") if local_postgresql() else None,
        LOAD_GENERATOR: exactly([os.getpid()]),
    }


async def run(args, addresses: list[str], tables, play) -> object:
    # The load generator is the measuring instrument: its own cycle collections (over a thousand sockets and their
    # frames) paused its loop for up to a hundred milliseconds, which it counted as the servers' round trips. It
    # collects no cycles while it measures (games and echoes alike); reference counting still frees the frames.
    gc.freeze()
    gc.disable()
    try:
        return await play(args, addresses, tables)
    finally:
        gc.enable()


async def cpu_over(start: float, stop: float, window: CpuWindow) -> dict:
    """``window``'s figures from the instant ``start`` to ``stop`` (``time.perf_counter`` values)."""
    await asyncio.sleep(max(0.0, start - time.perf_counter()))
    window.start()
    await asyncio.sleep(max(0.0, stop - time.perf_counter()))
    return window.stop()


async def measure(args, addresses: list[str], tables) -> tuple[Stats, Stats, Stats, float, dict]:
    moves = Stats()
    clock = Clock(len(tables), args.connecting, args.interval)
    games = [
        asyncio.create_task(play_game(match_id, keys, addresses, args, moves, clock))
        for match_id, keys in tables
    ]
    await clock.all_ready.wait()
    print(
        f"{len(tables)} games connected, playing {args.warmup}s of warm-up, then {args.duration}s measured",
        file=sys.stderr,
    )
    clock.measure_from = time.perf_counter() + args.warmup
    clock.stop = clock.measure_from + args.duration
    cpu = asyncio.create_task(cpu_over(clock.measure_from, clock.stop, CpuWindow(usage_selectors(addresses))))
    await asyncio.gather(*games)
    elapsed = args.duration
    cpu = await cpu
    await asyncio.sleep(5)  # the servers settle the games' disconnections before the echo's sockets arrive
    pair_echo = Stats()
    pairs = Clock(len(tables), args.connecting, args.interval)
    pair_clients = asyncio.gather(
        *(
            pair_echo_client(index, keys, addresses, args, pair_echo, pairs)
            for index, (_match, keys) in enumerate(tables)
        )
    )
    await pairs.all_ready.wait()
    # The pairs' first exchanges are spread over an interval, as the moves' are: their CPU is measured after it.
    pairs.measure_from = time.perf_counter() + args.interval
    pairs.stop = pairs.measure_from + min(args.duration, 20)
    pairs.started.set()
    window = CpuWindow(usage_selectors(addresses))
    pair_cpu = asyncio.create_task(cpu_over(pairs.measure_from, pairs.stop, window))
    await pair_clients
    pair_echo.cpu = await pair_cpu
    pair_echo.window = pairs.stop - pairs.measure_from
    pair_echo.measured = sum(
        1
        for sent, trip in zip(pair_echo.sent_at, pair_echo.round_trips, strict=True)
        if pairs.measure_from <= sent and sent + trip <= pairs.stop
    )
    await asyncio.sleep(5)
    echo = Stats()
    stop = time.perf_counter() + min(args.duration, 20)
    await asyncio.gather(
        *(
            echo_client(
                addresses[index % len(addresses)], keys[index % 2], args, echo, stop, index, clock.handshakes
            )
            for index, (_match, keys) in enumerate(tables * 2)
        )
    )
    return moves, pair_echo, echo, elapsed, cpu


# --- the knee: the highest offered load whose p99 stays under a limit ---------------------------------------------


def next_offered_load(
    steps: list[tuple[float, bool]],
    start: float,
    factor: float,
    precision: float,
    ceiling: float,
    floor: float,
) -> float | None:
    """The next offered load (moves/s) to try, given the ``(offered, good)`` steps run so far, or ``None`` when the
    search is over. Upward from ``start`` by ``factor`` until a step is bad (or the next would pass ``ceiling``),
    then bisection between the highest good step below the lowest bad one and that bad one, until they are within
    ``precision`` of each other (0.1: the bad one at most 10 % above). If the first steps are bad, downward by
    ``factor``, over when the next would be below ``floor``."""
    if not steps:
        return start
    bad = [offered for offered, good in steps if not good]
    if not bad:
        following = max(offered for offered, _good in steps) * factor
        return following if following <= ceiling else None
    lowest_bad = min(bad)
    good_below = [offered for offered, good in steps if good and offered < lowest_bad]
    if not good_below:
        following = lowest_bad / factor
        return following if following >= floor else None
    highest_good = max(good_below)
    if lowest_bad <= highest_good * (1 + precision):
        return None
    return (highest_good + lowest_bad) / 2


def knee_of(steps: list[tuple[float, bool]]) -> tuple[float | None, float | None]:
    """(the highest good offered load below the lowest bad one, that bad one): ``None`` where there is none."""
    bad = [offered for offered, good in steps if not good]
    lowest_bad = min(bad, default=None)
    good = [offered for offered, ok in steps if ok and (lowest_bad is None or offered < lowest_bad)]
    return max(good, default=None), lowest_bad


class Step:
    """One step of the knee search: its offered load, what was measured, and whether it is good."""

    def __init__(self, offered, window, round_trips, errors, cpu, finished, limit_ms) -> None:
        self.offered, self.window, self.errors = offered, window, errors
        self.cpu, self.finished = cpu, finished
        self.ms = [value * 1000 for value in round_trips]
        self.achieved = len(self.ms) / window
        # Good: p99 under the limit, no error, and the load was offered (with round trips longer than a game's
        # interval between moves, the games cannot offer it: the servers are behind).
        self.good = (
            bool(self.ms)
            and percentile(self.ms, 0.99) < limit_ms
            and not errors
            and self.achieved >= 0.9 * offered
        )

    def line(self, number: int, games: int) -> str:
        cpu = "; ".join(
            f"{label} {figures.per_move_ms(len(self.ms)):.2f} ms/move ({figures.core_percent:.0f} % of a core)"
            if figures is not None and self.ms
            else f"{label} n/a"
            for label, figures in self.cpu.items()
        )
        ended = f", {self.finished} of {games} games not playing: over or failed" if self.finished else ""
        return (
            f"step {number}: offered {self.offered:.1f} moves/s (a move every {games / self.offered:.2f} s per "
            f"game{ended}): {self.achieved:.1f} moves/s, p50 {percentile(self.ms, 0.5):.1f}  p95 "
            f"{percentile(self.ms, 0.95):.1f}  p99 {percentile(self.ms, 0.99):.1f} ms, errors "
            f"{self.errors or 'none'}; CPU: {cpu} -> {'good' if self.good else 'BAD'}"
        )


def errors_since(before: dict[str, int], now: dict[str, int]) -> dict[str, int]:
    return {code: count - before.get(code, 0) for code, count in now.items() if count > before.get(code, 0)}


async def drained(moves: Stats, older_than: float, most: float = 30.0) -> None:
    """Until no move in flight has waited longer than ``older_than`` seconds (at most ``most`` seconds): a step the
    servers could not keep up with leaves a queue, which a step at a slower pace measured at once inherited (on
    2026-12-07 the search judged 640.7 moves/s bad after 711.9, at p99 133 ms, where a run at a steady 711.7 had p99
    39.8 ms)."""
    deadline = time.perf_counter() + most
    while time.perf_counter() < deadline:
        now = time.perf_counter()
        if not any(now - sent > older_than for sent in moves.in_flight):
            return
        await asyncio.sleep(0.25)


async def find_knee(args, addresses: list[str], tables) -> list[Step]:
    """Play every game throughout, changing the pace of all of them at each step: a settle at the new pace (until
    the last step's backlog is gone, too), then ``--step-duration`` seconds measured, then a second's tail for the measured moves still in flight (a move
    still waiting its views when the step is judged counts with the time it has waited so far)."""
    moves = Stats()
    clock = Clock(len(tables), args.connecting, len(tables) / args.knee_start)
    clock.measure_from = 0.0
    clock.stop = float("inf")
    games = [
        asyncio.create_task(play_game(match_id, keys, addresses, args, moves, clock))
        for match_id, keys in tables
    ]
    await clock.all_ready.wait()
    print(
        f"{len(tables) - clock.finished} games connected (errors: {moves.errors or 'none'}); searching the knee "
        f"(p99 < {args.p99_limit} ms)",
        file=sys.stderr,
    )
    selectors = usage_selectors(addresses)
    steps: list[Step] = []
    try:
        while len(steps) < args.knee_steps:
            offered = next_offered_load(
                [(step.offered, step.good) for step in steps],
                args.knee_start,
                args.knee_factor,
                args.knee_precision,
                args.knee_ceiling,
                args.knee_floor,
            )
            if offered is None:
                break
            previous_interval, clock.interval = clock.interval, len(tables) / offered
            # every game has woken up at least once at the new pace
            await asyncio.sleep(max(args.knee_settle, 1.5 * previous_interval))
            # and a bad step's backlog is gone, or the next step would be judged on it
            await drained(moves, args.p99_limit / 1000)
            errors_before = dict(moves.errors)
            window = CpuWindow(selectors)
            window.start()
            started = time.perf_counter()
            await asyncio.sleep(args.step_duration)
            ended = time.perf_counter()
            cpu = window.stop()
            await asyncio.sleep(1.0)
            judged = time.perf_counter()
            round_trips = [
                round_trip
                for round_trip, sent in zip(moves.round_trips, moves.sent_at, strict=True)
                if started <= sent < ended
            ] + [judged - sent for sent in moves.in_flight if started <= sent < ended]
            step = Step(
                offered,
                ended - started,
                round_trips,
                errors_since(errors_before, moves.errors),
                cpu,
                clock.finished,
                args.p99_limit,
            )
            steps.append(step)
            print(step.line(len(steps), len(tables)), flush=True)
    finally:
        clock.stop = time.perf_counter()
        await asyncio.gather(*games)
    return steps


def report_knee(args, steps: list[Step]) -> None:
    knee, lowest_bad = knee_of([(step.offered, step.good) for step in steps])
    print(
        f"stack: {backend_name()}, {args.processes} ASGI process(es), game {args.game}, {args.games} games, "
        f"{args.step_duration:g} s measured per step"
    )
    if knee is None:
        print(f"knee: none found (no step had p99 < {args.p99_limit} ms without error)")
        return
    chosen = next(step for step in steps if step.offered == knee)
    above = (
        f"the lowest bad step, {lowest_bad:.1f} moves/s offered, did not"
        if lowest_bad is not None
        else f"no step was bad: the knee is above the last step (--knee-ceiling {args.knee_ceiling:g})"
    )
    cpu = "; ".join(f"{label} {describe(figures, len(chosen.ms))}" for label, figures in chosen.cpu.items())
    print(
        f"knee: {knee:.1f} moves/s offered ({chosen.achieved:.1f} made, p50 {percentile(chosen.ms, 0.5):.1f} ms, "
        f"p99 {percentile(chosen.ms, 0.99):.1f} ms): the highest step with p99 < {args.p99_limit} ms and no "
        f"error; {above}"
    )
    print(f"CPU at the knee: {cpu}")
    pairs = [(step.offered, step.good) for step in steps]
    if (
        next_offered_load(
            pairs, args.knee_start, args.knee_factor, args.knee_precision, args.knee_ceiling, args.knee_floor
        )
        is not None
    ):
        print(
            f"(the search stopped at --knee-steps {args.knee_steps}: the knee is at least the figure above)"
        )


def backend_name() -> str:
    return (
        "PostgreSQL + Redis" if os.environ.get("DATABASE_URL") and settings.REDIS_URL else "embedded default"
    )


def report(args, moves: Stats, pair_echo: Stats, echo: Stats, elapsed: float, cpu: dict) -> None:
    ms = [value * 1000 for value in moves.round_trips]
    print(
        f"stack: {backend_name()}, {args.processes} ASGI process(es), game {args.game}, {args.games} games, "
        f"interval {args.interval}s"
    )
    if args.timeline:
        start = min(moves.sent_at, default=0.0)
        for second in range(int(elapsed)):
            window = [
                rt * 1000
                for rt, sent in zip(moves.round_trips, moves.sent_at, strict=True)
                if second <= sent - start < second + 1
            ]
            print(
                f"  second {second}: {len(window)} moves, p50 {percentile(window, 0.5):.1f}  "
                f"p99 {percentile(window, 0.99):.1f}  max {max(window, default=float('nan')):.1f} ms"
            )
    print(f"moves: {len(ms)} in {elapsed:.1f}s = {len(ms) / elapsed:.1f} moves/s")
    print(
        f"move round trip ms: p50 {percentile(ms, 0.5):.1f}  p95 {percentile(ms, 0.95):.1f}  "
        f"p99 {percentile(ms, 0.99):.1f}  mean {statistics.fmean(ms) if ms else float('nan'):.1f}"
    )
    for name, stats in (
        ("pair echo (same fan-out to both seats)", pair_echo),
        ("ping echo (one socket)", echo),
    ):
        echo_ms = [value * 1000 for value in stats.round_trips]
        print(
            f"{name} round trip ms: p50 {percentile(echo_ms, 0.5):.1f}  p95 {percentile(echo_ms, 0.95):.1f}  "
            f"p99 {percentile(echo_ms, 0.99):.1f}; ratio p50 move / p50 echo: "
            f"{percentile(ms, 0.5) / percentile(echo_ms, 0.5):.2f}"
        )
    print(
        f"errors: {moves.errors or 'none'}; pair echo errors: {pair_echo.errors or 'none'}; "
        f"ping echo errors: {echo.errors or 'none'}"
    )
    report_cpu(cpu, len(ms), elapsed)
    # The stack's own cost of a move's fan-out (a frame in, through the channel layer, out to two sockets), with
    # no engine, database or rules: what is left of a move's CPU once everything of the site's is taken away.
    if pair_echo.cpu:
        report_cpu(pair_echo.cpu, pair_echo.measured, pair_echo.window, unit="pair echo")


def report_cpu(cpu: dict, moves: int, window: float, unit: str = "move") -> None:
    """CPU over the measured window per move (or ``unit``) completed in it, and as a share of one core; "n/a" where
    there is no reading (no ``/proc``, servers not on this machine, PostgreSQL not in use)."""
    print(f"CPU over the {window:g} s measured, {moves} {unit}s (utime + stime from /proc):")
    for label in (SERVERS, POSTGRES, LOAD_GENERATOR):
        print(f"  {CPU_LABELS[label]}: {describe(cpu.get(label), moves, unit)}{why_not(cpu, label)}")


def local_postgresql() -> bool:
    database = settings.DATABASES["default"]
    host = database.get("HOST") or ""
    return database["ENGINE"].endswith("postgresql") and (host in LOCAL or host.startswith("/"))


def why_not(cpu: dict, label: str) -> str:
    if not proc_usage.available():
        return " (no /proc here)"
    if label not in cpu:
        return (
            " (no server listening on this machine)"
            if label == SERVERS
            else " (the site's database is not a PostgreSQL on this machine)"
        )
    return ""


def report_stages(folder: str) -> None:
    count, stages = stage_durations(folder)
    print(f"server-side stages of {count} moves, ms:")
    for label, values in stages.items():
        print(
            f"  {label:42s} p50 {percentile(values, 0.5):7.2f}  p90 {percentile(values, 0.9):7.2f}  "
            f"p99 {percentile(values, 0.99):7.2f}"
        )


def machine_speed_us() -> float:
    """Microseconds per Chinese Checkers mover's view (the heaviest frame's work) on a fixed set of positions: this
    machine's pure-Python speed varies by about two within an hour, so results are comparable only beside it."""
    rules = registry.get("chinesecheckers")
    positions = sample_positions(rules, 2, plies=40, count=100, seed=0)
    timings = []
    for _round in range(5):
        started = time.perf_counter()
        for position, seat in positions:
            rules.view(position, seat)
        timings.append((time.perf_counter() - started) / len(positions))
    return min(timings) * 1e6


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--game", default="chinesecheckers")
    parser.add_argument("--games", type=int, default=100)
    parser.add_argument(
        "--time-control",
        default="normal",
        help="the tables' time control (clocks.PROFILES: 'daily' makes every move pass a turn-based turn, which "
        "rewrites the players' \"Your move\" rows and counts)",
    )
    parser.add_argument("--interval", type=float, default=2.0, help="seconds between a game's moves")
    parser.add_argument("--duration", type=float, default=30.0, help="seconds of measured play")
    parser.add_argument(
        "--warmup",
        type=float,
        default=3.0,
        help="seconds of play before measuring (the servers finish the connections' snapshots and presence)",
    )
    parser.add_argument("--connecting", type=int, default=50, help="websocket handshakes under way at once")
    parser.add_argument(
        "--timeline", action="store_true", help="also print each measured second's move round trips"
    )
    parser.add_argument(
        "--processes", type=int, help="server processes to start (default 2; 1 with --find-knee)"
    )
    parser.add_argument(
        "--server",
        default="tapete.serve",
        help="the module the servers run: tapete.serve (the site's, bounded sockets) or daphne (daphne alone)",
    )
    parser.add_argument(
        "--target", help="comma-separated host:port of running servers of bench.echo:application"
    )
    parser.add_argument(
        "--stages",
        action="store_true",
        help="serve bench.stage_trace, which stamps each move's stages in the servers, and print where the time went",
    )
    knee = parser.add_argument_group(
        "knee search",
        "--find-knee steps the offered load (moves/s over all --games) up, then bisects, printing each step",
    )
    knee.add_argument(
        "--find-knee", action="store_true", help="find the highest offered load with p99 < limit"
    )
    knee.add_argument(
        "--p99-limit", type=float, default=50.0, help="a step is good if its p99 is under this (ms)"
    )
    knee.add_argument("--knee-start", type=float, default=50.0, help="the first step's offered moves/s")
    knee.add_argument(
        "--knee-factor", type=float, default=1.5, help="each step up multiplies the load by this"
    )
    knee.add_argument(
        "--knee-precision",
        type=float,
        default=0.1,
        help="bisect until the lowest bad step is at most this share above the highest good one",
    )
    knee.add_argument("--knee-ceiling", type=float, default=5000.0, help="no step above this many moves/s")
    knee.add_argument(
        "--knee-floor",
        type=float,
        default=10.0,
        help="if the first steps are bad, none below this many moves/s",
    )
    knee.add_argument("--knee-steps", type=int, default=14, help="at most this many steps")
    knee.add_argument("--step-duration", type=float, default=12.0, help="seconds measured per step")
    knee.add_argument(
        "--knee-settle", type=float, default=3.0, help="seconds played at a step's pace before it is measured"
    )
    args = parser.parse_args()
    if args.stages and args.target:
        parser.error("--stages starts its own servers: it cannot be used with --target")
    if args.find_knee and (args.stages or args.timeline):
        parser.error("--find-knee prints its own steps: no --stages or --timeline")
    if args.processes is None:
        args.processes = len(args.target.split(",")) if args.target else 1 if args.find_knee else 2
    play = find_knee if args.find_knee else measure
    speed_before = machine_speed_us()
    call_command("migrate", verbosity=0)
    tables = create_tables(args.game, args.games, args.time_control)
    print(f"{len(tables)} tables created", file=sys.stderr)
    if args.target:
        addresses = args.target.split(",")
        results = asyncio.run(run(args, addresses, tables, play))
    else:
        # Every socket of the load generator comes from 127.0.0.1: lift the per-address socket limit.
        env = {"DJANGO_DEBUG": "false", "TAPETE_WS_SOCKETS_PER_IP": "1000000"}
        application = "bench.echo:application"  # the site with the echo routes
        if args.stages:
            stage_log = tempfile.TemporaryDirectory(prefix="tapete-stages-")
            env["TAPETE_STAGE_LOG"] = stage_log.name
            application = "bench.stage_trace:application"
        with daphne_servers(args.processes, env, application, args.server) as ports:
            addresses = [f"127.0.0.1:{port}" for port in ports]
            results = asyncio.run(run(args, addresses, tables, play))
    if args.find_knee:
        report_knee(args, results)
    else:
        report(args, *results)
    if args.stages:
        report_stages(stage_log.name)
        stage_log.cleanup()
    print(
        f"machine speed: a Chinese Checkers mover's view took {speed_before:.0f} µs before the run, "
        f"{machine_speed_us():.0f} µs after"
    )


if __name__ == "__main__":
    main()
