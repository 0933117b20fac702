"""A table that allows no spectators (the creation form's "Allow spectators", off): while it is played, nobody but
its players and the moderators sees it. Anyone else opening the table page gets a 403 page saying so in their
language, its replay is refused, its match socket is closed with 4405 (error ``no_spectators``), and it is in no
"watch" list: not the featured tables, not the lobby's tables being played, not a link on a profile or a friend's row. Before it
starts its waiting page is open (one joins from it), once it is over it is public as every table is; tournament
tables and every table opened without the option allow spectators."""

from __future__ import annotations

import asyncio
import json

import pytest
from channels.db import database_sync_to_async
from django.contrib.auth.models import Group
from django.core.cache import cache
from django.test import Client
from django.urls import reverse

from lobby import featured, rematch, selectors
from lobby import services as lobby
from moderation.groups import MODERATORS, ensure_moderators_group
from social import friends
from tests.lobby.test_lobby_pages import form_defaults
from tests.turnengine.wsclient import closed_with, connect, receive, receive_until
from turnengine.models import Match

pytestmark = pytest.mark.django_db

REFUSALS = {
    "en": "This table does not allow spectators.",
    "fr": "Cette table est fermée aux spectateurs.",
    "it": "Questo tavolo è chiuso agli spettatori.",
}


@pytest.fixture
def closed_table(make_user):
    """A two-player Perudo table being played that allows no spectators."""

    def start(**extra):
        users = [make_user(), make_user()]
        match = lobby.table_create(
            user=users[0], game="perudo", num_players=2, options={}, ranked=False, spectators_allowed=False, **extra
        )
        lobby.table_join(user=users[1], match_id=match.pk)
        lobby.table_start(user=users[0], match_id=match.pk)
        match.refresh_from_db()
        return match, users

    return start


def _moderator(make_user):
    ensure_moderators_group()
    moderator = make_user()
    moderator.groups.add(Group.objects.get(name=MODERATORS))
    return moderator


def test_the_form_offers_the_option_on_by_default_and_stores_it(client, make_user):
    client.force_login(make_user())
    page = client.get(reverse("lobby:game", args=["perudo"])).content.decode()
    assert 'name="spectators_allowed"' in page and "Allow spectators" in page
    assert 'id="id_spectators_allowed" checked>' in page
    client.post(reverse("lobby:create", args=["perudo"]), form_defaults("perudo", 2))
    assert Match.objects.latest("pk").spectators_allowed is True
    unticked = {key: value for key, value in form_defaults("perudo", 2).items() if key != "spectators_allowed"}
    client.post(reverse("lobby:create", args=["perudo"]), unticked)
    closed = Match.objects.latest("pk")
    assert closed.spectators_allowed is False
    waiting = client.get(reverse("lobby:table", args=[closed.pk])).content.decode()
    assert "data-no-spectators-note" in waiting


@pytest.mark.parametrize("language", ["en", "fr", "it"])
def test_someone_not_seated_gets_a_403_page_saying_why_in_their_language(closed_table, make_user, language):
    match, users = closed_table()
    for who in (None, make_user()):  # a visitor, then a logged-in stranger
        browser = Client()
        browser.cookies["django_language"] = language
        if who is not None:
            browser.force_login(who)
        response = browser.get(reverse("lobby:table", args=[match.pk]))
        page = response.content.decode()
        assert response.status_code == 403
        assert "data-no-spectators" in page and REFUSALS[language] in page
        assert "data-board" not in page and "/ws/match/" not in page  # no board, no socket
        assert reverse("lobby:game", args=["perudo"]) in page  # somewhere to go
        assert browser.get(reverse("turnengine:replay", args=[match.pk])).status_code == 403
        assert browser.get(reverse("turnengine:replay_data", args=[match.pk]), {"seat": ""}).status_code == 403


def test_players_and_moderators_see_the_table_and_everyone_once_it_is_over(client, closed_table, make_user):
    match, users = closed_table()
    for who in (users[0], users[1], _moderator(make_user)):
        client.force_login(who)
        page = client.get(reverse("lobby:table", args=[match.pk])).content.decode()
        assert f'data-ws="/ws/match/{match.pk}/"' in page and "data-no-spectators" not in page
    Match.objects.filter(pk=match.pk).update(status=Match.Status.FINISHED)
    visitor = Client().get(reverse("lobby:table", args=[match.pk]))
    assert visitor.status_code == 200 and "data-no-spectators" not in visitor.content.decode()


def test_watch_lists_leave_it_out(closed_table, start_table, make_user):
    cache.delete(featured.CACHE_KEY)
    closed, users = closed_table()
    Match.objects.filter(pk=closed.pk).update(spectator_connections=9)  # the most watched, were it open
    assert "perudo" not in featured.featured_table_ids()
    assert list(selectors.running_tables(game="perudo")) == []
    open_match, _ = start_table("perudo", 2)
    cache.delete(featured.CACHE_KEY)
    assert featured.featured_table_ids()["perudo"] == open_match.pk
    assert [match.pk for match in selectors.running_tables(game="perudo")] == [open_match.pk]
    lobby_page = Client().get(reverse("lobby:game", args=["perudo"])).content.decode()
    assert reverse("lobby:table", args=[open_match.pk]) in lobby_page
    assert reverse("lobby:table", args=[closed.pk]) not in lobby_page
    # On a player's profile, for anyone else: named, not linked; for the player, linked.
    profile = Client().get(reverse("profile", args=[users[0].username])).content.decode()
    assert "data-closed-table" in profile and reverse("lobby:table", args=[closed.pk]) not in profile
    own = Client()
    own.force_login(users[0])
    assert reverse("lobby:table", args=[closed.pk]) in own.get(reverse("profile", args=[users[0].username])).content.decode()
    # A friend sitting there: named, not linked.
    friend = make_user()
    friends.friend_request(user=friend, other=users[0])
    friends.friend_accept(user=users[0], other=friend)
    browser = Client()
    browser.force_login(friend)
    page = browser.get(reverse("social:friends")).content.decode()
    assert "data-closed-table" in page and reverse("lobby:table", args=[closed.pk]) not in page
    cache.delete(featured.CACHE_KEY)


def test_tournament_tables_and_rematches(make_user, closed_table):
    users = [make_user(), make_user()]
    paired = lobby.table_start_for(
        created_by=users[0], users=users, game="perudo", options={}, ranked=False, time_control="normal"
    )
    assert paired.spectators_allowed is True  # a tournament's table: its page links to watch it
    match, players = closed_table()
    Match.objects.filter(pk=match.pk).update(status=Match.Status.FINISHED)
    again, _update = rematch.table_rematch(user=players[0], match_id=match.pk)
    assert again.spectators_allowed is False  # a rematch keeps the table's choice


@pytest.mark.django_db(transaction=True)
@pytest.mark.asyncio
async def test_the_match_socket_refuses_everyone_not_seated_with_4405(closed_table, make_user):
    match, users = await database_sync_to_async(closed_table)()
    stranger = await database_sync_to_async(make_user)()
    moderator = await database_sync_to_async(_moderator)(make_user)
    for who, language, words in ((None, "fr", "spectateurs"), (stranger, "it", "spettatori")):
        socket, connected = await connect(f"/ws/match/{match.pk}/", user=who, accept_language=language)
        assert connected  # accepted, then closed, so the page can read why
        error = await receive(socket)
        assert error["t"] == "error" and error["d"]["code"] == "no_spectators" and words in error["d"]["message"]
        closed = await closed_with(socket)
        assert closed["code"] == 4405 and closed["reason"]
    refreshed = await database_sync_to_async(Match.objects.get)(pk=match.pk)
    assert refreshed.spectator_connections == 0  # never counted
    # The players play on: a move reaches the other seat; a moderator watches it.
    sockets = []
    for user in users:
        socket, connected = await connect(f"/ws/match/{match.pk}/", user=user)
        assert connected
        sockets.append(socket)
    watching, connected = await connect(f"/ws/match/{match.pk}/", user=moderator)
    assert connected
    views = [await receive_until(socket, "view") for socket in sockets]
    first = (await receive_until(watching, "view"))["d"]
    assert first["seat"] is None
    mover = next(index for index, view in enumerate(views) if view["d"]["legal"])
    await sockets[mover].send_to(
        text_data=json.dumps({"t": "act", "v": views[mover]["v"], "d": views[mover]["d"]["legal"][0]})
    )
    other = await receive_until(sockets[1 - mover], "view")
    assert other["v"] == views[mover]["v"] + 1
    seen = await receive_until(watching, "view")
    assert seen["v"] == other["v"] and seen["d"]["seat"] is None
    for socket in [*sockets, watching]:
        await socket.disconnect()
    await asyncio.sleep(0)


@pytest.mark.django_db(transaction=True)
@pytest.mark.asyncio
async def test_a_socket_opened_on_the_waiting_page_is_closed_when_the_game_starts(make_user):
    """A stranger's waiting page holds a match socket (it reloads when someone joins or the table starts): once the
    table starts, that socket is closed before the first view reaches it; a moderator's stays and watches."""
    creator, second = await database_sync_to_async(lambda: (make_user(), make_user()))()
    stranger = await database_sync_to_async(make_user)()
    moderator = await database_sync_to_async(_moderator)(make_user)
    match = await database_sync_to_async(lobby.table_create)(
        user=creator, game="perudo", num_players=2, options={}, ranked=False, spectators_allowed=False
    )
    waiting, connected = await connect(f"/ws/match/{match.pk}/", user=stranger)
    assert connected
    assert (await receive_until(waiting, "view"))["d"]["status"] == "open"
    watching, _ = await connect(f"/ws/match/{match.pk}/", user=moderator)
    await receive_until(watching, "view")

    @database_sync_to_async
    def join_and_start():
        lobby.table_join(user=second, match_id=match.pk)
        lobby.table_start(user=creator, match_id=match.pk)

    await join_and_start()
    before_close = []
    while True:
        output = await waiting.receive_output(5)
        if output["type"] == "websocket.close":
            break
        before_close.append(json.loads(output["text"]))
    assert output["code"] == 4405
    assert before_close[-1]["t"] == "error" and before_close[-1]["d"]["code"] == "no_spectators"
    assert not [frame for frame in before_close if frame["t"] == "view"], "the first view reached a stranger"
    started = await receive_until(watching, "view")
    while started["d"].get("status") != "active":
        started = await receive_until(watching, "view")
    assert started["d"]["seat"] is None
    await watching.disconnect()
