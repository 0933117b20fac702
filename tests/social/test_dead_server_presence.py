"""Friends' presence rows go with the server process life that held them, as the match sockets' rows do: the
sweeper that gives up a dead process (``turnengine.tasks.sweep_deadlines``) and the first tick of a server's next
life forget that life's lobby-socket rows, and each player left with no row is pushed offline to their friends
(once; a player still on another server stays online, and nobody is told). A live process holding only lobby
sockets keeps ticking, so the sweeper never forgets its rows. The real ``kill -9`` is in
``test_social_presence_faults.py``."""

from __future__ import annotations

import asyncio
import json
from datetime import timedelta

import pytest
from channels.db import database_sync_to_async
from django.utils import timezone

from social import friends
from social import presence as social_presence
from social.frames import user_group
from social.models import SiteSocket
from tests.turnengine.wsclient import connect
from turnengine import presence
from turnengine.models import ServerProcess


def _befriend(a, b) -> None:
    friends.friend_request(user=a, other=b)
    friends.friend_accept(user=b, other=a)


def _pushed(sent) -> list[tuple[str, dict]]:
    """Every friend_presence frame the outbox handed over: (group, data)."""
    found = []
    for update in sent:
        for group, text in update.frames.items():
            frame = json.loads(text)
            if frame["t"] == "friend_presence":
                found.append((group, frame["d"]))
    return found


@pytest.fixture
def three_friends(make_user):
    ana, bruno, carla = make_user("ana"), make_user("bruno"), make_user("carla")
    _befriend(ana, bruno)
    _befriend(ana, carla)
    return ana, bruno, carla


@pytest.mark.django_db
def test_the_sweeper_forgets_a_dead_lifes_rows_and_tells_the_friends(
    three_friends, sent, django_capture_on_commit_callbacks
):
    ana, bruno, carla = three_friends
    with django_capture_on_commit_callbacks(execute=True):
        social_presence.socket_open(key="ana", user=ana, server="host:8001", life="a" * 32)
        social_presence.socket_open(key="bruno", user=bruno, server="host:8002", life="b" * 32)
        social_presence.socket_open(key="carla-dead", user=carla, server="host:8002", life="b" * 32)
        social_presence.socket_open(key="carla-live", user=carla, server="host:8001", life="a" * 32)
    assert ServerProcess.objects.filter(pk="b" * 32).exists()  # a lobby socket registers its life
    ServerProcess.objects.filter(pk="b" * 32).update(seen_at=timezone.now() - timedelta(minutes=5))
    sent.clear()
    with django_capture_on_commit_callbacks(execute=True):
        presence.sweep_dead_processes()
    assert set(SiteSocket.objects.values_list("key", flat=True)) == {"ana", "carla-live"}
    # Bruno, on the dead server only, is offline for ana (the one friend online); carla, still on the live
    # server, is not announced at all.
    assert _pushed(sent) == [(user_group(ana.pk), {"user": "bruno", "online": False})]
    sent.clear()
    with django_capture_on_commit_callbacks(execute=True):
        presence.sweep_dead_processes()  # nothing left to forget: nothing said
    assert _pushed(sent) == []


@pytest.mark.django_db
def test_a_servers_next_life_forgets_its_previous_lifes_rows_on_its_first_tick(
    three_friends, sent, django_capture_on_commit_callbacks
):
    ana, bruno, _carla = three_friends
    with django_capture_on_commit_callbacks(execute=True):
        social_presence.socket_open(key="ana", user=ana, server="host:8001", life="a" * 32)
        social_presence.socket_open(key="bruno", user=bruno, server="host:8002", life="b" * 32)
    sent.clear()
    now = timezone.now()
    with django_capture_on_commit_callbacks(execute=True):  # restarted after kill -9, seen a moment ago
        presence.process_tick(process_id="c" * 32, process_name="host:8002", started_at=now, live={}, first=True)
    assert list(SiteSocket.objects.values_list("key", flat=True)) == ["ana"]
    assert _pushed(sent) == [(user_group(ana.pk), {"user": "bruno", "online": False})]
    assert not ServerProcess.objects.filter(pk="b" * 32).exists()


@pytest.mark.django_db(transaction=True)
@pytest.mark.asyncio
async def test_a_process_holding_only_lobby_sockets_keeps_its_life_and_its_rows(make_user, settings):
    settings.TAPETE_PRESENCE_TICK_SECONDS = 0.2
    ana = await database_sync_to_async(make_user)("ana")
    socket, connected = await connect("/ws/lobby/", user=ana)
    assert connected

    def life_seen():
        row = SiteSocket.objects.filter(user=ana).first()
        return row and ServerProcess.objects.filter(pk=row.life).values_list("seen_at", flat=True).first()

    loop = asyncio.get_running_loop()
    deadline = loop.time() + 5
    while not await database_sync_to_async(life_seen)():
        assert loop.time() < deadline, "the lobby socket's row and its life"
        await asyncio.sleep(0.05)
    first_seen = await database_sync_to_async(life_seen)()
    while await database_sync_to_async(life_seen)() == first_seen:  # ticking with no table socket open
        assert loop.time() < deadline + 5, "the life was not kept registered"
        await asyncio.sleep(0.05)
    await asyncio.sleep(4 * settings.TAPETE_PRESENCE_TICK_SECONDS)
    await database_sync_to_async(presence.sweep_dead_processes)()  # a sweep now forgets nothing alive
    assert await database_sync_to_async(SiteSocket.objects.filter(user=ana).exists)()
    await socket.disconnect()
