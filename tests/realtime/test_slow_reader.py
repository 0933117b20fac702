"""A spectator that never reads, at a table in play, is closed with 4008 before a megabyte waits for it, and the
table and its other spectator carry on (before the bound, such a socket grew its daphne by 100 MB in three minutes).

On a real server process (``python -m tapete.serve``) with PostgreSQL and Redis: at a table 300 moves long (each
snapshot carries the whole log), two players move about 15 times a second while one spectator, with a 4 KiB
receive buffer, asks for a snapshot (``sync``, a database read) 15 times a second and reads nothing, and another
spectator reads everything. What the silent spectator finally reads is all that waited for it, in daphne and in the
kernel. Real seconds pass here, by nature.
"""

from __future__ import annotations

import asyncio
import json
import random
import threading
import time

import pytest
from django.conf import settings
from django.db import connection

from realtime.sockets import CLOSE_SLOW_READER
from tests.conftest import play_one_random_action
from tests.faults import RawWebSocket, close_code
from tests.servers import (
    REAL_SERVICES,
    daphne_servers,
    database_url,
    match_socket,
    wait_for_other_database_sessions,
)
from tests.turnengine.wsclient import make_session_key
from turnengine.models import Match

pytestmark = [
    *REAL_SERVICES,
    pytest.mark.django_db(transaction=True),
]

MOVES_PER_SECOND = 15
SYNCS_PER_SECOND = 15  # under the frame limit (TAPETE_WS_RATE_PER_SECOND, 20)
# Bytes the server is asked to send the silent spectator before it reads: well over the most that may wait for it
# within the limit (the kernel's send buffer, Linux doubling the 256 KiB asked, Twisted's 64 KiB and 256 KiB more).
WANTED = 3 * 1024 * 1024 // 2
MEGABYTE = 1024 * 1024
PLAYED_BEFORE = 300  # moves played before the sockets open
VIEWS_SEEN = 50  # the table plays on: the reader sees at least this many views in a row


async def _frames(ws):
    while True:
        yield json.loads(await asyncio.wait_for(ws.recv(), 20))


async def _play(ws, stop: asyncio.Event) -> None:
    """Move whenever this seat's view has legal moves, about MOVES_PER_SECOND times a second over both seats."""
    async for frame in _frames(ws):
        if stop.is_set():
            return
        if frame["t"] == "view" and frame["d"].get("legal"):
            await asyncio.sleep(1 / MOVES_PER_SECOND)
            await ws.send(json.dumps({"t": "act", "v": frame["v"], "d": random.choice(frame["d"]["legal"])}))


def _ask_for_snapshots(ws: RawWebSocket, stop: threading.Event, sent: list[int]) -> None:
    while not stop.is_set():
        try:
            ws.send_text('{"t":"sync","v":0,"d":{}}')
        except OSError:
            return
        sent[0] += 1
        time.sleep(1 / SYNCS_PER_SECOND)


def test_a_spectator_that_never_reads_is_closed_before_a_megabyte_waits_and_the_table_plays_on(
    start_table, make_user
):
    match, players = start_table("chinesecheckers", 2, options={"maxTurns": 5000})
    silent, reader = make_user(), make_user()
    keys = {user.pk: make_session_key(user) for user in [*players, silent, reader]}
    env = {
        "DATABASE_URL": database_url(connection),
        "REDIS_URL": settings.REDIS_URL,
        # No ping for this test's span: the silent spectator, which answers none, is to meet the buffer limit.
        "TAPETE_WS_PING_INTERVAL": "120",
        "TAPETE_WS_PING_TIMEOUT": "120",
        # Every sync answered with a snapshot (the default caps answer one a second, the others with a short error).
        **{f"TAPETE_WS_SYNC_{cap}": str(SYNCS_PER_SECOND) for cap in ("PER_SECOND", "BURST")},
        **{f"TAPETE_WS_SYNC_PER_USER_{cap}": str(SYNCS_PER_SECOND) for cap in ("PER_SECOND", "BURST")},
    }
    # A long log, so that each snapshot is large (it carries the whole log): the buffers fill in seconds.
    rng = random.Random(7)
    for _ in range(PLAYED_BEFORE):
        play_one_random_action(match, players, rng)

    async def scenario(port: int) -> dict:
        reader_ws = await match_socket(port, match.pk, keys[reader.pk])
        snapshot = json.loads(await reader_ws.recv())
        snapshot_bytes = len(json.dumps(snapshot))
        seats = [await match_socket(port, match.pk, keys[player.pk]) for player in players]
        headers = {
            "Cookie": f"{settings.SESSION_COOKIE_NAME}={keys[silent.pk]}",
            "Origin": f"http://127.0.0.1:{port}",
        }
        silent_ws = await asyncio.to_thread(
            RawWebSocket, port, f"/ws/match/{match.pk}/", headers, receive_buffer=4096
        )
        stop_syncs, syncs = threading.Event(), [0]
        asker = threading.Thread(target=_ask_for_snapshots, args=(silent_ws, stop_syncs, syncs), daemon=True)
        stop_play = asyncio.Event()
        playing = [asyncio.create_task(_play(seat, stop_play)) for seat in seats]
        asker.start()

        versions, received = [snapshot["v"]], 0
        started = time.monotonic()
        # What the server is asked to send the silent spectator: the views the reader gets, and a snapshot a sync.
        while received + syncs[0] * snapshot_bytes < WANTED or len(versions) <= VIEWS_SEEN:
            assert time.monotonic() - started < 120, "the table did not move fast enough to fill the buffers"
            text = await asyncio.wait_for(reader_ws.recv(), 20)
            received += len(text)
            frame = json.loads(text)
            if frame["t"] == "view":
                versions.append(frame["v"])
        stop_syncs.set()
        stop_play.set()
        await asyncio.to_thread(asker.join, 5)
        for task in playing:
            task.cancel()
        await asyncio.gather(*playing, return_exceptions=True)
        silent_bytes, silent_frames = await asyncio.to_thread(silent_ws.read_until_closed, 60)
        silent_ws.close()
        await asyncio.wait_for(await reader_ws.ping(), 10)  # the reader's socket is still open
        for ws in [*seats, reader_ws]:
            await ws.close()
        return {
            "versions": versions,
            "silent_bytes": silent_bytes,
            "silent_close": close_code(silent_frames),
        }

    with daphne_servers(1, env) as [port]:
        outcome = asyncio.run(scenario(port))
    wait_for_other_database_sessions(connection)
    assert outcome["silent_close"] == CLOSE_SLOW_READER, outcome["silent_close"]
    assert outcome["silent_bytes"] < MEGABYTE, (
        f"{outcome['silent_bytes']} bytes waited for the silent spectator"
    )
    versions = outcome["versions"]
    assert versions == list(range(versions[0], versions[0] + len(versions))), "the reader missed a view"
    assert Match.objects.get(pk=match.pk).version >= versions[-1] >= versions[0] + VIEWS_SEEN
