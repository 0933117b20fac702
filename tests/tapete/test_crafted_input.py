"""Crafted input that once answered HTTP 500 on PostgreSQL (issue 34): a NUL byte in a name or token of an address,
of a Bot API filter or of a token's name (psycopg's ``DataError``), an out-of-range integer in a report, a Bot API
refusal missing from the API's error table, a body over Django's upload limit. Each gets a 4xx and changes nothing,
on every backend (SQLite stores a NUL without complaint: PostgreSQL's CI pass is the one that failed before)."""

from __future__ import annotations

import pytest
from django.urls import reverse

from botapi.models import ApiToken
from botapi.tokens import token_create
from lobby import services as lobby
from moderation.models import Report
from tests.botapi.conftest import ApiClient

pytestmark = pytest.mark.django_db


@pytest.fixture(autouse=True)
def fast_password_hashing(settings):
    settings.PASSWORD_HASHERS = ["django.contrib.auth.hashers.MD5PasswordHasher"]


@pytest.mark.parametrize("address", ["/accounts/u/a%00b/", "/invite/a%00b/", "/report/a%00b/", "/accounts/u/a%01/"])
def test_a_control_character_in_a_name_or_token_of_an_address_is_not_found(client, make_user, address):
    client.force_login(make_user())
    assert client.get(address).status_code == 404
    assert client.post(address, {"reason": "spam"}).status_code == 404
    assert not Report.objects.exists()


def test_names_and_tokens_of_addresses_still_resolve(client, make_user):
    user, other = make_user(), make_user()
    table = lobby.table_create(user=other, game="perudo", num_players=2, options={}, ranked=False)
    client.force_login(user)
    assert client.get(reverse("profile", args=[other.username])).status_code == 200
    assert client.get(reverse("moderation:report", args=[other.username])).status_code == 200
    assert client.get(reverse("lobby:invite", args=[table.invite_token])).status_code == 302


@pytest.mark.parametrize(("field", "value"), [("move", 10**12), ("match", 10**20), ("chat", 10**20), ("move", -1)])
def test_a_report_with_an_out_of_range_number_is_refused(client, make_user, start_table, field, value):
    match, users = start_table("perudo")
    client.force_login(users[0])
    data = {"reason": "spam", "comment": "", "match": match.pk, "move": 1, field: value}
    response = client.post(reverse("moderation:report", args=[users[1].username]), data)
    assert response.status_code == 200 and response.context["form"].errors
    assert not Report.objects.exists()


def test_a_report_within_range_is_kept(client, start_table):
    match, users = start_table("perudo")
    client.force_login(users[0])
    data = {"reason": "spam", "comment": "", "match": match.pk, "move": 2**31 - 1}
    assert client.post(reverse("moderation:report", args=[users[1].username]), data).status_code == 302
    assert Report.objects.get().move == 2**31 - 1


def test_a_control_character_in_a_bot_api_filter_or_key_is_an_invalid_request(make_user):
    _token, raw = token_create(user=make_user(), name="bot", scopes=["play", "read"])
    api = ApiClient(raw)
    for answer in (
        api.get("/tables", game="per\x00udo"),
        api.post("/tables", {"game": "per\x00udo", "num_players": 2}),
        api.post("/tables", {"game": "perudo", "num_players": 2, "time_control": "\x00"}),
    ):
        assert answer.status_code == 422 and answer.json()["code"] == "invalid_request"
    assert api.get("/tables", game="perudo").status_code == 200


def test_a_token_name_with_a_control_character_is_refused(client, make_user):
    user = make_user()
    client.force_login(user)
    response = client.post(reverse("botapi:token_create"), {"name": "my\x00bot", "scopes": ["read"]}, follow=True)
    assert response.status_code == 200
    assert "Give the token a name" in response.content.decode()
    assert not ApiToken.objects.exists()


def test_a_guest_asking_the_bot_api_for_a_ranked_table_gets_its_code(make_user):
    guest = make_user()
    guest.is_guest = True
    guest.save()
    _token, raw = token_create(user=guest, name="bot", scopes=["play", "read"])
    answer = ApiClient(raw).post("/tables", {"game": "perudo", "num_players": 2, "ranked": True})
    assert answer.status_code == 403 and answer.json()["code"] == "guest_unranked"


def test_a_body_over_the_upload_limit_is_the_apis_coded_error(make_user, settings):
    _token, raw = token_create(user=make_user(), name="bot", scopes=["play", "read"])
    api = ApiClient(raw)
    answer = api.client.post(
        "/api/tables",
        b'{"game": "' + b"x" * (20 * 2**20) + b'"}',
        content_type="application/json",
        headers=api.headers,
    )
    assert answer.status_code == 413 and answer["Content-Type"].startswith("application/json")
    assert answer.json()["code"] == "body_too_large"


@pytest.mark.parametrize(
    ("sent", "target"), [("lobby", "/"), ("a\x00b", "/"), ("//evil.example/", "/"), ("/play/", "/play/")]
)
def test_acknowledging_a_warning_goes_back_to_a_page_of_the_site_only(client, make_user, sent, target):
    """Found by the fuzzer: a ``next`` without a slash was taken by ``redirect`` for a view's name (a 500)."""
    client.force_login(make_user())
    response = client.post(reverse("moderation:acknowledge", args=[1]), {"next": sent})
    assert response.status_code == 302 and response.url == target
