"""Guests: "Play now" without an account, never rated nor ranked, kept by choosing a name, cleaned up when abandoned."""

from datetime import timedelta

import pytest
from django.conf import settings
from django.contrib.auth import get_user_model
from django.urls import reverse
from django.utils import timezone
from tapete_sdk import registry
from tapete_sdk.plugin import play_now_players

from accounts.guests import guests_cleanup
from accounts.tasks import cleanup_guests
from lobby import services as lobby
from lobby.errors import LobbyError
from moderation.services import report_create
from tests.conftest import PASSWORD
from turnengine import chat
from turnengine.models import ChatMessage, Match

pytestmark = pytest.mark.django_db
User = get_user_model()


def _play_now(client, game="perudo", level="hard"):
    return client.post(reverse("lobby:play_now", args=[game]), {"level": level})


@pytest.mark.parametrize(
    ("game", "seats"),
    [
        (rules.key, play_now_players(rules))
        for rules in registry.all_games()
        if "hard" in registry.bot_levels(rules.key)
    ],
)
def test_play_now_seats_a_new_guest_against_computer_players_and_starts(client, game, seats):
    response = _play_now(client, game)
    match = Match.objects.get()
    assert response.status_code == 302 and response.url == reverse("lobby:table", args=[match.pk])
    assert match.status == Match.Status.ACTIVE and not match.ranked and match.num_players == seats
    players = [seat.user for seat in match.seats.order_by("index")]
    assert players[0].is_guest and players[0].username.startswith("guest-")
    assert all(user.is_bot and user.username.startswith("bot-hard") for user in players[1:])
    assert client.get(reverse("lobby:table", args=[match.pk])).context["my_seat"] == 0


def test_play_now_remembers_the_level(client, make_user):
    client.force_login(make_user())
    _play_now(client, level="medium")
    page = client.get(reverse("lobby:home")).content.decode()
    assert '<option value="medium" selected>' in page


def test_play_now_refuses_an_unknown_level_and_changes_nothing(client, make_user):
    client.force_login(make_user())
    response = _play_now(client, level="godlike")
    assert response.status_code == 302 and response.url == reverse("lobby:home")
    assert not Match.objects.exists()


def test_a_get_does_not_make_a_guest(client):
    response = client.get(reverse("lobby:play_now", args=["perudo"]))
    assert response.status_code == 302 and reverse("login") in response.url
    assert not User.objects.exists()


def test_guests_never_sit_at_ranked_tables(make_user):
    guest = User.objects.create(username="guest-abc123", is_guest=True)
    with pytest.raises(LobbyError) as refused:
        lobby.table_create(user=guest, game="perudo", num_players=2, options={}, ranked=True)
    assert refused.value.code == "guest_unranked"
    ranked = lobby.table_create(user=make_user(), game="perudo", num_players=2, options={}, ranked=True)
    with pytest.raises(LobbyError) as refused:
        lobby.table_join(user=guest, match_id=ranked.pk)
    assert refused.value.code == "guest_unranked"


def test_a_guest_keeps_the_account_and_its_games_by_choosing_a_name(client):
    _play_now(client)
    guest = User.objects.get(is_guest=True)
    page = client.get(reverse("lobby:home")).content.decode()
    assert reverse("keep_account") in page
    response = client.post(
        reverse("keep_account"), {"username": "lucia", "password1": PASSWORD, "password2": PASSWORD}
    )
    assert response.status_code == 302
    kept = User.objects.get(pk=guest.pk)
    assert kept.username == "lucia" and not kept.is_guest and kept.check_password(PASSWORD)
    assert Match.objects.get().seats.get(index=0).user_id == guest.pk
    assert client.get(reverse("lobby:home")).context["user"].username == "lucia"  # still logged in


def test_nobody_signs_up_under_a_name_the_site_gives(client):
    response = client.post(
        reverse("signup"), {"username": "guest-123456", "password1": PASSWORD, "password2": PASSWORD}
    )
    assert response.status_code == 200 and not User.objects.exists()
    assert "are kept for the site" in response.content.decode()


def _age(user, days):
    past = timezone.now() - timedelta(days=days)
    User.objects.filter(pk=user.pk).update(date_joined=past, last_login=past)
    Match.objects.filter(seats__user=user).update(created_at=past, last_action_at=past)


def test_abandoned_guests_are_cleaned_up_with_the_tables_only_they_played(client, make_user):
    _play_now(client, "chinesecheckers")  # then left, mid-game
    alone = User.objects.get(is_guest=True)
    match = Match.objects.get()
    # A guest who played a registered player: their shared game must keep both seats.
    shared_guest = User.objects.create(username="guest-shared", is_guest=True)
    registered = make_user()
    shared = lobby.table_create(user=registered, game="perudo", num_players=2, options={}, ranked=False)
    lobby.table_join(user=shared_guest, match_id=shared.pk)
    lobby.table_start(user=registered, match_id=shared.pk)
    recent = User.objects.create(username="guest-recent", is_guest=True)
    ttl_days = settings.TAPETE_GUEST_TTL_SECONDS / 86400
    _age(alone, ttl_days + 1)
    _age(shared_guest, ttl_days + 1)

    assert guests_cleanup() == {"deleted": 1, "deactivated": 1}
    assert not User.objects.filter(pk=alone.pk).exists() and not Match.objects.filter(pk=match.pk).exists()
    assert Match.objects.filter(pk=shared.pk).exists()
    assert not User.objects.get(pk=shared_guest.pk).is_active
    assert (
        User.objects.filter(pk=recent.pk).exists()
        and User.objects.filter(username__startswith="bot-").exists()
    )
    assert guests_cleanup() == {"deleted": 0, "deactivated": 0}


def test_the_cleanup_follows_the_settings_and_runs_on_celery_beat(settings):
    entry = settings.CELERY_BEAT_SCHEDULE["cleanup-guests"]
    assert entry["task"] == cleanup_guests.name == "accounts.tasks.cleanup_guests"
    assert entry["schedule"] == settings.TAPETE_GUEST_CLEANUP_SECONDS
    guest = User.objects.create(username="guest-old", is_guest=True)
    _age(guest, 2)
    settings.TAPETE_GUEST_TTL_SECONDS = 3 * 86400
    assert cleanup_guests.apply().get() == {"deleted": 0, "deactivated": 0}
    settings.TAPETE_GUEST_TTL_SECONDS = 86400
    assert cleanup_guests.apply().get() == {"deleted": 1, "deactivated": 0}



def _guest_playing_bots(name: str) -> tuple[User, Match]:
    guest = User.objects.create(username=name, is_guest=True)
    match, _update = lobby.table_play_now(user=guest, game="perudo", level="hard")
    return guest, match


def test_the_cleanup_keeps_a_registered_spectators_chat_and_a_reports_evidence(make_user):
    """Issue 34: a guests-only table was deleted with a registered spectator's chat line and the guest's reported
    line; the report lost its match and chat links."""
    spectator = make_user()
    watched_guest, watched = _guest_playing_bots("guest-watched")
    chat.chat_post(match=watched, user=spectator, seat=None, text="nice bid", max_length=200)
    rude_guest, rude_table = _guest_playing_bots("guest-rude")
    rude_line = ChatMessage.objects.create(match=rude_table, user=rude_guest, text="rude words")
    report = report_create(
        reporter=spectator, reported=rude_guest, reason="abuse", comment="", match=rude_table, move=1,
        chat_message_ids=[rude_line.pk],
    )  # fmt: skip
    lonely_guest, lonely = _guest_playing_bots("guest-lonely")
    ttl_days = settings.TAPETE_GUEST_TTL_SECONDS / 86400
    for guest in (watched_guest, rude_guest, lonely_guest):
        _age(guest, ttl_days + 1)

    assert guests_cleanup() == {"deleted": 1, "deactivated": 2}
    assert not Match.objects.filter(pk=lonely.pk).exists()  # nobody else was ever there: it goes
    assert list(ChatMessage.objects.filter(match=watched).values_list("user", "text")) == [
        (spectator.pk, "nice bid")
    ]
    report.refresh_from_db()
    assert report.match_id == rude_table.pk and list(report.chat_messages.all()) == [rude_line]
    assert report.reported_id == rude_guest.pk and not User.objects.get(pk=rude_guest.pk).is_active
