"""Two sites on one Redis server never hear each other.

Redis pub/sub channels are global to a server, whatever the database number, so before the instance prefix a
second deployment received every seat frame of matches with the same ids. Here three real daphne processes share one
Redis server and one database (so the match ids, seats and sessions are the same on both sides, the worst case):
two of instance ``a``, one of instance ``b`` on another Redis database number. A move and a chat line made through
``a`` reach the other ``a`` process (the control: frames do cross processes) and never the ``b`` one.
"""

import asyncio
import json
import os

import pytest
import redis
from django.conf import settings
from django.db import connection

from tests.servers import (
    child_env,
    daphne_command,
    database_url,
    free_port,
    match_socket,
    processes,
    wait_for_other_database_sessions,
)
from tests.turnengine.wsclient import make_session_key

needs_services = pytest.mark.skipif(
    not (settings.REDIS_URL and connection.vendor == "postgresql"),
    reason="needs REDIS_URL and a PostgreSQL DATABASE_URL (CI sets both)",
)
pytestmark = [pytest.mark.redis, pytest.mark.postgres, needs_services]


def _other_redis_database(url: str) -> str:
    """The same Redis server under another database number, as a second site on the machine would use it."""
    base, _, number = url.rstrip("/").rpartition("/")
    return f"{base}/{(int(number or 0) + 1) % 16}"


async def _until(socket, kind: str, timeout: float = 10) -> dict:
    while True:
        frame = json.loads(await asyncio.wait_for(socket.recv(), timeout))
        if frame["t"] == kind:
            return frame


async def _frames_for(socket, seconds: float) -> list[dict]:
    frames = []
    try:
        while True:
            frames.append(json.loads(await asyncio.wait_for(socket.recv(), seconds)))
    except TimeoutError:
        return frames


@pytest.mark.django_db(transaction=True)
def test_seat_frames_never_cross_to_another_instance_on_the_same_redis_server(start_table):
    match, users = start_table("perudo", 2)
    keys = [make_session_key(user) for user in users]
    common = {"DATABASE_URL": database_url(connection), "DJANGO_DEBUG": "false"}
    site_a = {**common, "REDIS_URL": os.environ["REDIS_URL"], "TAPETE_INSTANCE": "site-a"}
    site_b = {
        **common,
        "REDIS_URL": _other_redis_database(os.environ["REDIS_URL"]),
        "TAPETE_INSTANCE": "site-b",
    }
    mover_seat = min(match.rules.to_act(match.state))
    other_seat = 1 - mover_seat

    async def play(ports_a, port_b):
        mover = await match_socket(ports_a[0], match.pk, keys[mover_seat])
        same_site = await match_socket(ports_a[1], match.pk, keys[other_seat])
        other_site = await match_socket(port_b, match.pk, keys[other_seat])
        snapshot = await _until(mover, "view")
        await _until(same_site, "view")
        await _until(other_site, "view")
        await _frames_for(other_site, 0.3)  # its own presence frames, if any
        await mover.send(json.dumps({"t": "chat", "d": {"text": "only for site a"}}))
        await mover.send(json.dumps({"t": "act", "v": snapshot["v"], "d": snapshot["d"]["legal"][0]}))
        assert (await _until(same_site, "chat"))["d"]["text"] == "only for site a"
        assert (await _until(same_site, "view"))["v"] == snapshot["v"] + 1
        heard = await _frames_for(other_site, 1.0)
        assert [frame for frame in heard if frame["t"] in ("view", "chat")] == []
        for socket in (mover, same_site, other_site):
            await socket.close()

    ports = {"a1": free_port(), "a2": free_port(), "b": free_port()}
    envs = {"a1": child_env(site_a), "a2": child_env(site_a), "b": child_env(site_b)}
    with processes({name: (daphne_command(port), envs[name]) for name, port in ports.items()}, ports):
        asyncio.run(play([ports["a1"], ports["a2"]], ports["b"]))
    wait_for_other_database_sessions(connection)


def test_celery_queues_and_keys_carry_the_instance_prefix():
    from tapete.celery import app

    prefix = settings.TAPETE_REDIS_PREFIX
    assert prefix == f"tapete.{settings.TAPETE_INSTANCE}."
    client = redis.Redis.from_url(settings.REDIS_URL)
    queue = app.conf.task_default_queue
    assert queue.startswith(prefix)
    app.control.purge()  # messages earlier tests left for a worker that never ran
    with app.connection_for_write() as conn:
        app.send_task("turnengine.tasks.sweep_deadlines", connection=conn)
    try:
        # The broker's key is the global key prefix, then the queue's name.
        assert client.llen(prefix + queue) == 1
        assert client.llen(queue) == 0 and client.llen("celery") == 0
    finally:
        app.control.purge()
