"""Every account is earned the same way (issue 30, item 4): one limit per client address covers sign-ups, guests
made by "Play now" and guests kept under a name, counted by ``accounts.registration`` whatever page asks; each
refusal is an HTTP 429 with a sentence in the visitor's language, and nothing is made."""

import pytest
from django.contrib.auth import get_user_model
from django.test import Client
from django.urls import reverse

from tests.conftest import PASSWORD

pytestmark = pytest.mark.django_db
User = get_user_model()


@pytest.fixture(autouse=True)
def quick_password_hashes(settings):
    settings.PASSWORD_HASHERS = ["django.contrib.auth.hashers.MD5PasswordHasher"]


def _sign_up(client, name, **extra):
    data = {"username": name, "password1": PASSWORD, "password2": PASSWORD}
    return client.post(reverse("signup"), data, **extra)


def _play_now(client, **extra):
    return client.post(reverse("lobby:play_now", args=["perudo"]), {"level": "easy"}, **extra)


def _keep(client, name, **extra):
    data = {"username": name, "password1": PASSWORD, "password2": PASSWORD}
    return client.post(reverse("keep_account"), data, **extra)


def test_one_address_makes_no_more_accounts_than_the_limit_by_sign_up_guest_or_keeping(settings):
    settings.TAPETE_ACCOUNTS_PER_ADDRESS = "3/h"
    assert _sign_up(Client(), "ana").status_code == 302
    guest = Client()
    assert _play_now(guest).status_code == 302  # a guest: the second account of this address
    assert _keep(guest, "bea").status_code == 302  # kept: the third
    users_before = User.objects.count()

    refused_guest = _play_now(Client(), HTTP_ACCEPT_LANGUAGE="fr")
    assert refused_guest.status_code == 429
    assert "Trop de comptes ont été créés depuis votre réseau" in refused_guest.content.decode()
    refused_sign_up = _sign_up(Client(), "cai")
    assert refused_sign_up.status_code == 429
    assert "Too many accounts were created from your network" in refused_sign_up.content.decode()
    assert User.objects.count() == users_before
    # Another network is not concerned.
    assert _sign_up(Client(), "cai", REMOTE_ADDR="198.51.100.4").status_code == 302


def test_guests_become_rated_accounts_no_faster_than_sign_up_allows(settings):
    """The issue's way round the sign-up limit: many "Play now" guests, each then kept."""
    settings.TAPETE_ACCOUNTS_PER_ADDRESS = "4/h"
    elsewhere = {"REMOTE_ADDR": "198.51.100.9"}
    guests = [Client() for _ in range(3)]
    for guest in guests:  # made on another network, kept from this one
        assert _play_now(guest, **elsewhere).status_code == 302
    answers = [_keep(guest, f"kept{number}").status_code for number, guest in enumerate(guests)]
    assert answers == [302, 302, 302]
    assert _sign_up(Client(), "dan").status_code == 302  # the fourth account of this address
    late = Client()
    assert _play_now(late, **elsewhere).status_code == 302
    refused = _keep(late, "kept9", HTTP_ACCEPT_LANGUAGE="it")
    assert refused.status_code == 429
    assert "Dalla tua rete sono stati creati troppi account" in refused.content.decode()
    kept = set(User.objects.filter(is_guest=False, is_bot=False).values_list("username", flat=True))
    assert kept == {"kept0", "kept1", "kept2", "dan"}
    late_guest = User.objects.get(pk=late.session["_auth_user_id"])
    assert late_guest.is_guest and late_guest.username.startswith("guest-")


def test_the_limit_counts_ipv6_clients_by_their_64_prefix(settings):
    settings.TAPETE_ACCOUNTS_PER_ADDRESS = "1/h"
    assert _sign_up(Client(), "eva", REMOTE_ADDR="2001:db8::1").status_code == 302
    assert _sign_up(Client(), "fay", REMOTE_ADDR="2001:db8::2:3").status_code == 429
    assert _sign_up(Client(), "fay", REMOTE_ADDR="2001:db8:0:1::1").status_code == 302
