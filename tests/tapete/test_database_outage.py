"""With PostgreSQL cut off, nothing answers HTTP 500: a page answers 503 "try again" with Retry-After
(tapete/errors.py), and a websocket handshake, whose session Channels reads from the database before any consumer
runs, is accepted and closed with 4500 (realtime.sockets.HandshakeGuard). Once the database is back, both work
again. A real server process whose database is behind a TCP proxy; needs PostgreSQL (CI's first pass)."""

from __future__ import annotations

import time
from urllib.parse import urlsplit, urlunsplit

import httpx
import pytest
from django.conf import settings
from django.db import connection

from realtime.sockets import CLOSE_SERVER_ERROR
from tests.faults import RawWebSocket, TcpProxy, close_code
from tests.servers import daphne_servers, database_url, wait_for_other_database_sessions
from tests.turnengine.wsclient import make_session_key

pytestmark = [
    pytest.mark.postgres,
    pytest.mark.skipif(
        connection.vendor != "postgresql", reason="needs a PostgreSQL DATABASE_URL (CI sets it)"
    ),
    pytest.mark.django_db(transaction=True),
]


def _handshake(port: int, session_key: str) -> int | None:
    """The close code of a lobby socket opened with ``session_key`` (None if it stayed open past its first frame)."""
    ws = RawWebSocket(
        port,
        "/ws/lobby/",
        {"Origin": f"http://127.0.0.1:{port}", "Cookie": f"{settings.SESSION_COOKIE_NAME}={session_key}"},
    )  # a refused handshake (HTTP 500 included) raises here
    try:
        _, frames = ws.read_until_closed(timeout=5)
    except TimeoutError:
        return None
    finally:
        ws.close()
    return close_code(frames)


def test_no_request_answers_500_while_the_database_is_cut_off(make_user):
    session_key = make_session_key(make_user())
    target = urlsplit(database_url(connection))
    with TcpProxy(target.hostname, target.port or 5432) as proxy:
        env = {
            "DATABASE_URL": urlunsplit(target._replace(netloc=f"{target.username}@127.0.0.1:{proxy.port}")),
            "DJANGO_DEBUG": "false",
        }
        with daphne_servers(1, env) as [port], httpx.Client(base_url=f"http://127.0.0.1:{port}") as client:
            client.cookies.set(settings.SESSION_COOKIE_NAME, session_key)
            client.cookies.set(settings.LANGUAGE_COOKIE_NAME, "fr")
            assert client.get("/").status_code == 200

            proxy.cut()
            page = client.get("/")
            assert page.status_code == 503, (page.status_code, page.text[-500:])
            assert page.headers["Retry-After"] == "5"
            assert "base de données" in page.text  # in the language the visitor speaks
            assert _handshake(port, session_key) == CLOSE_SERVER_ERROR

            proxy.restore()
            deadline = time.monotonic() + 20
            while client.get("/").status_code != 200:  # the next request opens a new connection
                assert time.monotonic() < deadline, "the site did not come back with its database"
                time.sleep(0.2)
    wait_for_other_database_sessions(connection)
