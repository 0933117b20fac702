"""The computer players and guests are marked as such wherever a name is shown (issue 30, item 5): the lobby's
lists, a table's seats while it waits, and the players of a running table (the snapshot's ``bot`` and ``guest``,
which the table's page shows as a badge)."""

import orjson
import pytest
from django.test import Client
from django.urls import reverse

from lobby import services as lobby
from tests.lobby.test_lobby_pages import form_defaults
from turnengine.models import Match
from turnengine.seat_frames import match_snapshot

pytestmark = pytest.mark.django_db


def _badges(html: str) -> list[str]:
    return [part.split("</span>", 1)[0] for part in html.split('<span class="player-kind">')[1:]]


def test_the_lobby_and_a_waiting_table_mark_computer_players_and_guests(make_user):
    guest = Client()
    guest.post(reverse("lobby:create", args=["perudo"]), form_defaults("perudo", 3))
    match = Match.objects.get()
    lobby.table_add_bot(user=match.created_by, match_id=match.pk, level="easy")
    page = Client().get(reverse("lobby:game", args=["perudo"]), HTTP_ACCEPT_LANGUAGE="fr").content.decode()
    assert _badges(page) == ["invité", "ordinateur"]
    waiting = guest.get(reverse("lobby:table", args=[match.pk]), HTTP_ACCEPT_LANGUAGE="it").content.decode()
    assert _badges(waiting) == ["ospite", "computer"]
    home = Client().get(reverse("lobby:home")).content.decode()
    assert _badges(home) == ["guest", "computer"]


def test_a_running_tables_players_say_who_is_a_computer_player_or_a_guest(make_user):
    player = make_user()
    match = lobby.table_create(user=player, game="perudo", num_players=2, options={}, ranked=False)
    lobby.table_add_bot(user=player, match_id=match.pk, level="easy")
    lobby.table_start(user=player, match_id=match.pk)
    players = orjson.loads(match_snapshot(match=Match.objects.get(), seat=0))["d"]["players"]
    assert [(seat["bot"], seat["guest"]) for seat in players] == [(False, False), (True, False)]
