"""Tournament load: the pairing delays players see in a live event, with computer clients over real sockets.

Starts ``--processes`` servers of the site (``python -m tapete.serve``) and one Celery worker with its beat, as
``tests/servers.py`` runs them (two threads; beat's sweep every ``TAPETE_SWEEP_SECONDS``, production's 15 s unless
set), creates the players and a tournament of ``--game`` at tables of ``--table-size``, and has every player join it
through the site's service. Each computer client then does what a player's browser does (below): it asks for its
table (``my-table.json``) when a socket says it was seated, opens its table's socket and plays a random legal move
``--think`` seconds (0.5 to 1.5 times) after each view that awaits it. A player's pairing delay runs from its table's
finish, as its table's socket shows it (the first view that is no longer active), to its next table's opening: the
first view of the next table on that table's socket (and, apart, to the moment ``my-table.json`` named it).
The servers run with the site's own settings.
At most ``--connecting`` websocket handshakes and ``--http-connections`` requests are under way at once over all the
clients; a socket that drops is opened again, as the page's script does, and counted as an error.

As ``static/js/tournament.js`` does, a client listens on the tournament page's socket until its first table, and
on the lobby socket that every page of a player holds, where the change that seats it at a new table reaches it;
then it asks for its table (as it does when a socket reconnects: it may have missed it). A waiting client that hears
nothing for 5 s asks anyway; the tables found that way are counted, with how much later their seating was heard, or
that it never was (the page's script would have waited on). Not simulated: page loads (each table page's HTML and the new lobby socket
it opens; a client keeps one lobby socket), and the tournament pages' refreshes of the standings.

``--arena N``: an arena of N players lasting ``--minutes``; for each finishing player who is paired again, the delay
to their next table. ``--swiss N``: round 1 of a Swiss of N players is played out; the delay from the last table's
finish (the latest finish any client saw) to each player's table of round 2. Prints p50/p95/max of each; the same
delays on the server's side, from the database (a finished match's ``finished_at`` to the creation of the player's
next table, or to the creation of round 2's last table); and the load average before and after. Run both with
``--arena 600 --swiss 200``. Needs PostgreSQL and Redis (several processes share the channel layer)::

    createdb -h 127.0.0.1 -U postgres tapete_bench
    DATABASE_URL=postgres://postgres@127.0.0.1:5432/tapete_bench REDIS_URL=redis://127.0.0.1:6379/1 \\
      PYTHONPATH=platform:. .venv/bin/python bench/tournament_load.py --arena 600 --swiss 200
"""

from __future__ import annotations

import argparse
import asyncio
import logging
import os
import random
import sys
import time
from datetime import timedelta
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path[:0] = [str(ROOT / "platform"), str(ROOT)]
os.environ.setdefault("DJANGO_SETTINGS_MODULE", "tapete.settings")

import django  # noqa: E402
import orjson  # noqa: E402

django.setup()

import httpx  # noqa: E402
import websockets  # noqa: E402
from django.conf import settings  # noqa: E402
from django.core.management import call_command  # noqa: E402
from django.db import transaction  # noqa: E402
from django.db.models import Max  # noqa: E402
from django.utils import timezone  # noqa: E402

from accounts.models import User  # noqa: E402
from tests.servers import celery_worker, daphne_servers  # noqa: E402
from tests.turnengine.wsclient import make_session_key  # noqa: E402
from tournaments import life_cycle  # noqa: E402
from tournaments.models import Pairing, Tournament  # noqa: E402
from turnengine import outbox  # noqa: E402
from turnengine.models import Match  # noqa: E402

OVER = {"finished", "cancelled"}
SILENCE = 5.0  # seconds a waiting client hears no change before it asks anyway (and counts it if it finds a table)
FAILURES = (OSError, TimeoutError, websockets.WebSocketException)


def percentile(values: list[float], share: float) -> float:
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, int(share * len(ordered)))] if ordered else float("nan")


def summary(values: list[float]) -> str:
    return (
        f"n={len(values)}  p50 {percentile(values, 0.5) * 1000:.0f} ms  p95 {percentile(values, 0.95) * 1000:.0f} ms"
        f"  max {max(values, default=float('nan')) * 1000:.0f} ms"
    )


def create_event(kind: str, players: int, args) -> tuple[int, list[str]]:
    """A tournament starting in an hour (the script moves its start once every client listens), its staff creator,
    and ``players`` players joined through the site's service: (its id, their session keys)."""
    outbox.install_sender(lambda update: None)  # nobody listens yet
    run = f"{int(time.time())}-{random.randrange(10**6)}"
    staff = User.objects.create_user(f"bench-{run}-staff", is_staff=True)
    fields = {"rounds": 2} if kind == "swiss" else {"duration_minutes": args.minutes}
    tournament = Tournament.objects.create(
        name=f"Bench {kind} {run}", game=args.game, table_size=args.table_size, kind=kind, created_by=staff,
        options=args.options, starts_at=timezone.now() + timedelta(hours=1), max_players=players,
        time_control=args.time_control, ranked=False, **fields,
    )
    keys = []
    for index in range(players):
        user = User.objects.create_user(f"bench-{run}-{index}")
        life_cycle.tournament_join(user=user, tournament_id=tournament.pk)
        keys.append(make_session_key(user))
    return tournament.pk, keys


class Event:
    """What the clients of one tournament share: the measures, and when the measured part is over."""

    def __init__(self, kind: str, players: int) -> None:
        self.kind = kind
        self.finishes: dict[int, float] = {}  # each client's last table finish (the Swiss: round 1's)
        self.opened: list[tuple[int, float, float, float]] = []  # (client, finish, known, opened)
        self.errors: dict[str, int] = {}
        self.asked_first: list[float | None] = []  # a table found by asking first: seconds until its seating was heard
        self.tables: set[int] = set()  # the matches the clients opened
        self.waiting_swiss = players  # clients yet to open their table of round 2
        self.elapsed = 0.0
        self.server: list[float] = []  # the same delays in the database (server_delays, swiss_delay)
        self.done = asyncio.Event()

    def error(self, code: str) -> None:
        self.errors[code] = self.errors.get(code, 0) + 1


class Client:
    """One player's browser: the tournament's page and its socket until its first table, then each table's page and
    the table's socket; the lobby socket every page holds, and ``my-table.json``."""

    def __init__(self, index: int, key: str, address: str, tournament_id: int, event: Event, http, args) -> None:
        self.index, self.key, self.address, self.tournament_id = index, key, address, tournament_id
        self.event, self.http, self.args = event, http, args
        self.rng = random.Random(index)
        self.changed = asyncio.Event()  # a socket said this player was seated (or reconnected: it may have missed it)
        self.status = "upcoming"
        self.current: int | None = None  # the match the client plays or last played
        self.finished_at: float | None = None  # the finish of its table, while it waits for the next
        self.page: asyncio.Task | None = None  # the tournament page's socket, until the first table
        self.found_unheard: float | None = None  # when asking found a table whose seating was not heard yet
        self.handshakes: asyncio.Semaphore | None = None  # websocket handshakes under way at once, all clients

    def headers(self) -> dict:
        return {"Origin": f"http://{self.address}", "Cookie": f"{settings.SESSION_COOKIE_NAME}={self.key}"}

    async def connect(self, path: str):
        async with self.handshakes:
            return await websockets.connect(
                f"ws://{self.address}{path}", additional_headers=self.headers(), compression=None, max_queue=None,
                open_timeout=60,
            )

    async def run(self, handshakes: asyncio.Semaphore, connected) -> None:
        self.handshakes = handshakes
        try:
            page = await self.connect(f"/ws/tournament/{self.tournament_id}/")
            lobby = await self.connect("/ws/lobby/?lists=0")  # a table page has no table list
        except FAILURES as error:
            self.event.error(f"tournament socket: {type(error).__name__}")
            return
        finally:
            connected()  # ready or failed: the event starts without a client that could not connect
        self.page = asyncio.create_task(self.listen(f"/ws/tournament/{self.tournament_id}/", page))
        listener = asyncio.create_task(self.listen("/ws/lobby/?lists=0", lobby))
        try:
            await self.take_part()
        finally:
            self.page.cancel()
            listener.cancel()

    async def listen(self, path: str, socket) -> None:
        """A page's socket, opened again when it drops (as the page's script does, which then asks)."""
        while True:
            try:
                async for text in socket:
                    frame = orjson.loads(text)
                    if frame["t"] == "tournament" and frame["d"]["id"] == self.tournament_id:
                        self.status = frame["d"]["status"]
                        if frame["d"].get("seated"):
                            self.changed.set()
                            if self.found_unheard is not None:
                                self.event.asked_first.append(time.perf_counter() - self.found_unheard)
                                self.found_unheard = None
            except FAILURES as error:
                self.event.error(f"socket {path}: {type(error).__name__}")
            finally:
                await socket.close()
            while True:
                try:
                    socket = await self.connect(path)
                    break
                except FAILURES as error:
                    self.event.error(f"socket {path}: {type(error).__name__}")
                    await asyncio.sleep(1)
            self.changed.set()

    async def my_table(self) -> int | None:
        while True:
            try:
                response = await self.http.get(
                    f"http://{self.address}/tournaments/{self.tournament_id}/my-table.json",
                    headers={"Cookie": self.headers()["Cookie"], "X-Requested-With": "fetch"},
                )
            except httpx.HTTPError as error:
                self.event.error(f"my-table: {type(error).__name__}")
                await asyncio.sleep(0.5)
                continue
            if response.status_code == 200:
                answer = response.json()
                self.status = answer["status"]
                return answer["match"]
            self.event.error(f"my-table {response.status_code}")
            await asyncio.sleep(0.5)

    async def take_part(self) -> None:
        self.finished_at = None
        while True:
            self.changed.clear()  # before asking: a seating heard during the request is not missed
            match = await self.my_table()
            while match is None or match == self.current:
                if self.status in OVER or self.event.done.is_set():
                    return
                try:
                    await asyncio.wait_for(self.changed.wait(), SILENCE)
                except TimeoutError:  # the page's script would wait on: ask, to tell a seating it never heard
                    match = await self.my_table()
                    if match is not None and match != self.current and not self.changed.is_set():
                        self.found_unheard = time.perf_counter()  # its seating heard later, or never
                    continue
                self.changed.clear()
                match = await self.my_table()
            known = time.perf_counter()
            finished_at = self.finished_at
            self.current = match
            self.finished_at = None
            if self.found_unheard is not None and time.perf_counter() - self.found_unheard > 2 * SILENCE:
                self.event.asked_first.append(None)  # never heard
                self.found_unheard = None
            self.page.cancel()  # the tournament's page is left for the table's
            await self.play(match, finished_at, known)
            if self.event.kind == "swiss" and finished_at is not None:
                return  # round 2 opened: measured

    async def play(self, match_id: int, finished_at: float | None, known: float) -> None:
        """Play the table to its end, its socket opened again if it drops (the snapshot carries on)."""
        first = True
        while True:
            try:
                table = await self.connect(f"/ws/match/{match_id}/")
            except FAILURES as error:
                self.event.error(f"table socket: {type(error).__name__}")
                await asyncio.sleep(1)
                continue
            try:
                async for text in table:
                    frame = orjson.loads(text)
                    if frame["t"] == "error":
                        self.event.error(frame["d"].get("code", "error"))
                        continue
                    if frame["t"] != "view":
                        continue
                    if first:
                        first = False
                        if finished_at is not None:
                            self.event.opened.append((self.index, finished_at, known, time.perf_counter()))
                            if self.event.kind == "swiss":
                                self.event.waiting_swiss -= 1
                                if self.event.waiting_swiss == 0:
                                    self.event.done.set()
                                return
                        self.event.tables.add(match_id)
                    view = frame["d"]
                    if view["status"] != "active":
                        self.finished_at = time.perf_counter()
                        self.event.finishes[self.index] = self.finished_at
                        return
                    if view.get("legal"):
                        await asyncio.sleep(self.args.think * self.rng.uniform(0.5, 1.5))
                        action = self.rng.choice(view["legal"])
                        await table.send(orjson.dumps({"t": "act", "v": frame["v"], "d": action}).decode())
            except FAILURES as error:
                self.event.error(f"table socket: {type(error).__name__}")
            finally:
                await table.close()


async def run_event(kind: str, players: int, addresses: list[str], args) -> Event:
    tournament_id, keys = await asyncio.to_thread(create_event, kind, players, args)
    event = Event(kind, players)
    ready = asyncio.Event()
    count = [0]

    def connected() -> None:
        count[0] += 1
        if count[0] == players:
            ready.set()

    limits = httpx.Limits(max_connections=args.http_connections, max_keepalive_connections=args.http_connections)
    async with httpx.AsyncClient(limits=limits, timeout=60) as http:
        clients = [
            Client(index, key, addresses[index % len(addresses)], tournament_id, event, http, args)
            for index, key in enumerate(keys)
        ]
        at_once = asyncio.Semaphore(args.connecting)
        tasks = [asyncio.create_task(client.run(at_once, connected)) for client in clients]
        await ready.wait()
        await asyncio.to_thread(
            lambda: Tournament.objects.filter(pk=tournament_id).update(starts_at=timezone.now())
        )
        started = time.perf_counter()
        print(f"{kind} of {players}: every client listens; it starts at beat's next sweep", file=sys.stderr)
        await asyncio.gather(*tasks)
        event.elapsed = time.perf_counter() - started
    await asyncio.to_thread(finish_off, tournament_id)
    event.server = await asyncio.to_thread(server_delays if kind == "arena" else swiss_delay, tournament_id)
    return event


def swiss_delay(tournament_id: int) -> list[float]:
    """From the last finish of round 1's tables to the creation of round 2's last table (the pairing's transaction
    commits just after), in the database."""
    tables = Match.objects.filter(tournament_table__round__tournament_id=tournament_id)
    last = tables.filter(tournament_table__round__number=1).aggregate(last=Max("finished_at"))["last"]
    paired = tables.filter(tournament_table__round__number=2).aggregate(last=Max("created_at"))["last"]
    return [(paired - last).total_seconds()]


def finish_off(tournament_id: int) -> None:
    """A Swiss measured at its round 2 is cancelled (its tables are left open: nobody plays them)."""
    tournament = Tournament.objects.get(pk=tournament_id)
    if tournament.status not in (Tournament.Status.FINISHED, Tournament.Status.CANCELLED):
        with transaction.atomic():
            life_cycle.cancel(tournament_id=tournament_id)


def server_delays(tournament_id: int) -> list[float]:
    """The pairing's own delays, from the database: for each player paired again, from the finish of their table
    (the match's ``finished_at``) to the creation of their next one (inside the pairing's transaction)."""
    rows = (
        Pairing.objects.filter(round__tournament_id=tournament_id, table__isnull=False)
        .order_by("entry_id", "table__match_id")
        .values_list("entry_id", "table__match__created_at", "table__match__finished_at")
    )
    delays, previous = [], {}
    for entry_id, created_at, finished_at in rows:
        if previous.get(entry_id) is not None:
            delays.append((created_at - previous[entry_id]).total_seconds())
        previous[entry_id] = finished_at
    return delays


def report(event: Event) -> None:
    if event.kind == "arena":
        to_opened = [opened - finish for _i, finish, _k, opened in event.opened]
        to_known = [known - finish for _i, finish, known, _o in event.opened]
        print(f"arena: {len(event.tables)} tables opened over {event.elapsed:.0f} s; {len(event.opened)} times a "
              "player was paired again after a finish")
        print(f"  finish -> next table's first view:  {summary(to_opened)}")
        print(f"  finish -> my-table.json names it:   {summary(to_known)}")
        print(f"  in the database, finish -> next table created: {summary(event.server)}")
    else:
        last = max(event.finishes.values(), default=float("nan"))
        to_opened = [opened - last for _i, _f, _k, opened in event.opened]
        to_known = [known - last for _i, _f, known, _o in event.opened]
        first = min(event.finishes.values(), default=float("nan"))
        print(f"swiss: round 1 of {len(event.tables)} tables played out, its finishes spread over "
              f"{last - first:.1f} s; {len(event.opened)} players opened their table of round 2")
        print(f"  last table's finish -> each player's round-2 table, first view: {summary(to_opened)}")
        print(f"  last table's finish -> my-table.json names it:                  {summary(to_known)}")
        server = event.server[0] * 1000
        print(f"  in the database, round 1's last finish -> round 2's last table created: {server:.0f} ms")
    if event.asked_first:
        heard = [late for late in event.asked_first if late is not None]
        never = len(event.asked_first) - len(heard)
        print(f"  tables found by asking after {SILENCE:.0f} s of silence: {len(event.asked_first)}; their seating heard "
              f"later {summary(heard)}; never heard: {never}")
    if event.errors:
        print(f"  errors: {event.errors}")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--arena", type=int, default=0, help="players of an arena (0: none)")
    parser.add_argument("--minutes", type=int, default=2, help="the arena's duration")
    parser.add_argument("--swiss", type=int, default=0, help="players of a Swiss whose round 1 is played (0: none)")
    parser.add_argument("--game", default="perudo")
    parser.add_argument(
        "--options", type=orjson.loads, default={"startingDice": 1}, help="the game's options (JSON): short games"
    )
    parser.add_argument("--table-size", type=int, default=2)
    parser.add_argument("--time-control", default="normal")
    parser.add_argument("--think", type=float, default=1.0, help="a client's mean seconds before each move")
    parser.add_argument("--processes", type=int, default=2, help="server processes")
    parser.add_argument("--connecting", type=int, default=50, help="websocket handshakes under way at once")
    parser.add_argument(
        "--http-connections", type=int, default=16,
        help="my-table.json requests at once (each holds a database connection in a server while it runs)",
    )
    args = parser.parse_args()
    if not (os.environ.get("REDIS_URL") and os.environ.get("DATABASE_URL", "").startswith("postgres")):
        parser.error("needs REDIS_URL and a PostgreSQL DATABASE_URL: several processes share the channel layer")
    if not (args.arena or args.swiss):
        parser.error("say --arena N, --swiss N or both")
    logging.getLogger("httpx").setLevel(logging.WARNING)  # a line per request otherwise
    call_command("migrate", verbosity=0)
    # Every client socket comes from 127.0.0.1: lift the per-address socket limit.
    env = {"DJANGO_DEBUG": "false", "TAPETE_WS_SOCKETS_PER_IP": "1000000"}
    print(f"load average before: {os.getloadavg()[0]:.2f}", file=sys.stderr)
    with daphne_servers(args.processes, env) as ports, celery_worker(env):
        addresses = [f"127.0.0.1:{port}" for port in ports]
        for kind, players in (("arena", args.arena), ("swiss", args.swiss)):
            if players:
                report(asyncio.run(run_event(kind, players, addresses, args)))
    print(f"load average after: {os.getloadavg()[0]:.2f}")


if __name__ == "__main__":
    main()
