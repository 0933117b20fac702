"""Two ASGI server processes sharing the Redis channel layer and PostgreSQL: a move made through one reaches a
player connected to the other."""

import asyncio
import json
import os

import pytest
from django.conf import settings
from django.db import connection

from tests.servers import daphne_servers, database_url, match_socket, wait_for_other_database_sessions
from tests.turnengine.wsclient import make_session_key

needs_services = pytest.mark.skipif(
    not (settings.REDIS_URL and connection.vendor == "postgresql"),
    reason="needs REDIS_URL and a PostgreSQL DATABASE_URL (CI sets both)",
)
pytestmark = [
    pytest.mark.redis,
    pytest.mark.postgres,
    needs_services,
    pytest.mark.django_db(transaction=True),
]


async def _next_view(socket) -> dict:
    while True:
        frame = json.loads(await asyncio.wait_for(socket.recv(), 10))
        if frame["t"] == "view":
            return frame


def test_a_move_through_one_process_reaches_a_player_on_the_other(start_table):
    match, users = start_table("chinesecheckers", 2)
    keys = [make_session_key(user) for user in users]
    env = {
        "DATABASE_URL": database_url(connection),
        "REDIS_URL": os.environ["REDIS_URL"],
        "DJANGO_DEBUG": "false",
    }

    async def play(ports):
        mover_seat = min(match.rules.to_act(match.state))
        watcher_seat = 1 - mover_seat
        mover = await match_socket(ports[0], match.pk, keys[mover_seat])
        watcher = await match_socket(ports[1], match.pk, keys[watcher_seat])
        snapshot = await _next_view(mover)
        await _next_view(watcher)
        move = snapshot["d"]["legal"][0]
        await mover.send(json.dumps({"t": "act", "v": snapshot["v"], "d": move}))
        frame = await _next_view(watcher)
        assert frame["v"] == snapshot["v"] + 1
        assert frame["d"]["legal"], "the other player is now to move"
        await mover.close()
        await watcher.close()

    with daphne_servers(2, env) as ports:
        asyncio.run(play(ports))
    wait_for_other_database_sessions(connection)
