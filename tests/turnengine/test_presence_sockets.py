"""Presence through the real consumer and this process's ticker (realtime.liveness), on the embedded default: each
socket is a connection row of this process, a close whose database write failed is settled by the next tick
without the socket failing, and a page opened afterwards has the connection lines in its log."""

from __future__ import annotations

import asyncio
import os
import time

import pytest
from channels.db import database_sync_to_async

from tests.conftest import FAST_OPTIONS
from tests.turnengine.wsclient import connect, drain, receive_until
from turnengine import presence
from turnengine.models import Connection, Seat, ServerProcess

pytestmark = [pytest.mark.django_db(transaction=True), pytest.mark.asyncio]


@pytest.fixture(autouse=True)
def quick_ticks(settings):
    settings.TAPETE_PRESENCE_TICK_SECONDS = 0.2


@database_sync_to_async
def _start(start_table):
    return start_table("perudo", 2, FAST_OPTIONS["perudo"])


@database_sync_to_async
def _counts(match_id):
    return dict(Seat.objects.filter(match_id=match_id).values_list("index", "connections"))


@database_sync_to_async
def _rows(match_id):
    return list(Connection.objects.filter(match_id=match_id).values_list("seat", "process__name"))


async def _until(condition, timeout: float = 10):
    started = time.monotonic()
    while not await condition():
        assert time.monotonic() - started < timeout, "not settled in time"
        await asyncio.sleep(0.05)


async def test_each_socket_is_a_row_of_this_process_and_a_failed_close_is_settled_by_the_ticker(
    start_table, monkeypatch
):
    match, users = await _start(start_table)
    first, _ = await connect(f"/ws/match/{match.pk}/", users[0])
    other, _ = await connect(f"/ws/match/{match.pk}/", users[1])
    await receive_until(first, "view")
    await receive_until(other, "view")
    await _until(lambda: _both_online(match.pk))
    rows = await _rows(match.pk)
    assert sorted(seat for seat, _name in rows) == [0, 1]
    assert all(name.endswith(f":pid{os.getpid()}") for _seat, name in rows)
    await drain(other)

    # The close's write fails, as it would with PostgreSQL away: the socket closes cleanly all the same ...
    real_close = presence.connection_close

    def failing_close(**kwargs):
        raise ConnectionError("database away")

    monkeypatch.setattr(presence, "connection_close", failing_close)
    await first.disconnect()
    monkeypatch.setattr(presence, "connection_close", real_close)
    # ... and a tick settles it (nothing else could): seat 0 offline, the other player told.
    frame = await receive_until(other, "presence")
    while frame["d"]["players"][0]["online"]:  # a presence frame of the openings, late through Redis, may come first
        frame = await receive_until(other, "presence")
    assert frame["d"]["players"][0]["offline_since"] is not None
    assert await _counts(match.pk) == {0: 0, 1: 1}

    reloaded, _ = await connect(f"/ws/match/{match.pk}/", users[1])
    snapshot = await receive_until(reloaded, "view")
    assert snapshot["d"]["players"][0]["online"] is False
    await reloaded.disconnect()
    await other.disconnect()
    await _until(lambda: _no_rows(match.pk))


async def _both_online(match_id):
    return await _counts(match_id) == {0: 1, 1: 1}


@database_sync_to_async
def _no_rows_sync(match_id):
    return not Connection.objects.filter(match_id=match_id).exists() and ServerProcess.objects.exists()


async def _no_rows(match_id):
    return await _no_rows_sync(match_id)


async def test_the_ticker_ticks_and_stops_once_its_process_holds_nothing():
    """A tick refreshes the process's row and reconciles its connections; a ticker with no socket left stops (the
    next socket starts a new one). A tick that failed would loop forever instead, ``ticked`` never set."""
    from realtime.liveness import current_life

    life = current_life({"server": ("127.0.0.1", 1)})
    life.live.clear()
    life.ensure_ticking()
    await asyncio.wait_for(life.ticker, timeout=10)
    assert life.ticked
    assert await database_sync_to_async(ServerProcess.objects.filter(pk=life.id).exists)()
