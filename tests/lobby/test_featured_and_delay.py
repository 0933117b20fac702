"""The home page's featured table per game (a visitor can watch it) and the creation form's spectator delay."""

from __future__ import annotations

import pytest
from django.core.cache import cache
from django.urls import reverse

from lobby import featured
from lobby import services as lobby
from lobby.errors import LobbyError
from tests.lobby.test_lobby_pages import form_defaults
from turnengine.models import Match

pytestmark = pytest.mark.django_db


@pytest.fixture(autouse=True)
def _fresh_choice():
    cache.delete(featured.CACHE_KEY)
    yield
    cache.delete(featured.CACHE_KEY)


def test_the_featured_table_is_the_most_watched_then_the_latest_move(start_table):
    quiet, _ = start_table("perudo", 2)
    watched, _ = start_table("perudo", 2)
    start_table("chinesecheckers", 2)
    Match.objects.filter(pk=watched.pk).update(spectator_connections=3)
    chosen = featured.featured_table_ids()
    assert chosen["perudo"] == watched.pk and "chinesecheckers" in chosen and "spicy" not in chosen
    Match.objects.filter(pk=quiet.pk).update(spectator_connections=5)
    assert featured.featured_table_ids()["perudo"] == watched.pk  # cached for a few seconds
    cache.delete(featured.CACHE_KEY)
    assert featured.featured_table_ids()["perudo"] == quiet.pk


def test_a_visitor_sees_the_featured_tables_on_the_home_page_and_can_open_them(client, start_table):
    match, _ = start_table("perudo", 2)
    page = client.get(reverse("lobby:home")).content.decode()
    assert f'data-featured="{match.pk}"' in page and "Watch a live game" in page
    table = client.get(reverse("lobby:table", args=[match.pk])).content.decode()
    assert "You are watching." in table and f'data-ws="/ws/match/{match.pk}/"' in table
    assert "data-chat-form" not in table and "visitors may only watch" in table


def test_the_spectator_delay_is_for_ranked_tables_only(make_user):
    user = make_user()
    with pytest.raises(LobbyError) as friendly:
        lobby.table_create(user=user, game="perudo", num_players=2, options={}, ranked=False, spectator_delay=3)
    assert friendly.value.code == "invalid_spectator_delay"
    with pytest.raises(LobbyError) as too_long:
        lobby.table_create(user=user, game="perudo", num_players=2, options={}, ranked=True, spectator_delay=99)
    assert too_long.value.code == "invalid_spectator_delay"
    match = lobby.table_create(user=user, game="perudo", num_players=2, options={}, ranked=True, spectator_delay=3)
    assert match.spectator_delay == 3


def test_the_creation_form_takes_a_delay_for_a_ranked_table(client, make_user):
    client.force_login(make_user())
    url = reverse("lobby:create", args=["chinesecheckers"])
    refused = client.post(url, {**form_defaults("chinesecheckers", 2), "spectator_delay": 4})
    assert refused.status_code == 400 and not Match.objects.exists()
    assert "Only ranked tables can delay their spectators." in refused.content.decode()
    opened = client.post(url, {**form_defaults("chinesecheckers", 2), "ranked": "on", "spectator_delay": 4})
    assert opened.status_code == 302 and Match.objects.get().spectator_delay == 4
