"""The headers of docs/security.md on the pages that matter: a Content-Security-Policy without inline scripts or
styles on every page (the site's, admin's and the Bot API's docs), which the pages obey (no inline script, handler
or style attribute in their HTML), and ``Cache-Control: no-store`` on pages that show a secret."""

from __future__ import annotations

import re

import pytest
from django.contrib.auth.models import Group
from django.urls import reverse

from botapi.tokens import token_create
from lobby import services as lobby
from moderation.groups import MODERATORS
from tests.botapi.conftest import ApiClient
from tests.conftest import FAST_OPTIONS, play_to_the_end

pytestmark = pytest.mark.django_db

INLINE_SCRIPT = re.compile(r"<script(?![^>]*\bsrc=)(?![^>]*application/json)[^>]*>", re.I)
INLINE_HANDLER = re.compile(r"<[^>]+\son[a-z]+\s*=", re.I)
STYLE_ATTRIBUTE = re.compile(r"<[^>]+\sstyle\s*=", re.I)


def _policy(response) -> dict[str, str]:
    header = response["Content-Security-Policy"]
    return dict(part.strip().split(" ", 1) for part in header.split(";") if part.strip())


def _assert_obeys_the_policy(response, name: str) -> None:
    assert response.status_code == 200, name
    policy = _policy(response)
    assert policy["script-src"] == "'self'" and policy["style-src"] == "'self'", name
    assert policy["frame-ancestors"] == "'none'" and policy["object-src"] == "'none'", name
    html = response.content.decode()
    for pattern in (INLINE_SCRIPT, INLINE_HANDLER, STYLE_ATTRIBUTE):
        assert not pattern.search(html), f"{name}: {pattern.search(html).group(0)}"


@pytest.fixture
def pages(client, make_user, start_table):
    ana = make_user("ana")
    make_user("bruno")  # the report page's player
    waiting = lobby.table_create(user=ana, game="perudo", num_players=3, options={}, ranked=False)
    match, users = start_table("perudo")
    done, done_users = start_table("spicy", 2, FAST_OPTIONS["spicy"])
    play_to_the_end(done, done_users)
    return {
        "home": "/",
        "lobby": "/play/perudo/",
        "howto": "/how-to-play/chinesecheckers/",
        "waiting": f"/table/{waiting.pk}/",
        "table": f"/table/{match.pk}/",
        "replay": f"/table/{done.pk}/replay/",
        "profile": "/accounts/u/ana/",
        "leaderboard": "/leaderboard/perudo/",
        "report": "/report/bruno/",
        "api docs": "/api/docs/",
        "admin match": reverse("admin:turnengine_match_change", args=[match.pk]),
        "admin report list": reverse("admin:moderation_report_changelist"),
        "admin players": reverse("admin:accounts_user_changelist"),
    }


def test_every_page_has_the_policy_and_no_inline_script_or_style(client, make_user, pages):
    for name, path in [("login", "/accounts/login/"), ("signup", "/accounts/signup/"), ("admin", "/admin/login/")]:
        _assert_obeys_the_policy(client.get(path), name)
    moderator = make_user()
    moderator.is_staff = True
    moderator.save()
    moderator.groups.add(Group.objects.get(name=MODERATORS))
    client.force_login(moderator)
    for name, path in pages.items():
        _assert_obeys_the_policy(client.get(path), name)


def test_the_page_showing_a_new_token_is_never_stored(client, make_user):
    client.force_login(make_user())
    response = client.post(reverse("botapi:token_create"), {"name": "my bot", "scopes": ["read"]})
    assert response.status_code == 200 and "tpt_" in response.content.decode()
    assert "no-store" in response["Cache-Control"]


def test_a_seats_view_of_a_running_match_is_never_stored(client, start_table):
    match, users = start_table("perudo")
    client.force_login(users[0])
    response = client.get(reverse("turnengine:replay_data", args=[match.pk]), {"seat": 0})
    assert response.status_code == 200 and "no-store" in response["Cache-Control"]


def test_a_seats_view_from_the_bot_api_is_never_stored(start_table):
    match, users = start_table("perudo")
    _token, raw = token_create(user=users[0], name="bot", scopes=["read"])
    response = ApiClient(raw).get(f"/tables/{match.pk}/state")
    assert response.status_code == 200 and response.json()["d"]["view"]
    assert "no-store" in response["Cache-Control"]
