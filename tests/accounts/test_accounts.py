"""Sign-up, log-in, log-out, password change and reset, and the profile page."""

import re

import pytest
from django.core import mail
from django.urls import reverse

from tests.conftest import PASSWORD, play_to_the_end

pytestmark = pytest.mark.django_db


def test_signing_up_logs_the_new_player_in(client, django_user_model):
    response = client.post(
        reverse("signup"),
        {"username": "ana", "email": "ana@example.org", "password1": PASSWORD, "password2": PASSWORD},
    )
    assert response.status_code == 302
    assert django_user_model.objects.get(username="ana")
    assert client.get(reverse("lobby:home")).context["user"].username == "ana"


def test_sign_up_refuses_a_weak_password(client, django_user_model):
    response = client.post(reverse("signup"), {"username": "bob", "password1": "123", "password2": "123"})
    assert response.status_code == 200 and response.context["form"].errors
    assert not django_user_model.objects.exists()


def test_log_in_and_log_out(client, make_user):
    user = make_user()
    response = client.post(reverse("login"), {"username": user.username, "password": PASSWORD})
    assert response.status_code == 302
    client.post(reverse("logout"))
    assert not client.get(reverse("lobby:home")).context["user"].is_authenticated


def test_password_change(client, make_user):
    user = make_user()
    client.force_login(user)
    new = "another-horse-battery-43"
    client.post(
        reverse("password_change"), {"old_password": PASSWORD, "new_password1": new, "new_password2": new}
    )
    user.refresh_from_db()
    assert user.check_password(new)


def test_password_reset_by_email(client, make_user):
    user = make_user()
    client.post(reverse("password_reset"), {"email": user.email})
    assert len(mail.outbox) == 1
    link = re.search(r"/accounts/password/reset/\S+/\S+/", mail.outbox[0].body).group(0)
    form_page = client.get(link, follow=True)
    new = "reset-horse-battery-44"
    client.post(form_page.redirect_chain[-1][0], {"new_password1": new, "new_password2": new})
    user.refresh_from_db()
    assert user.check_password(new)


def test_profile_shows_games_played_and_current_tables(client, start_table):
    match, users = start_table("perudo")
    page = client.get(reverse("profile", args=[users[0].username]))
    assert page.status_code == 200
    assert list(page.context["current_matches"]) == [match]
    play_to_the_end(match, users)
    page = client.get(reverse("profile", args=[users[0].username]))
    assert page.context["games_played"] == 1
    assert list(page.context["current_matches"]) == []


def test_demo_admin_is_created_once_and_its_address_is_the_served_one(django_user_model, settings):
    from io import StringIO

    from django.core.management import call_command

    settings.TAPETE_SITE_URL = "http://127.0.0.1:8130"  # ./dev serve on TAPETE_PORT=8130
    call_command("ensure_demo_admin", stdout=StringIO())
    printed = StringIO()
    call_command("ensure_demo_admin", stdout=printed)
    admin = django_user_model.objects.get(username="admin")
    assert admin.is_superuser
    assert django_user_model.objects.filter(username="admin").count() == 1
    assert "http://127.0.0.1:8130/admin/" in printed.getvalue()


@pytest.mark.parametrize(("language", "phrase"), [("fr", "Jeux"), ("it", "Giochi")])
def test_the_site_speaks_french_and_italian(client, language, phrase):
    from django.conf import settings

    client.cookies[settings.LANGUAGE_COOKIE_NAME] = language
    page = client.get(reverse("lobby:home"))
    assert page.context["LANGUAGE_CODE"] == language
    assert phrase in page.content.decode()


@pytest.mark.parametrize("typed", ["secadmin", "SECADMIN", "SecAdmin"])
def test_sign_up_refuses_a_taken_name_in_any_case(client, make_user, django_user_model, typed):
    make_user("secadmin")
    response = client.post(reverse("signup"), {"username": typed, "password1": PASSWORD, "password2": PASSWORD})
    assert response.status_code == 200
    assert response.context["form"].errors["username"] == ["A user with that username already exists."]
    assert list(django_user_model.objects.values_list("username", flat=True)) == ["secadmin"]


def test_a_guest_cannot_keep_their_account_under_a_taken_name(client, make_user, django_user_model):
    make_user("secadmin")
    client.post(reverse("lobby:play_now", args=["perudo"]), {"level": "hard"})
    guest = django_user_model.objects.get(is_guest=True)
    response = client.post(
        reverse("keep_account"), {"username": "SECADMIN", "password1": PASSWORD, "password2": PASSWORD}
    )
    assert response.status_code == 200
    assert response.context["form"].errors["username"] == ["A user with that username already exists."]
    guest.refresh_from_db()
    assert guest.is_guest and guest.username.startswith("guest-")
