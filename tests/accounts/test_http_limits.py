"""HTTP limits (web/throttle.py): failed log-ins per account and per address, sign-ups
per address, tables per user a minute; each refused with a translated message and 429, never a 500."""

import pytest
from django.contrib.auth import get_user_model
from django.urls import reverse

from tests.conftest import PASSWORD
from tests.lobby.test_lobby_pages import form_defaults
from turnengine.models import Match

pytestmark = pytest.mark.django_db


@pytest.fixture(autouse=True)
def quick_password_hashes(settings):
    """Counting log-ins, not hashing: the default hasher's deliberate slowness would dominate these tests."""
    settings.PASSWORD_HASHERS = ["django.contrib.auth.hashers.MD5PasswordHasher"]


def _log_in(client, username: str, password: str, **extra):
    return client.post(reverse("login"), {"username": username, "password": password}, **extra)


def _messages(response) -> list[str]:
    return [str(message) for message in response.context["messages"]]


def test_after_five_wrong_passwords_even_the_right_one_is_refused(client, make_user):
    user = make_user()
    for _ in range(5):
        assert _log_in(client, user.username, "wrong-password").status_code == 200
    response = _log_in(client, user.username, PASSWORD)
    assert response.status_code == 429
    assert "Too many failed log-ins for this account" in response.content.decode()
    assert not client.get(reverse("lobby:home")).context["user"].is_authenticated
    # The name is counted as typed: another spelling of it is the same account.
    assert _log_in(client, user.username.upper(), PASSWORD).status_code == 429


def test_right_log_ins_are_not_counted_and_other_accounts_are_not_locked(client, make_user):
    user, other = make_user(), make_user()
    for _ in range(6):
        assert _log_in(client, user.username, PASSWORD).status_code == 302
        client.post(reverse("logout"))
    for _ in range(5):
        _log_in(client, user.username, "wrong-password")
    assert _log_in(client, other.username, PASSWORD).status_code == 302


def test_failures_across_many_names_lock_that_address_only(client, make_user, settings):
    settings.TAPETE_LOGIN_FAILURES_PER_ADDRESS = "4/15m"
    user = make_user()
    for attempt in range(4):
        _log_in(client, f"guess{attempt}", "wrong-password")
    response = _log_in(client, user.username, PASSWORD)
    assert response.status_code == 429 and "from your network" in response.content.decode()
    assert _log_in(client, user.username, PASSWORD, REMOTE_ADDR="192.0.2.7").status_code == 302


def test_admin_log_in_shares_the_limit_and_answers_429(client, make_user):
    staff = make_user()
    get_user_model().objects.filter(pk=staff.pk).update(is_staff=True, is_superuser=True)
    url = reverse("admin:login")
    for _ in range(5):
        assert client.post(url, {"username": staff.username, "password": "wrong-password"}).status_code == 200
    response = client.post(url, {"username": staff.username, "password": PASSWORD})
    assert response.status_code == 429
    assert "Too many failed log-ins for this account" in response.content.decode()
    assert not response.wsgi_request.user.is_authenticated


@pytest.mark.parametrize("page", ["login", "admin:login"])
def test_a_stranger_cannot_lock_the_owner_out_of_an_account(client, make_user, page):
    owner = make_user()
    get_user_model().objects.filter(pk=owner.pk).update(is_staff=True, is_superuser=True)
    url, stranger = reverse(page), {"REMOTE_ADDR": "198.51.100.9"}
    for _round in range(3):  # again and again: the stranger stays locked out, the owner never is
        for _ in range(5):
            client.post(url, {"username": owner.username, "password": "wrong-password"}, **stranger)
        assert client.post(url, {"username": owner.username, "password": PASSWORD}, **stranger).status_code == 429
        owner_log_in = client.post(url, {"username": owner.username, "password": PASSWORD})
        assert owner_log_in.status_code == 302
        client.post(reverse("logout"))


def test_sign_ups_from_one_address_are_limited(client, settings):
    settings.TAPETE_ACCOUNTS_PER_ADDRESS = "2/h"
    users = get_user_model().objects
    for name in ("ana", "bea", "cai"):
        response = client.post(
            reverse("signup"), {"username": name, "password1": PASSWORD, "password2": PASSWORD}
        )
        client.post(reverse("logout"))
    assert response.status_code == 429
    assert "Too many accounts were created from your network. Try again in" in " ".join(_messages(response))
    assert sorted(users.values_list("username", flat=True)) == ["ana", "bea"]


def test_tables_per_user_a_minute_are_limited_with_a_message_in_the_players_language(
    client, make_user, settings
):
    settings.TAPETE_TABLES_PER_USER = "2/m"
    user, other = make_user(), make_user()
    client.force_login(user)
    url = reverse("lobby:create", args=["perudo"])
    data = form_defaults("perudo", 2)
    assert [client.post(url, data).status_code for _ in range(2)] == [302, 302]
    refused = client.post(url, data, HTTP_ACCEPT_LANGUAGE="fr")
    assert refused.status_code == 429
    assert "Vous avez ouvert beaucoup de tables en peu de temps" in " ".join(_messages(refused))
    assert Match.objects.filter(created_by=user).count() == 2
    client.force_login(other)
    assert client.post(url, data).status_code == 302
