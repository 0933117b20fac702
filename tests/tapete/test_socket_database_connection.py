"""The sockets' database thread keeps its connection from one call to the next (``CONN_MAX_AGE`` in
``tapete/settings.py``), on the embedded default's SQLite as on PostgreSQL: with Django's default of 0, Channels'
``database_sync_to_async`` closed it after every call, and each move on SQLite opened a connection again (a third of
the server's CPU a move: bench/RESULTS.md, 2026-12-06, 19:53). A page's request still gives its own back as it ends
(``tests/tapete/test_request_connections.py``)."""

import pytest
from channels.db import database_sync_to_async
from django.db import connection

from turnengine.models import Match


@database_sync_to_async
def _the_threads_connection():
    connection.ensure_connection()
    return connection.connection


@pytest.mark.asyncio
@pytest.mark.django_db(transaction=True)
async def test_the_sockets_database_thread_keeps_its_connection_from_one_call_to_the_next():
    first = await _the_threads_connection()
    await database_sync_to_async(Match.objects.count)()
    assert await _the_threads_connection() is first
