"""What bench/ws_load.py and bench/idle_sockets.py measure besides round trips: the knee search's steps
(``next_offered_load``, a pure function), a step's verdict, and the CPU and memory readings of ``bench/proc_usage.py``
on real processes (this one, a child burning CPU, a real server echoing frames, and on PostgreSQL a real knee step
with moves). No figure is asserted beyond "some CPU was spent where work was done, none where it was not"."""

from __future__ import annotations

import asyncio
import os
import socket
import subprocess
import sys
import time
from types import SimpleNamespace

import orjson
import pytest
from django.db import connection

from bench import proc_usage
from bench.proc_usage import CpuFigures, CpuWindow, exactly, listening_pids, named, server_tree, ticks_spent
from bench.ws_load import (
    LOAD_GENERATOR,
    POSTGRES,
    SERVERS,
    Stats,
    Step,
    create_tables,
    drained,
    find_knee,
    knee_of,
    next_offered_load,
    open_socket,
    run,
    usage_selectors,
)
from tests.servers import REAL_SERVICES, daphne_servers, database_url, wait_for_other_database_sessions

SEARCH = {"start": 50.0, "factor": 1.5, "precision": 0.1, "ceiling": 5000.0, "floor": 1.0}


def search(capacity: float, **overrides) -> list[tuple[float, bool]]:
    """The steps a search takes against servers whose steps are good up to ``capacity`` moves/s exactly."""
    steps: list[tuple[float, bool]] = []
    while (offered := next_offered_load(steps, **{**SEARCH, **overrides})) is not None:
        assert len(steps) < 50, "the search does not end"
        steps.append((offered, offered <= capacity))
    return steps


def test_the_search_steps_up_by_the_factor_then_bisects_to_within_the_precision():
    steps = search(400)
    assert [offered for offered, _ in steps[:7]] == pytest.approx(
        [50, 75, 112.5, 168.75, 253.125, 379.6875, 569.53125]
    )
    assert steps[6] == (pytest.approx(569.53, abs=0.01), False)
    assert steps[7][0] == pytest.approx(
        (379.6875 + 569.53125) / 2
    )  # bisection between last good and first bad
    knee, lowest_bad = knee_of(steps)
    assert knee <= 400 < lowest_bad <= knee * 1.1
    assert len(steps) <= 11  # a few minutes at 15 s a step


def test_a_good_step_above_a_bad_one_does_not_raise_the_knee():
    """Noise: a step above the lowest bad one came out good. The knee stays below the lowest bad step."""
    steps = [(50.0, True), (75.0, True), (112.5, False), (93.75, True), (120.0, True)]
    assert knee_of(steps) == (93.75, 112.5)
    assert next_offered_load(steps, **SEARCH) == pytest.approx((93.75 + 112.5) / 2)


def test_when_the_first_step_is_bad_the_search_steps_down_and_ends_below_one_move_a_second():
    steps = search(20)
    assert [offered for offered, _ in steps[:3]] == pytest.approx([50, 50 / 1.5, 50 / 1.5**2])
    knee, lowest_bad = knee_of(steps)
    assert knee <= 20 < lowest_bad <= knee * 1.1
    assert knee_of(search(0.5))[0] is None  # never good: no knee, and the search ended
    assert min(offered for offered, _ in search(0.5, floor=10)) >= 10


def test_the_search_ends_at_the_ceiling_when_no_step_is_bad():
    steps = search(10**9, ceiling=300)
    assert all(good for _, good in steps) and max(offered for offered, _ in steps) <= 300
    assert knee_of(steps) == (pytest.approx(253.125), None)


def test_a_step_is_good_only_under_the_limit_without_error_and_with_the_load_offered():
    fast = [0.005] * 990 + [0.040] * 10  # p99 40 ms
    assert Step(100, 10, fast, {}, {}, 0, limit_ms=50).good
    assert not Step(100, 10, fast, {}, {}, 0, limit_ms=30).good
    assert not Step(100, 10, fast, {"lost_move": 1}, {}, 0, limit_ms=50).good
    assert not Step(200, 10, fast, {}, {}, 0, limit_ms=50).good  # 100 moves/s made of 200 offered
    assert not Step(100, 10, [], {}, {}, 0, limit_ms=50).good


def test_ticks_spent_counts_a_new_process_from_zero_and_a_reused_pid_as_new():
    before = {(10, 1): 100, (11, 1): 50, (12, 5): 7}
    after = {(10, 1): 130, (11, 1): 50, (12, 900): 4, (13, 2): 9}  # 12's pid reused; 13 new
    assert ticks_spent(before, after) == 30 + 0 + 4 + 9


def _burn(seconds: float) -> None:
    until = time.process_time() + seconds
    while time.process_time() < until:
        pass


def test_a_window_reads_the_cpu_this_process_spent_and_none_for_an_idle_one():
    sleeper = subprocess.Popen(
        [sys.executable, "-c", "import time; print('asleep', flush=True); time.sleep(5)"],
        stdout=subprocess.PIPE,
    )
    try:
        assert sleeper.stdout.readline() == b"asleep\n"  # its start-up's CPU is spent before the window opens
        window = CpuWindow({"me": exactly([os.getpid()]), "sleeper": exactly([sleeper.pid])})
        window.start()
        _burn(0.5)
        figures = window.stop()
    finally:
        sleeper.kill()
        sleeper.wait()
    assert figures["me"].seconds >= 0.3
    assert figures["sleeper"].seconds <= 0.05
    assert figures["me"].core_percent > 0
    assert CpuFigures(0.5, 10).per_move_ms(250) == pytest.approx(2.0)
    assert CpuFigures(0.5, 10).core_percent == pytest.approx(5.0)


def test_a_server_tree_counts_its_children_started_inside_the_window():
    """A child started after the window opened counts from zero: its CPU is in its parent's tree."""
    window = CpuWindow({"tree": server_tree([os.getpid()]), "me": exactly([os.getpid()])})
    window.start()
    child = subprocess.Popen(
        [
            sys.executable,
            "-c",
            "import time\nt = time.process_time() + 0.6\nwhile time.process_time() < t: pass\ntime.sleep(5)",
        ]
    )
    try:
        time.sleep(0.1)
        while proc_usage.read_stat(child.pid).cpu_ticks < 0.5 * proc_usage.TICKS_PER_SECOND:
            time.sleep(0.05)
        figures = window.stop()
    finally:
        child.kill()
        child.wait()
    assert figures["tree"].seconds - figures["me"].seconds >= 0.4


def test_a_listening_socket_is_found_by_its_port():
    with socket.socket() as listener:
        listener.bind(("127.0.0.1", 0))
        listener.listen()
        port = listener.getsockname()[1]
        assert listening_pids([port]) == [os.getpid()]
    assert listening_pids([port]) == []


def test_a_real_server_echoing_frames_spends_cpu_and_reports_its_memory():
    """The selectors ws_load builds for a server it started: found by its port, its CPU read while it echoes."""

    async def echo(port: int) -> tuple[dict, dict]:
        address = f"127.0.0.1:{port}"
        window = CpuWindow(usage_selectors([address]))
        ws = await open_socket(address, "/ws/echo/", None)
        window.start()
        for _ in range(300):
            await ws.send('{"t":"ping","v":0,"d":{}}')
            await ws.recv()
        figures = window.stop()
        await ws.close()
        probe = await open_socket(address, "/ws/echo/memory/", None)
        await probe.send("{}")
        memory = orjson.loads(await probe.recv())
        await probe.close()
        return figures, memory

    with daphne_servers(1, {}, "bench.echo:application") as [port]:
        [server] = listening_pids([port])
        figures, memory = asyncio.run(echo(port))
    assert figures[SERVERS].seconds > 0
    assert figures[LOAD_GENERATOR].seconds > 0
    assert memory["pid"] == server and memory["rss_kib"] > 10_000
    if connection.vendor != "postgresql":
        assert POSTGRES not in figures  # the embedded default: PostgreSQL's processes are not the site's


def real_services(test):
    for mark in REAL_SERVICES:
        test = mark(test)
    return test


@real_services
@pytest.mark.django_db(transaction=True)
def test_a_knee_step_with_moves_reads_the_servers_and_postgresql_cpu(sent):
    """One short step of --find-knee on PostgreSQL + Redis: moves made, and CPU read for the server and the
    cluster. (``sent`` puts the transport's sender back after create_tables replaced it.)"""
    tables = create_tables("chinesecheckers", 4)
    args = SimpleNamespace(
        connecting=10,
        p99_limit=10_000.0,
        knee_start=20.0,
        knee_factor=1.5,
        knee_precision=0.1,
        knee_ceiling=20.0,  # one step
        knee_floor=10.0,
        knee_steps=1,
        knee_settle=1.0,
        step_duration=2.0,
    )
    env = {
        "DATABASE_URL": database_url(connection),
        "REDIS_URL": os.environ["REDIS_URL"],
        "DJANGO_DEBUG": "false",
        "TAPETE_WS_SOCKETS_PER_IP": "1000",
    }
    with daphne_servers(1, env, "bench.echo:application") as [port]:
        [step] = asyncio.run(run(args, [f"127.0.0.1:{port}"], tables, find_knee))
    wait_for_other_database_sessions(connection)
    assert len(step.ms) >= 10 and not step.errors
    assert step.cpu[SERVERS].per_move_ms(len(step.ms)) > 0
    assert step.cpu[POSTGRES].per_move_ms(len(step.ms)) > 0
    assert named("postgres")(proc_usage.all_stats()), "PostgreSQL's processes are named postgres"


async def test_the_search_waits_for_a_bad_steps_backlog_before_the_next_step():
    moves = Stats()
    old = time.perf_counter() - 1.0
    moves.in_flight.add(old)  # a move waiting for a second: the servers are behind

    async def answered() -> None:
        await asyncio.sleep(0.3)
        moves.in_flight.discard(old)

    answering = asyncio.ensure_future(answered())
    await drained(moves, 0.05, most=20)
    assert not moves.in_flight, "it returned only once the late move was answered"
    await answering
    moves.in_flight.add(time.perf_counter())  # a fresh move in flight is no backlog
    await asyncio.wait_for(drained(moves, 5.0, most=60), 10)
