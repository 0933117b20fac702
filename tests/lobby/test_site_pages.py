"""The site's pages around the tables: the home page's way in, How to play, leaderboard tabs, profile results,
the favicon."""

import pytest
from django.contrib.staticfiles import finders
from django.urls import reverse
from tapete_sdk import registry

from lobby import services as lobby
from ratings.pools import pool_label, pools_of
from tests.conftest import GAME_KEYS, play_to_the_end
from turnengine.models import Match

pytestmark = pytest.mark.django_db


def test_the_home_page_leads_with_play_now_and_lists_open_tables_of_every_game(client, make_user):
    waiting = lobby.table_create(user=make_user("ana"), game="spicy", num_players=3, options={}, ranked=False)
    page = client.get(reverse("lobby:home")).content.decode()
    for key in GAME_KEYS:
        assert reverse("lobby:play_now", args=[key]) in page
        assert reverse("lobby:howto", args=[key]) in page
    assert page.index("Play now") < page.index("Find opponents")
    full = lobby.table_create(user=make_user(), game="perudo", num_players=2, options={}, ranked=False)
    lobby.table_join(user=make_user(), match_id=full.pk)
    fragment = client.get(reverse("lobby:open_tables")).content.decode()
    assert reverse("lobby:join", args=[waiting.pk]) in fragment and "ana" in fragment
    assert reverse("lobby:table", args=[full.pk]) not in fragment  # nothing to join there


@pytest.mark.parametrize("game", GAME_KEYS)
@pytest.mark.parametrize("language", ["en", "fr", "it"])
def test_how_to_play_explains_every_option_with_pictures_and_keys(client, game, language):
    from django.utils import translation

    response = client.get(reverse("lobby:howto", args=[game]), HTTP_ACCEPT_LANGUAGE=language)
    assert response.status_code == 200
    page = response.content.decode()
    with translation.override(language):
        for option in registry.get(game).options:
            assert translation.gettext(option.help).replace("'", "&#x27;") in page
    assert "<svg" in page and "<kbd>" in page
    assert "<img" not in page and "http://" not in page.split("<main", 1)[1]


def test_how_to_play_is_linked_from_the_form_and_the_table(client, start_table):
    assert (
        reverse("lobby:howto", args=["perudo"]).encode()
        in client.get(reverse("lobby:game", args=["perudo"])).content
    )
    match, _users = start_table("perudo")
    assert (
        reverse("lobby:howto", args=["perudo"]).encode()
        in client.get(reverse("lobby:table", args=[match.pk])).content
    )


@pytest.mark.parametrize("game", GAME_KEYS)
def test_the_leaderboard_has_a_tab_for_every_pool(client, game):
    page = client.get(reverse("ratings:leaderboard", args=[game])).content.decode()
    pools = pools_of(game=game)
    for pool in pools if len(pools) > 1 else []:
        assert reverse("ratings:leaderboard_pool", args=[game, pool]) in page
        assert pool_label(game=game, pool=pool) in page
    assert client.get(reverse("ratings:leaderboard_pool", args=[game, "nope"])).status_code == 404


def test_the_profile_lists_each_game_with_place_and_result(client, start_table):
    match, users = start_table("chinesecheckers", options={"maxTurns": 10, "firstPlayer": "seat0"})
    play_to_the_end(match, users)
    match = Match.objects.get(pk=match.pk)
    first = match.result["ranking"][0]
    winner = users[first[0]]
    loser = next(user for seat, user in enumerate(users) if seat not in first)
    assert "Won" in client.get(reverse("profile", args=[winner.username])).content.decode()
    assert "Place 2 of 2" in client.get(reverse("profile", args=[loser.username])).content.decode()


def test_the_favicon_is_an_svg_with_an_ico_fallback(client):
    page = client.get(reverse("lobby:home")).content.decode()
    assert 'rel="icon"' in page and "favicon.svg" in page and "favicon.ico" in page
    response = client.get("/favicon.ico")
    assert response.status_code == 301 and response.url.endswith("favicon.ico")
    assert open(finders.find("favicon.ico"), "rb").read(4) == b"\x00\x00\x01\x00"
    assert open(finders.find("favicon.svg")).read().startswith("<svg")


def test_the_open_tables_fragment_never_sets_a_cookie_and_its_join_buttons_use_the_home_pages_token(make_user):
    """The home page fetches the fragment again whenever a table changes; a fetch sent before a "Play now" log-in
    (which rotates the CSRF cookie) and answered after it must not put the old token back (issue 35)."""
    from django.test import Client

    lobby.table_create(user=make_user("ana"), game="spicy", num_players=3, options={}, ranked=False)
    visitor = Client(enforce_csrf_checks=True)
    home = visitor.get(reverse("lobby:home"))
    assert "csrftoken" in home.cookies  # the home page's join form carries the token
    for who in (visitor, Client(enforce_csrf_checks=True)):  # with the cookie, and a first visit without one
        fragment = who.get(reverse("lobby:open_tables"))
        assert fragment.status_code == 200
        assert not fragment.cookies, fragment.cookies
        assert "csrfmiddlewaretoken" not in fragment.content.decode()
        assert 'form="join-table"' in fragment.content.decode()
    assert 'id="join-table"' in home.content.decode()


@pytest.mark.parametrize("language", ["en", "fr", "it"])
def test_how_to_play_draws_the_paco_as_the_table_does(client, language):
    """The table draws the Paco as a toucan (perudo/board.js); How to play showed a star (issue 35)."""
    from pathlib import Path

    page = client.get(reverse("lobby:howto", args=["perudo"]), HTTP_ACCEPT_LANGUAGE=language).content.decode()
    paco = page[page.index('data-face="1"') :]
    paco = paco[: paco.index("</svg>")]
    board = (Path(__file__).resolve().parents[2] / "games/perudo/static/perudo/board.js").read_text()
    beak = "M53 29 C66 21 84 25 90 40 C80 38 66 41 54 45 Z"
    assert beak in board and beak in paco and "<polygon" not in paco
    assert {"en": "toucan", "fr": "toucan", "it": "tucano"}[language] in page
