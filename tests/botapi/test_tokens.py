"""Personal API tokens: created on the profile page (shown once, stored hashed), listed, revoked; scopes; a
sanction stops them at once; the per-token rate limit."""

from __future__ import annotations

import hashlib
import re
from datetime import timedelta

import pytest
from django.core.cache import cache

from botapi.models import ApiToken
from botapi.tokens import token_create
from moderation.services import moderation_ban, moderation_lift, moderation_suspend
from tests.botapi.conftest import ApiClient

pytestmark = pytest.mark.django_db


def test_token_is_shown_once_and_stored_only_as_its_hash(client, make_user):
    user = make_user()
    client.force_login(user)
    page = client.post("/accounts/tokens/new/", {"name": "perudo bot", "scopes": ["play", "read"]})
    assert page.status_code == 200
    raw = re.search(r'value="(tpt_[^"]+)"', page.content.decode()).group(1)
    token = ApiToken.objects.get(user=user)
    assert token.digest == hashlib.sha256(raw.encode()).hexdigest()
    assert raw not in {token.name, token.hint, token.digest} and token.hint == raw[:8]
    profile = client.get(f"/accounts/u/{user.username}/").content.decode()
    assert "perudo bot" in profile and token.hint in profile and raw not in profile
    assert ApiClient(raw).get("/account").json()["username"] == user.username


def test_profile_of_someone_else_shows_no_token_section(client, make_user):
    owner, visitor = make_user(), make_user()
    token_create(user=owner, name="secret-bot", scopes=["read"])
    client.force_login(visitor)
    page = client.get(f"/accounts/u/{owner.username}/").content.decode()
    assert "secret-bot" not in page and "Create a token" not in page


def test_revoked_token_stops_working(client, make_user, api_for):
    user = make_user()
    token, raw = token_create(user=user, name="t", scopes=["read"])
    assert ApiClient(raw).get("/account").status_code == 200
    client.force_login(user)
    client.post(f"/accounts/tokens/{token.pk}/revoke/")
    answer = ApiClient(raw).get("/account")
    assert answer.status_code == 401 and answer.json()["code"] == "invalid_token"
    assert "t" not in [t.name for t in ApiToken.objects.filter(user=user, revoked_at__isnull=True)]


def test_nobody_revokes_another_players_token(client, make_user):
    owner, other = make_user(), make_user()
    token, raw = token_create(user=owner, name="t", scopes=["read"])
    client.force_login(other)
    client.post(f"/accounts/tokens/{token.pk}/revoke/")
    assert ApiClient(raw).get("/account").status_code == 200


def test_token_creation_refuses_bad_names_and_scopes(client, make_user):
    user = make_user()
    client.force_login(user)
    client.post("/accounts/tokens/new/", {"name": "", "scopes": ["play"]})
    client.post("/accounts/tokens/new/", {"name": "x", "scopes": ["admin"]})
    client.post("/accounts/tokens/new/", {"name": "x"})
    assert not ApiToken.objects.filter(user=user).exists()


def test_read_scope_cannot_play_and_play_scope_cannot_read(make_user, api_for):
    user = make_user()
    reader, player = api_for(user, scopes=["read"]), api_for(user, scopes=["play"])
    assert reader.get("/games").status_code == 200
    refused = reader.post("/tables", {"game": "perudo", "num_players": 2})
    assert refused.status_code == 403 and refused.json()["code"] == "missing_scope"
    assert player.get("/games").json()["code"] == "missing_scope"
    assert player.post("/tables", {"game": "perudo", "num_players": 2}).status_code == 200


def test_missing_and_unknown_tokens(make_user):
    assert ApiClient(None).get("/account").json()["code"] == "missing_token"
    answer = ApiClient("tpt_not-a-token").get("/account")
    assert answer.status_code == 401 and answer.json()["code"] == "invalid_token"


def test_suspension_stops_tokens_at_once_and_lifting_restores_them(make_user, django_user_model):
    user = make_user()
    moderator = django_user_model.objects.create_user(username="mod", password="x", is_staff=True)
    _token, raw = token_create(user=user, name="t", scopes=["read"])
    api = ApiClient(raw)
    assert api.get("/account").status_code == 200
    sanction = moderation_suspend(moderator=moderator, user=user, reason="abuse", duration=timedelta(days=1))
    answer = api.get("/account")
    assert answer.status_code == 403 and answer.json()["code"] == "account_suspended"
    moderation_lift(moderator=moderator, sanction=sanction, reason="appeal")
    assert api.get("/account").status_code == 200
    moderation_ban(moderator=moderator, user=user, reason="cheating")
    assert api.get("/account").json()["code"] == "account_suspended"


def test_rate_limit_is_per_token(make_user, settings):
    settings.TAPETE_API_RATE = "3/d"  # a window boundary inside the test is then all but impossible
    cache.clear()
    user = make_user()
    first, second = (
        ApiClient(token_create(user=user, name="a", scopes=["read"])[1]),
        ApiClient(token_create(user=user, name="b", scopes=["read"])[1]),
    )
    assert [first.get("/account").status_code for _ in range(3)] == [200, 200, 200]
    limited = first.get("/account")
    assert limited.status_code == 429 and limited.json()["code"] == "rate_limited"
    assert 0 < int(limited.headers["Retry-After"]) <= 86400
    assert second.get("/account").status_code == 200
