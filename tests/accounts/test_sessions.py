"""The site's session engine loads what Django's database sessions load: a live session's data, and nothing (and
no key) for one that expired or never was (accounts/sessions.py)."""

from datetime import timedelta

import pytest
from django.conf import settings
from django.contrib.sessions.backends import db
from django.contrib.sessions.models import Session
from django.utils import timezone

from accounts.sessions import SessionStore

pytestmark = pytest.mark.django_db


def test_the_site_uses_it():
    assert settings.SESSION_ENGINE == "accounts.sessions"


def test_a_session_loads_as_djangos_own_until_it_expires():
    store = SessionStore()
    store["_auth_user_id"], store["language"] = "7", "fr"
    store.create()
    key = store.session_key
    for load in (SessionStore(key).load, db.SessionStore(key).load):
        assert load() == {"_auth_user_id": "7", "language": "fr"}
    Session.objects.filter(session_key=key).update(expire_date=timezone.now() - timedelta(seconds=1))
    for store in (SessionStore(key), db.SessionStore(key)):
        assert store.load() == {} and store.session_key is None


def test_an_unknown_or_missing_key_loads_nothing():
    for key in ("x" * 32, None, "short"):
        store = SessionStore(key)
        assert store.load() == {} and store.session_key is None


def test_a_logged_in_player_stays_logged_in_across_requests(client, make_user):
    player = make_user()
    client.force_login(player)
    assert client.get("/").wsgi_request.user == player
    assert client.get("/").wsgi_request.user == player
