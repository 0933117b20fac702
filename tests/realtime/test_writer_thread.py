"""A socket's writers run on the process's writers' thread (``realtime.broadcast.run_writer``) on PostgreSQL, which
looks after the thread's one database connection as Channels' ``database_sync_to_async`` would: a connection an
error left unusable is replaced before the next writer, so one dropped connection costs one move, not every move
after it."""

from __future__ import annotations

import threading

import pytest
from django.db import OperationalError, connection

from realtime.broadcast import run_writer
from turnengine import outbox

pytestmark = [
    pytest.mark.postgres,
    pytest.mark.skipif(
        connection.vendor != "postgresql", reason="needs a PostgreSQL DATABASE_URL (CI sets it)"
    ),
    pytest.mark.django_db(transaction=True),
]


def _backend() -> tuple[int, str, bool]:
    """The writer's database backend, the thread it runs on, and whether its updates are being collected."""
    with connection.cursor() as cursor:
        cursor.execute("SELECT pg_backend_pid()")
        (pid,) = cursor.fetchone()
    return pid, threading.current_thread().name, outbox._collecting.get() is not None


def _dropped_by_the_database() -> None:
    with connection.cursor() as cursor:
        cursor.execute("SELECT pg_terminate_backend(pg_backend_pid())")


@pytest.mark.asyncio
async def test_a_writer_after_the_database_dropped_the_threads_connection_runs_on_a_new_one():
    seen: list[tuple[int, str, bool]] = []
    await run_writer(lambda: seen.append(_backend()))
    await run_writer(lambda: seen.append(_backend()))
    first, again = seen
    assert first == again  # one thread, one connection kept from writer to writer
    assert first[1].startswith("tapete-writer") and first[2]  # the writers' thread, collecting

    with pytest.raises(OperationalError):
        await run_writer(_dropped_by_the_database)
    await run_writer(lambda: seen.append(_backend()))
    after = seen[-1]
    assert after[0] != first[0] and after[1:] == first[1:]  # a new connection, on the same thread
