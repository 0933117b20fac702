"""Friends' presence through a server's death, on the real stack: daphne processes, a Celery worker with its beat,
Redis and PostgreSQL (skipped without them; CI runs them).

* ``kill -9`` of the daphne that holds a player's lobby sockets: once the sweeper has given that process up, the
  player's friend, on the other daphne, is told they are offline, and no row of theirs is left; a friend who also
  had a page open on the surviving server stays online and is not announced.
* a daphne restarted on its port after ``kill -9``, with no sweeper: its new life's first lobby socket forgets the
  previous life's rows, and the friends hear it.

Real seconds pass here, by nature; the bounds are generous outcomes, not timings.
"""

from __future__ import annotations

import asyncio
import json
import os
import signal

import pytest
from django.db import connection

from social import friends
from social.models import SiteSocket
from tests.servers import (
    REAL_SERVICES,
    celery_worker,
    child_env,
    daphne_command,
    database_url,
    free_port,
    processes,
    site_socket,
    wait_for_other_database_sessions,
)
from tests.turnengine.test_presence_faults import SETTLE_BOUND, _env, _in_thread, _until
from tests.turnengine.wsclient import make_session_key

pytestmark = [*REAL_SERVICES, pytest.mark.django_db(transaction=True)]


def lobby_socket(port: int, session_key: str):
    return site_socket(port, "/ws/lobby/", session_key)


def _friends(make_user, *names):
    users = [make_user(name) for name in names]
    for other in users[1:]:
        friends.friend_request(user=users[0], other=other)
        friends.friend_accept(user=other, other=users[0])
    return users


async def _presence(socket, timeout: float = SETTLE_BOUND) -> dict:
    """The next ``friend_presence`` frame, within ``timeout`` seconds as a whole."""

    async def next_one():
        while True:
            frame = json.loads(await socket.recv())
            if frame["t"] == "friend_presence":
                return frame["d"]

    return await asyncio.wait_for(next_one(), timeout)


def _rows(username: str) -> int:
    return SiteSocket.objects.filter(user__username=username).count()


def test_a_killed_daphnes_players_go_offline_for_their_friends_once_swept(make_user):
    ana, bruno, carla = _friends(make_user, "ana", "bruno", "carla")
    keys = {user.username: make_session_key(user) for user in (ana, bruno, carla)}
    env = child_env(_env(database_url(connection)))
    ports = {"daphne:doomed": free_port(), "daphne:survivor": free_port()}
    commands = {name: (daphne_command(port), env) for name, port in ports.items()}
    doomed, survivor = ports["daphne:doomed"], ports["daphne:survivor"]

    async def scenario(started):
        async with lobby_socket(survivor, keys["ana"]) as watching:
            await _until(lambda: _rows("ana") == 1, "ana's row")
            doomed_sockets = [await lobby_socket(doomed, keys["bruno"]), await lobby_socket(doomed, keys["carla"])]
            carla_elsewhere = await lobby_socket(survivor, keys["carla"])
            heard = {(await _presence(watching))["user"] for _ in range(2)}
            assert heard == {"bruno", "carla"}
            await _until(lambda: _rows("bruno") == 1 and _rows("carla") == 2, "every row written")

            os.killpg(started["daphne:doomed"].pid, signal.SIGKILL)
            assert await _presence(watching) == {"user": "bruno", "online": False}
            await _until(lambda: _rows("bruno") == 0 and _rows("carla") == 1, "the dead life's rows gone")
            with pytest.raises(TimeoutError):  # carla is still on the survivor: nothing to say about her
                await _presence(watching, timeout=3)
            await carla_elsewhere.close()
            assert await _presence(watching) == {"user": "carla", "online": False}
            for socket in doomed_sockets:
                socket.transport.abort()

    with celery_worker(env), processes(commands, ports) as started:
        asyncio.run(scenario(started))
    wait_for_other_database_sessions(connection)


def test_a_daphne_restarted_after_kill_9_forgets_its_previous_lifes_rows_without_the_sweeper(make_user):
    ana, bruno = _friends(make_user, "ana", "bruno")
    keys = {user.username: make_session_key(user) for user in (ana, bruno)}
    env = child_env(_env(database_url(connection)))  # no Celery worker: no sweeper
    port, other = free_port(), free_port()
    loop = asyncio.new_event_loop()
    try:
        with processes({"daphne:other": (daphne_command(other), env)}, {"daphne:other": other}):
            watching = loop.run_until_complete(lobby_socket(other, keys["ana"]))
            with processes({"daphne:first": (daphne_command(port), env)}, {"daphne:first": port}) as started:
                bruno_socket = loop.run_until_complete(lobby_socket(port, keys["bruno"]))
                assert loop.run_until_complete(_presence(watching)) == {"user": "bruno", "online": True}
                os.killpg(started["daphne:first"].pid, signal.SIGKILL)
                started["daphne:first"].wait()
            bruno_socket.transport.abort()
            assert loop.run_until_complete(_in_thread(_rows, "bruno")) == 1  # nobody swept it
            with processes({"daphne:again": (daphne_command(port), env)}, {"daphne:again": port}):
                # Back a moment later on the same port: its first lobby socket starts the life's ticker.
                again = loop.run_until_complete(lobby_socket(port, keys["ana"]))
                assert loop.run_until_complete(_presence(watching)) == {"user": "bruno", "online": False}
                assert loop.run_until_complete(_in_thread(_rows, "bruno")) == 0
                loop.run_until_complete(again.close())
            loop.run_until_complete(watching.close())
    finally:
        loop.close()
    wait_for_other_database_sessions(connection)
