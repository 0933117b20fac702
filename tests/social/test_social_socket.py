"""The lobby socket of a logged-in player carries their social frames: a friend's first socket and their last one
push ``friend_presence`` to the friends who are online (once per change: a second tab says nothing), an invitation
reaches every page of the invited player, and a visitor's lobby socket stays the lobby's (no row, no frame). A bad
frame on the socket gets a coded error and the socket stays open."""

import asyncio

import pytest
from channels.db import database_sync_to_async

from lobby import services as lobby
from social import friends, invitations
from social.models import SiteSocket
from tests.turnengine.wsclient import connect, receive, receive_until

pytestmark = [pytest.mark.django_db(transaction=True), pytest.mark.asyncio]


async def _until(condition, bound: float = 5.0) -> bool:
    """Whether ``condition`` (read from the database) holds within ``bound`` seconds."""
    loop = asyncio.get_running_loop()
    deadline = loop.time() + bound
    while not await database_sync_to_async(condition)():
        if loop.time() > deadline:
            return False
        await asyncio.sleep(0.05)
    return True


@database_sync_to_async
def befriend(make_user):
    ana, bruno = make_user("ana"), make_user("bruno")
    friends.friend_request(user=ana, other=bruno)
    friends.friend_accept(user=bruno, other=ana)
    return ana, bruno


async def test_friends_hear_who_comes_and_goes_once_per_change(make_user):
    ana, bruno = await befriend(make_user)
    ana_socket, connected = await connect("/ws/lobby/", user=ana)
    assert connected
    bruno_first, _ = await connect("/ws/lobby/", user=bruno)
    frame = await receive_until(ana_socket, "friend_presence")
    assert frame["d"] == {"user": "bruno", "online": True}
    bruno_second, _ = await connect("/ws/lobby/", user=bruno)  # a second tab
    # Its row is written by the process's writer thread, after the handshake: wait for it (bounded).
    assert await _until(lambda: SiteSocket.objects.filter(user=bruno).count() == 2)
    await bruno_first.disconnect()
    assert await ana_socket.receive_nothing(timeout=0.5)  # still online: nothing to say
    await bruno_second.disconnect()
    frame = await receive_until(ana_socket, "friend_presence")
    assert frame["d"] == {"user": "bruno", "online": False}
    assert not await database_sync_to_async(SiteSocket.objects.filter(user=bruno).exists)()
    await ana_socket.disconnect()


async def test_an_invitation_reaches_the_invited_players_page(make_user):
    ana, bruno = await database_sync_to_async(lambda: (make_user("ana"), make_user("bruno")))()
    bruno_socket, _ = await connect("/ws/lobby/", user=bruno)

    @database_sync_to_async
    def invite():
        table = lobby.table_create(user=ana, game="perudo", num_players=2, options={}, ranked=False)
        return table, invitations.invite(user=ana, match_id=table.pk, other=bruno)

    table, invitation = await invite()
    frame = await receive_until(bruno_socket, "invitation")
    assert frame["d"] == {
        "id": invitation.pk, "from": "ana", "game": "perudo", "table": table.pk, "url": f"/table/{table.pk}/"
    }
    await bruno_socket.send_to(text_data="not json")
    assert (await receive(bruno_socket))["t"] == "error"
    await bruno_socket.send_to(text_data='{"t": "act", "d": {}}')
    assert (await receive(bruno_socket))["t"] == "error"
    await bruno_socket.disconnect()


async def test_a_visitors_lobby_socket_is_the_lobbys(make_user):
    socket, connected = await connect("/ws/lobby/")
    assert connected
    assert not await database_sync_to_async(SiteSocket.objects.exists)()
    await socket.disconnect()
