"""Every table is counted (issue 30, item 4): the limits on new tables per account and per client address are
taken by the lobby's services, so the form, the Bot API, "Play now" and a rematch all meet them, and a fresh guest
from the same address shares that address's count. Pages answer 429 with a sentence in the player's language, the
Bot API ``429 too_many_tables``; nothing is opened."""

import pytest
from django.test import Client
from django.urls import reverse

from botapi.tokens import token_create
from lobby import services as lobby
from tests.lobby.test_lobby_pages import form_defaults
from turnengine.models import Match

pytestmark = pytest.mark.django_db


def _api_create(user, **extra):
    _token, raw = token_create(user=user, name="test", scopes=["play", "read"])
    body = {"game": "perudo", "num_players": 2}
    return Client().post(
        "/api/tables", body, content_type="application/json", headers={"Authorization": f"Bearer {raw}"}, **extra
    )


def _form_create(client, **extra):
    return client.post(reverse("lobby:create", args=["perudo"]), form_defaults("perudo", 2), **extra)


def _play_now(client, **extra):
    return client.post(reverse("lobby:play_now", args=["perudo"]), {"level": "easy"}, **extra)


def test_an_account_opens_no_more_tables_than_its_limit_by_the_form_the_api_or_play_now(settings, make_user):
    settings.TAPETE_TABLES_PER_USER = "3/m"
    player = make_user()
    browser = Client()
    browser.force_login(player)
    assert _form_create(browser).status_code == 302
    assert _play_now(browser).status_code == 302
    assert _api_create(player, REMOTE_ADDR="198.51.100.1").status_code == 200
    refused = _api_create(player, REMOTE_ADDR="198.51.100.2")
    assert refused.status_code == 429
    body = refused.json()
    assert body["code"] == "too_many_tables" and 1 <= body["detail"]["retry_after"] <= 60
    by_form = _form_create(browser, HTTP_ACCEPT_LANGUAGE="fr")
    assert by_form.status_code == 429
    assert "Vous avez ouvert beaucoup de tables en peu de temps" in by_form.content.decode()
    assert _play_now(browser).status_code == 429
    assert Match.objects.filter(created_by=player).count() == 3


def test_a_fresh_guest_from_the_same_address_gets_no_fresh_quota(settings, make_user):
    settings.TAPETE_TABLES_PER_USER = "2/m"
    settings.TAPETE_TABLES_PER_ADDRESS = "3/m"
    first, second = Client(), Client()
    assert [_play_now(first).status_code for _ in range(3)] == [302, 302, 429]
    assert _play_now(second).status_code == 302  # a new guest: the address's third table
    refused = _play_now(Client(), HTTP_ACCEPT_LANGUAGE="it")
    assert refused.status_code == 429
    assert "Molti tavoli sono stati aperti dalla tua rete" in refused.content.decode()
    assert _api_create(make_user()).status_code == 429  # the same address through the Bot API
    assert Match.objects.count() == 3
    assert _api_create(make_user(), REMOTE_ADDR="198.51.100.3").status_code == 200


def test_a_rematch_is_a_new_table_and_counts(settings, make_user):
    settings.TAPETE_TABLES_PER_USER = "1/m"
    player = make_user()
    match = lobby.table_create(user=player, game="perudo", num_players=2, options={}, ranked=False)
    lobby.table_add_bot(user=player, match_id=match.pk, level="easy")
    lobby.table_start(user=player, match_id=match.pk)
    Match.objects.filter(pk=match.pk).update(status=Match.Status.FINISHED)
    browser = Client()
    browser.force_login(player)
    refused = browser.post(reverse("lobby:rematch", args=[match.pk]))
    assert refused.status_code == 429
    assert "You have opened many tables in a short time" in refused.content.decode()
    assert not Match.objects.filter(rematch_of=match).exists()
