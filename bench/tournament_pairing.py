"""Tournament pairing: how long pairing takes, and how it grows with the players.

Two parts:

1. **The pure pairing** (``tournaments.pairing``): a Swiss round of ``n`` players at tables of ``--table-size``,
   after four rounds of past opponents, for ``n`` doubling from 100 to 6400; prints the time per call and the time
   divided by ``n log2 n`` (flat if the cost grows as n log n).
2. **Through the database** (``tournaments.life_cycle.tournament_advance``, the Celery task's work): a
   ``--swiss``-player Swiss tournament's first round paired (every table opened and started through the lobby, in
   one transaction), then a ``--arena``-player arena's start, and then, after ``--finishing`` of its tables end
   (aborted through the engine's writer), the one call that scores them and seats their players again: the delay
   a finishing player waits for, apart from the task's queueing. No Celery worker and no sockets: what it prints is
   the pairing's own work in the database, not the delay under a live load of moves.

Embedded default (SQLite)::

    PYTHONPATH=platform:. .venv/bin/python bench/tournament_pairing.py

PostgreSQL (its own database; the script migrates it and adds its own players)::

    DATABASE_URL=postgres://postgres@127.0.0.1:5432/tapete_bench PYTHONPATH=platform:. \\
        nice -n 19 .venv/bin/python bench/tournament_pairing.py --swiss 200 --arena 600
"""

from __future__ import annotations

import argparse
import math
import os
import random
import sys
import time
import uuid
from datetime import timedelta
from functools import partial
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path[:0] = [str(ROOT / "platform"), str(ROOT)]
os.environ.setdefault("DJANGO_SETTINGS_MODULE", "tapete.settings")
os.environ.setdefault("TAPETE_SCHEDULE_DEADLINES", "false")  # no worker here: queue no deadline, no bot move
os.environ.setdefault("TAPETE_SCHEDULE_BOTS", "false")
os.environ.setdefault("TAPETE_SCHEDULE_TOURNAMENTS", "false")

import django  # noqa: E402

django.setup()

from django.core.management import call_command  # noqa: E402
from django.db import connection  # noqa: E402
from django.utils import timezone  # noqa: E402

from accounts.models import User  # noqa: E402
from tournaments import life_cycle, pairing  # noqa: E402
from tournaments.models import Entry, Round, Tournament, TournamentTable  # noqa: E402
from turnengine import outbox, timers, writer  # noqa: E402


def pure(table_size: int) -> None:
    print(f"pure Swiss pairing, tables of {table_size}, after four rounds of past opponents")
    print(f"{'players':>8} {'ms (best)':>9} {'us per n log2 n':>16}")
    rng = random.Random(1)
    for count in (100, 200, 400, 800, 1600, 3200, 6400):
        players = [pairing.Player(key=key, score=rng.randrange(0, 9), rating=rng.gauss(1500, 200), order=key)
                   for key in range(count)]
        met = {key: {rng.randrange(count) for _ in range(4 * (table_size - 1))} - {key} for key in range(count)}
        runs = max(5, 6000 // count)
        elapsed = min(
            timed(partial(pairing.swiss_tables, players, table_size, range(2, table_size + 1), met, set()))
            for _ in range(runs)
        )  # the fastest run: the machine is shared, and the others only measure its neighbours
        print(f"{count:>8} {elapsed * 1000:>9.2f} {elapsed * 1e6 / (count * math.log2(count)):>16.3f}")


def players(count: int) -> list[User]:
    tag = uuid.uuid4().hex[:6]
    users = [User(username=f"t{tag}-{index}", email=f"t{tag}-{index}@example.org") for index in range(count)]
    for user in users:
        user.set_unusable_password()
        user.save()  # one by one: saving derives the name's look-alike key
    return users


def tournament(kind: str, count: int, table_size: int, game: str) -> Tournament:
    staff = players(1)[0]
    event = Tournament.objects.create(
        name=f"bench {kind}", kind=kind, game=game, table_size=table_size, rounds=5, duration_minutes=60,
        created_by=staff, starts_at=timezone.now() - timedelta(seconds=1), max_players=count,
    )
    Entry.objects.bulk_create([Entry(tournament=event, user=user, rating=1500) for user in players(count)])
    return event


def timed(call) -> float:
    start = time.perf_counter()
    call()
    return time.perf_counter() - start


def database(args) -> None:
    outbox.install_sender(lambda update: None)  # no transport here: the frames go nowhere
    print(f"\nthrough the database ({connection.vendor}), {args.game} at tables of {args.table_size}")
    swiss = tournament("swiss", args.swiss, args.table_size, args.game)
    elapsed = timed(lambda: life_cycle.tournament_advance(swiss.pk))
    tables = TournamentTable.objects.filter(round__tournament=swiss).count()
    print(f"Swiss of {args.swiss}: round 1 paired, {tables} tables started, in {elapsed:.2f} s "
          f"({elapsed / tables * 1000:.1f} ms a table)")

    arena = tournament("arena", args.arena, args.table_size, args.game)
    elapsed = timed(lambda: life_cycle.tournament_advance(arena.pk))
    tables = list(TournamentTable.objects.filter(round__tournament=arena).values_list("match_id", flat=True))
    print(f"arena of {args.arena}: start, {len(tables)} tables started, in {elapsed:.2f} s")
    delays = []
    for batch in range(args.batches):
        ending = tables[batch * args.finishing : (batch + 1) * args.finishing]
        for match_id in ending:
            with writer.locked(match_id) as change:
                timers.match_abort(change)
        Entry.objects.filter(tournament=arena).update(free_since=timezone.now() - timedelta(minutes=5))
        rounds = Round.objects.filter(tournament=arena).count()
        delays.append(timed(lambda: life_cycle.tournament_advance(arena.pk)))
        assert Round.objects.filter(tournament=arena).count() == rounds + 1
    delays.sort()
    print(f"arena of {args.arena}: {args.finishing} tables finish, their players scored and seated again: "
          f"median {delays[len(delays) // 2]:.3f} s, worst {delays[-1]:.3f} s over {args.batches} batches")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--table-size", type=int, default=2)
    parser.add_argument("--game", default="perudo")
    parser.add_argument("--swiss", type=int, default=200)
    parser.add_argument("--arena", type=int, default=600)
    parser.add_argument("--finishing", type=int, default=10, help="arena tables that end before each pairing")
    parser.add_argument("--batches", type=int, default=5)
    parser.add_argument("--pure-only", action="store_true")
    args = parser.parse_args()
    pure(args.table_size)
    if not args.pure_only:
        call_command("migrate", verbosity=0)
        database(args)


if __name__ == "__main__":
    main()
