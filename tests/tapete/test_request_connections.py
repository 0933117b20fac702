"""Under ASGI a page's request gives back its PostgreSQL connection when it ends (``tapete/asgi.py``): a burst of
requests to a real server leaves no database sessions behind it."""

import time
import urllib.request
from concurrent.futures import ThreadPoolExecutor

import pytest
from django.db import connection

from tests.servers import (
    daphne_servers,
    database_url,
    other_database_sessions,
    wait_for_other_database_sessions,
)

pytestmark = [
    pytest.mark.postgres,
    pytest.mark.skipif(connection.vendor != "postgresql", reason="needs a PostgreSQL DATABASE_URL (CI sets it)"),
]
REQUESTS, AT_ONCE = 60, 20



@pytest.mark.django_db(transaction=True)
def test_a_burst_of_page_requests_leaves_no_database_session_open_after_it():
    with daphne_servers(1, {"DATABASE_URL": database_url(connection), "REDIS_URL": ""}) as [port]:

        def fetch(_: int) -> int:
            with urllib.request.urlopen(f"http://127.0.0.1:{port}/play/perudo/", timeout=30) as response:
                response.read()
                return response.status

        assert fetch(0) == 200
        time.sleep(0.5)
        before = other_database_sessions(connection)
        with ThreadPoolExecutor(AT_ONCE) as pool:
            assert set(pool.map(fetch, range(REQUESTS))) == {200}
        deadline = time.monotonic() + 5
        while other_database_sessions(connection) > before and time.monotonic() < deadline:
            time.sleep(0.1)
        # The server's own threads (the sockets' database thread, the presence ticker) keep theirs; every request
        # thread's is gone (each request runs on a thread of its own, whose connection no later request could use).
        assert other_database_sessions(connection) <= before
    wait_for_other_database_sessions(connection)
