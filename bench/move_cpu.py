"""The CPU of one move inside a process, without sockets: the writer, the rules and the frames, as a socket's move
runs them on the database thread (``outbox.collect_into`` around ``services.match_apply_action``).

Opens ``--games`` started two-seat tables of ``--game``, then plays random legal moves round-robin over them for
``--moves`` moves and prints the process's CPU per move (``time.process_time``: this process only, so another
program on the machine slows it less than it slows a wall-clock figure) and the wall time per move. With
``--profile`` it prints the functions with the most CPU time (cProfile timed by ``process_time``, so waiting for the
database counts for nothing), cumulative or, with ``--sort tottime``, their own. On PostgreSQL on this machine it
also prints what the database server's backend spent on the measured calls (its ``/proc/<pid>/schedstat``, to the
nanosecond)::

    PYTHONPATH=platform:. .venv/bin/python bench/move_cpu.py --moves 2000
    DATABASE_URL=postgres://postgres@127.0.0.1:5432/tapete_bench PYTHONPATH=platform:. \\
        .venv/bin/python bench/move_cpu.py --moves 2000 --profile
"""

from __future__ import annotations

import argparse
import cProfile
import os
import pstats
import random
import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path[:0] = [str(ROOT / "platform"), str(ROOT)]
os.environ.setdefault("DJANGO_SETTINGS_MODULE", "tapete.settings")

import django  # noqa: E402

django.setup()

from django.conf import settings  # noqa: E402

settings.DEBUG = False  # as the servers run (ws_load.py): Django keeps no log of the queries

from django.core.management import call_command  # noqa: E402
from django.db import connection  # noqa: E402

from accounts.models import User  # noqa: E402
from lobby import services as lobby  # noqa: E402
from turnengine import outbox, services  # noqa: E402
from turnengine.models import Match  # noqa: E402

GAME_OPTIONS = {"spicy": {"challengeGraceMs": 0}, "chinesecheckers": {"maxTurns": 1000}}


def open_tables(game: str, count: int) -> list[tuple[int, list]]:
    """``count`` started two-seat tables: (match id, the two users)."""
    run = f"{int(time.time())}-{random.randrange(10**6)}"
    tables = []
    for index in range(count):
        users = [User.objects.create_user(f"cpu-{run}-{index}-{seat}") for seat in range(2)]
        match = lobby.table_create(
            user=users[0], game=game, num_players=2, options=GAME_OPTIONS.get(game, {}), ranked=False
        )
        lobby.table_join(user=users[1], match_id=match.pk)
        lobby.table_start(user=users[0], match_id=match.pk)
        tables.append((match.pk, users))
    return tables


def next_move(match_id: int, rng: random.Random) -> tuple[int, int, dict] | None:
    """(seat, version, a random legal action) at the match now, read outside the measured calls."""
    match = Match.objects.get(pk=match_id)
    if match.status != Match.Status.ACTIVE:
        return None
    rules = match.rules
    movers = [seat for seat in range(match.num_players) if rules.legal_actions(match.state, seat)]
    if not movers:
        return None
    seat = rng.choice(movers)
    return seat, match.version, rng.choice(rules.legal_actions(match.state, seat))


def backend_cpu_reader():
    """A function returning the CPU seconds the connection's PostgreSQL backend has run so far, or None where it
    cannot be read (SQLite, a database on another machine)."""
    if connection.vendor != "postgresql":
        return None
    with connection.cursor() as cursor:
        cursor.execute("SELECT pg_backend_pid()")
        (pid,) = cursor.fetchone()
    path = Path(f"/proc/{pid}/schedstat")
    if not path.exists():
        return None
    return lambda: int(path.read_text().split()[0]) / 1e9


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--game", default="chinesecheckers")
    parser.add_argument("--games", type=int, default=20)
    parser.add_argument("--moves", type=int, default=1000)
    parser.add_argument("--profile", action="store_true")
    parser.add_argument("--top", type=int, default=35)
    parser.add_argument("--sort", choices=("cumulative", "tottime"), default="cumulative")
    args = parser.parse_args()
    call_command("migrate", verbosity=0)
    outbox.install_sender(lambda update: None)
    tables = open_tables(args.game, args.games)
    rng = random.Random(1)
    profiler = cProfile.Profile(time.process_time) if args.profile else None
    backend_cpu = backend_cpu_reader()
    cpu = wall = database = 0.0
    moves = 0
    while moves < args.moves and tables:
        for match_id, users in list(tables):
            planned = next_move(match_id, rng)
            if planned is None:
                tables.remove((match_id, users))
                continue
            seat, version, action = planned
            collected: list = []
            database_start = backend_cpu() if backend_cpu else 0.0
            cpu_start, wall_start = time.process_time(), time.perf_counter()
            if profiler:
                profiler.enable()
            outbox.collect_into(
                collected,
                services.match_apply_action,
                match_id=match_id,
                user=users[seat],
                expected_version=version,
                action=action,
            )
            if profiler:
                profiler.disable()
            cpu += time.process_time() - cpu_start
            wall += time.perf_counter() - wall_start
            if backend_cpu:
                database += backend_cpu() - database_start
            moves += 1
    database_line = f", PostgreSQL backend {1000 * database / moves:.3f} ms/move" if backend_cpu else ""
    print(
        f"{args.game}: {moves} moves, CPU {1000 * cpu / moves:.3f} ms/move, wall {1000 * wall / moves:.3f} ms/move"
        + database_line
    )
    if profiler:
        pstats.Stats(profiler).sort_stats(args.sort).print_stats(args.top)


if __name__ == "__main__":
    main()
