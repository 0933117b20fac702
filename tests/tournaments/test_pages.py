"""The tournament pages: the list linked from the home page and the header, a tournament's page with its rules in
sentences, players, standings and tables, join and withdraw with their refusals, the live part and the player's
table, results on the profile, the creation form behind its setting, and the page's socket."""

from datetime import timedelta

import pytest
from asgiref.sync import sync_to_async
from channels.testing import WebsocketCommunicator
from django.test import TestCase
from django.urls import reverse
from django.utils import timezone

from tapete.asgi import application
from tests.conftest import PASSWORD
from tests.tournaments.conftest import started
from tests.tournaments.test_life_cycle import current_tables, win
from tests.turnengine.wsclient import connect, receive, receive_until
from tournaments import life_cycle
from tournaments.models import Entry, Tournament

pytestmark = pytest.mark.django_db


def logged_in(client, user):
    assert client.login(username=user.username, password=PASSWORD)
    return client


def test_the_list_is_linked_from_the_home_page_and_the_header(client, make_tournament):
    tournament, _users = make_tournament(players=2, name="Winter open")
    home = client.get(reverse("lobby:home")).content.decode()
    assert home.count(reverse("tournaments:list")) >= 2  # the header and the home page's section
    page = client.get(reverse("tournaments:list")).content.decode()
    assert "Winter open" in page and "Upcoming" in page and "data-countdown" in page


def test_the_page_says_the_rules_in_sentences_and_lists_the_players(client, make_tournament):
    tournament, users = make_tournament(players=3, game="perudo", table_size=4, rounds=5, ranked=True,
                                        time_control="blitz")
    page = client.get(reverse("tournaments:page", args=[tournament.pk])).content.decode()
    assert "A Swiss tournament of 5 rounds of Perudo, at tables of 4." in page
    assert "Points by place at a table of 4: 6, 4, 2, 0" in page
    assert "Buchholz" in page and "People only" in page
    for user in users:
        assert user.username in page
    assert "Log in to join" in page


def test_the_rules_speak_french_and_italian(client, make_tournament):
    tournament, _users = make_tournament(players=0, kind="arena", streak_bonus=True)
    for language, words in (("fr", "Une arène de 30 minutes"), ("it", "Un'arena di 30 minuti")):
        client.cookies["django_language"] = language
        page = client.get(reverse("tournaments:page", args=[tournament.pk])).content.decode()
        assert words in page.replace("&#x27;", "'")


def test_join_and_withdraw_from_the_page(client, make_tournament, make_user):
    tournament, _users = make_tournament(players=1)
    player = make_user()
    logged_in(client, player)
    response = client.post(reverse("tournaments:join", args=[tournament.pk]))
    assert response.status_code == 302 and Entry.objects.filter(user=player).exists()
    page = client.get(reverse("tournaments:page", args=[tournament.pk])).content.decode()
    assert "You are playing in this tournament." in page
    client.post(reverse("tournaments:join", args=[tournament.pk]))
    page = client.get(reverse("tournaments:page", args=[tournament.pk])).content.decode()
    assert "You have already joined this tournament." in page  # the refusal, said on the page
    client.post(reverse("tournaments:withdraw", args=[tournament.pk]))
    assert not Entry.objects.filter(user=player).exists()


def test_bad_addresses_are_404_and_joining_needs_a_post(client, make_user):
    logged_in(client, make_user())
    assert client.get("/tournaments/999999/").status_code == 404
    assert client.get("/tournaments/999999/live/").status_code == 404
    assert client.post("/tournaments/999999/join/").status_code == 404
    assert client.get("/tournaments/abc/").status_code == 404


def test_the_live_part_shows_each_rounds_tables_and_the_players_table(client, make_tournament):
    tournament, users = make_tournament(players=4)
    tournament = started(tournament)
    first, second = current_tables(tournament)
    player = first.seats.get(index=0).user
    logged_in(client, player)
    live = client.get(reverse("tournaments:live", args=[tournament.pk])).content.decode()
    assert f'data-my-table="{reverse("lobby:table", args=[first.pk])}"' in live
    assert reverse("lobby:table", args=[second.pk]) in live and "Watch" in live
    answer = client.get(reverse("tournaments:my_table", args=[tournament.pk])).json()
    assert answer["match"] == first.pk and answer["status"] == "running"
    table_page = client.get(reverse("lobby:table", args=[first.pk])).content.decode()
    assert "data-tournament-follow" in table_page and tournament.name in table_page
    assert f'data-tournament-follow="{tournament.pk}"' in table_page and "ws/tournament" not in table_page


def test_results_on_the_profile(client, make_tournament):
    tournament, users = make_tournament(players=2, rounds=1, name="Quick cup")
    tournament = started(tournament)
    (match,) = current_tables(tournament)
    win(match, 0)
    life_cycle.tournament_advance(tournament.pk)
    winner = match.seats.get(index=0).user
    page = client.get(reverse("profile", args=[winner.username])).content.decode()
    assert "Quick cup" in page and "Place 1 of 2" in page


def test_players_create_tournaments_only_when_the_site_allows(client, make_user, settings):
    player = make_user()
    logged_in(client, player)
    assert client.get(reverse("tournaments:create")).status_code == 404
    settings.TAPETE_PLAYERS_CREATE_TOURNAMENTS = True
    form = {
        "name": "Club night", "kind": "swiss", "game": "perudo", "table_size": 4, "options": "{}",
        "time_control": "normal", "starts_at": (timezone.now() + timedelta(hours=1)).strftime("%Y-%m-%dT%H:%M"),
        "rounds": 3, "duration_minutes": 30, "max_players": 32,
    }
    response = client.post(reverse("tournaments:create"), {**form, "table_size": 7})
    assert response.status_code == 200 and not Tournament.objects.exists()  # no table of 7 at Perudo
    response = client.post(reverse("tournaments:create"), {**form, "ranked": "on", "time_control": "unlimited"})
    assert not Tournament.objects.exists()
    response = client.post(reverse("tournaments:create"), form)
    tournament = Tournament.objects.get()
    assert response.status_code == 302 and tournament.created_by == player and tournament.options["calza"] is False


@pytest.mark.django_db(transaction=True)
@pytest.mark.asyncio
async def test_the_page_socket_hears_a_player_join(make_tournament, make_user):
    tournament, _users = await sync_to_async(make_tournament)(players=1)
    socket = WebsocketCommunicator(
        application, f"/ws/tournament/{tournament.pk}/",
        headers=[(b"origin", b"http://testserver"), (b"host", b"testserver")],
    )
    connected, _ = await socket.connect(timeout=10)
    assert connected
    player = await sync_to_async(make_user)()

    def join():
        with TestCase.captureOnCommitCallbacks(execute=True):
            life_cycle.tournament_join(user=player, tournament_id=tournament.pk)

    await sync_to_async(join)()
    frame = await socket.receive_json_from(timeout=10)
    assert frame["t"] == "tournament" and frame["d"]["id"] == tournament.pk
    await socket.disconnect()


@pytest.mark.django_db(transaction=True)
@pytest.mark.asyncio
async def test_a_player_hears_their_seating_over_the_lobby_socket(make_tournament, make_user):
    """The change that seats a player reaches their lobby socket (every page of theirs holds one, a tournament
    table's page included); another change does not, and another player's lobby socket hears nothing of it."""
    tournament, users = await sync_to_async(make_tournament)(players=2, rounds=2)
    lobby, connected = await connect("/ws/lobby/", user=users[0])
    assert connected
    stranger = await sync_to_async(make_user)()
    other, connected = await connect("/ws/lobby/", user=stranger)
    assert connected
    late = await sync_to_async(make_user)()

    def join_then_start():
        with TestCase.captureOnCommitCallbacks(execute=True):
            life_cycle.tournament_join(user=late, tournament_id=tournament.pk)
        with TestCase.captureOnCommitCallbacks(execute=True):
            started(tournament)

    await sync_to_async(join_then_start)()
    frame = await receive_until(lobby, "tournament")
    assert frame["d"] == {"id": tournament.pk, "status": "running", "seated": True}
    assert not await _hears(lobby, "tournament") and not await _hears(other, "tournament")
    await lobby.disconnect()
    await other.disconnect()


async def _hears(socket, kind: str) -> bool:
    """Whether ``socket`` hears a frame of ``kind`` within a short while (other kinds are skipped)."""
    while not await socket.receive_nothing(timeout=0.5):
        if (await receive(socket))["t"] == kind:
            return True
    return False


@pytest.mark.django_db(transaction=True)
@pytest.mark.asyncio
async def test_the_socket_of_no_tournament_is_closed_4404():
    socket = WebsocketCommunicator(
        application, "/ws/tournament/999999/", headers=[(b"origin", b"http://testserver"), (b"host", b"testserver")]
    )
    await socket.connect(timeout=10)
    frame = await socket.receive_json_from(timeout=10)
    assert frame["t"] == "error"
    closed = await socket.receive_output(timeout=10)
    assert closed["type"] == "websocket.close" and closed["code"] == 4404


def test_staff_create_a_tournament_in_admin(admin_client):
    add = reverse("admin:tournaments_tournament_add")
    assert admin_client.get(add).status_code == 200
    starts = timezone.localtime(timezone.now() + timedelta(hours=2))
    response = admin_client.post(add, {
        "name": "Sunday arena", "kind": "arena", "game": "spicy", "table_size": 3, "options": "{}",
        "time_control": "blitz", "starts_at_0": starts.strftime("%Y-%m-%d"), "starts_at_1": starts.strftime("%H:%M"),
        "rounds": 3, "duration_minutes": 45, "streak_bonus": "on", "ranked": "on", "max_players": 100,
        "entries-TOTAL_FORMS": 0, "entries-INITIAL_FORMS": 0,
    })
    assert response.status_code == 302, (response.context["adminform"].form.errors, response.context["inline_admin_formsets"][0].formset.management_form.errors)
    tournament = Tournament.objects.get()
    assert tournament.kind == "arena" and tournament.ranked and tournament.created_by.is_superuser
