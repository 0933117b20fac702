"""Names cannot impersonate (issue 30, item 5): names are compared by their confusable skeleton (UTS #39 with
Unicode's table, case folded, separators folded: ``accounts.names``), so a name that looks like another account's,
a computer player's, or the names the site gives guests and computer players is refused with a sentence, at
sign-up, when a guest keeps their account and on a rename; a unique column makes it hold under races."""

import pytest
from django.contrib.auth import get_user_model
from django.core.exceptions import ValidationError
from django.db import IntegrityError, transaction
from django.test import Client
from django.urls import reverse

from accounts.names import name_skeleton
from tests.conftest import PASSWORD
from turnengine import bot_seats

pytestmark = pytest.mark.django_db
User = get_user_model()


@pytest.fixture(autouse=True)
def quick_password_hashes(settings):
    settings.PASSWORD_HASHERS = ["django.contrib.auth.hashers.MD5PasswordHasher"]


def _sign_up(name, **extra):
    data = {"username": name, "password1": PASSWORD, "password2": PASSWORD}
    return Client().post(reverse("signup"), data, **extra)


def test_the_skeleton_joins_what_looks_alike_and_nothing_else():
    assert name_skeleton("bot-easy") == name_skeleton("bоt-easy")  # a Cyrillic о
    assert name_skeleton("bot-easy") == name_skeleton("bot_easy") == name_skeleton("BOT.Easy")
    assert name_skeleton("lucia") == name_skeleton("Iucia") == name_skeleton("1ucia")
    assert name_skeleton("Bea") == name_skeleton("ВЕА")  # Cyrillic capitals
    assert name_skeleton("bot-easy") != name_skeleton("bot-ease")
    assert name_skeleton("anna") != name_skeleton("ana")


@pytest.mark.parametrize("name", ["bоt-easy", "bot_easy", "Bot.Medium", "guеst-12ab", "GUEST_x"])
def test_names_like_the_computer_players_or_the_guests_are_refused_at_sign_up(name):
    bot_seats.bot_user(level="easy", taken_user_ids=set())  # bot-easy exists, as on a live site
    response = _sign_up(name)
    assert response.status_code == 200
    assert "are kept for the site" in response.content.decode()
    assert not User.objects.filter(is_bot=False).exists()


def test_a_name_that_looks_like_a_players_is_refused_in_the_players_language(make_user):
    make_user("lucia")
    response = _sign_up("Iucia", HTTP_ACCEPT_LANGUAGE="fr")
    assert response.status_code == 200
    assert "ressemble trop à « lucia »" in response.content.decode()
    assert list(User.objects.values_list("username", flat=True)) == ["lucia"]
    assert _sign_up("lucio").status_code == 302


def test_a_guest_keeping_the_account_cannot_take_a_look_alike_name(make_user):
    make_user("marta")
    guest = Client()
    guest.post(reverse("lobby:play_now", args=["perudo"]), {"level": "easy"})
    data = {"username": "mаrta", "password1": PASSWORD, "password2": PASSWORD}  # a Cyrillic а
    response = guest.post(reverse("keep_account"), data)
    assert response.status_code == 200 and "looks too much like “marta”" in response.content.decode()
    me = User.objects.get(pk=guest.session["_auth_user_id"])
    assert me.is_guest and me.username.startswith("guest-")


def test_a_rename_to_a_look_alike_name_is_refused_and_an_unchanged_name_is_not(make_user):
    make_user("nadia")
    other = make_user("olga")
    other.username = "NADIA"
    with pytest.raises(ValidationError, match="looks too much like"):
        other.full_clean()
    robot = bot_seats.bot_user(level="easy", taken_user_ids=set())
    robot.full_clean()  # a staff member editing a computer player keeps its name


def test_look_alike_names_chosen_at_the_same_moment_meet_the_unique_skeleton(make_user):
    make_user("pablo")
    with pytest.raises(IntegrityError), transaction.atomic():
        User.objects.create_user(username="PabIo", password=PASSWORD)  # past the form's check
    assert User.objects.get(username="pablo").username_skeleton == "pablo"


def test_a_sign_up_that_loses_the_race_for_a_name_reads_why(make_user, monkeypatch):
    """Another request took a look-alike name after the form's check: the unique skeleton refuses the save."""
    from django.contrib.auth.models import AbstractUser

    make_user("rosa")
    monkeypatch.setattr(User, "clean", AbstractUser.clean)  # the check passed before the rival's commit
    response = _sign_up("rоsa")  # a Cyrillic о
    assert response.status_code == 200
    assert "or one that looks like it" in response.content.decode()
    assert list(User.objects.values_list("username", flat=True)) == ["rosa"]


def test_accounts_whose_names_already_looked_alike_keep_them_when_skeletons_come(make_user):
    """Migration 0004 fills the column oldest first: a later look-alike is marked apart and keeps its name, and
    saving it again keeps the mark."""
    from importlib import import_module

    from django.apps import apps

    older, later = make_user("ana"), make_user("bob")
    User.objects.filter(pk=later.pk).update(username="Аna", username_skeleton="before-1")  # a Cyrillic А
    User.objects.filter(pk=older.pk).update(username_skeleton="before-2")
    import_module("accounts.migrations.0004_username_skeleton").fill_skeletons(apps, None)
    assert User.objects.get(pk=older.pk).username_skeleton == "ana"
    assert User.objects.get(pk=later.pk).username_skeleton == f"ana#{later.pk}"
    later = User.objects.get(pk=later.pk)
    later.first_name = "Anna"
    later.save()
    assert User.objects.get(pk=later.pk).username_skeleton == f"ana#{later.pk}"
