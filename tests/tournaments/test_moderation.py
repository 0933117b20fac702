"""Moderators (a Moderators-group account, not a superuser) disqualify a player and cancel a tournament from Django
admin, through the same confirmation page as every other moderator action: a reason required, one audit entry,
results void, no more pairing."""

import pytest
from django.contrib.auth.models import Group
from django.urls import reverse

from moderation.admin_actions import action_url
from moderation.groups import MODERATORS
from moderation.models import AuditEntry
from tests.tournaments.conftest import started
from tests.tournaments.test_life_cycle import current_tables, win
from tournaments import life_cycle
from tournaments.models import Entry, Round, Tournament

pytestmark = pytest.mark.django_db


@pytest.fixture
def moderator_client(client, make_user):
    moderator = make_user("tournament-mod")
    moderator.is_staff = True
    moderator.save()
    moderator.groups.add(Group.objects.get(name=MODERATORS))
    client.force_login(moderator)
    client.moderator = moderator
    return client


def test_moderators_see_tournaments_and_entries_in_admin(moderator_client, make_tournament):
    tournament, _users = make_tournament(players=2)
    for name in ("tournament", "entry", "round"):
        assert moderator_client.get(reverse(f"admin:tournaments_{name}_changelist")).status_code == 200
    assert moderator_client.get(reverse("admin:tournaments_tournament_change", args=[tournament.pk])).status_code == 200


def test_disqualifying_voids_the_results_and_is_audited(moderator_client, make_tournament):
    tournament, users = make_tournament(players=4, rounds=3)
    tournament = started(tournament)
    for match in current_tables(tournament):
        win(match, 0)
    life_cycle.tournament_advance(tournament.pk)
    cheat = Entry.objects.filter(tournament=tournament).order_by("-score", "pk").first()
    assert cheat.score == 2
    listed = moderator_client.post(reverse("admin:tournaments_entry_changelist"),
                                   {"action": "disqualify", "_selected_action": [cheat.pk]})
    assert listed.status_code == 302 and "/act/disqualify/" in listed.url
    page = moderator_client.get(listed.url)
    assert page.status_code == 200 and b"is disqualified from" in page.content
    assert moderator_client.post(listed.url, {"reason": " "}).status_code == 200  # a reason is required
    assert not AuditEntry.objects.exists()
    assert moderator_client.post(listed.url, {"reason": "collusion"}).status_code == 302
    cheat.refresh_from_db()
    assert cheat.status == Entry.Status.DISQUALIFIED and cheat.score == 0
    assert all(row.void for row in cheat.pairings.all())
    audit = AuditEntry.objects.get()
    assert audit.action == "disqualify" and audit.target_user == cheat.user and audit.reason == "collusion"
    assert audit.moderator == moderator_client.moderator and audit.detail["score_before"] == 2
    for match in current_tables(tournament):
        win(match, 0)
    life_cycle.tournament_advance(tournament.pk)
    assert not Round.objects.get(tournament=tournament, number=3).pairings.filter(entry=cheat).exists()
    again = moderator_client.get(action_url("disqualify", ids=[cheat.pk]))
    assert b"already disqualified" in again.content  # would change nothing: refused


def test_cancelling_stops_the_pairing_and_is_audited(moderator_client, make_tournament):
    tournament, _users = make_tournament(players=2, rounds=3)
    tournament = started(tournament)
    url = action_url("cancel_tournament", ids=[tournament.pk])
    assert b"is cancelled" in moderator_client.get(url).content
    assert moderator_client.post(url, {"reason": "server trouble"}).status_code == 302
    tournament.refresh_from_db()
    assert tournament.status == Tournament.Status.CANCELLED
    (match,) = current_tables(tournament)
    win(match, 0)  # the table plays on as an ordinary game
    life_cycle.tournament_advance(tournament.pk)
    assert Round.objects.filter(tournament=tournament).count() == 1
    assert AuditEntry.objects.get().action == "cancel_tournament"


def test_a_player_without_the_group_cannot_act(client, make_user, make_tournament):
    tournament, _users = make_tournament(players=1)
    player = make_user()
    player.is_staff = True
    player.save()
    client.force_login(player)
    assert client.get(action_url("cancel_tournament", ids=[tournament.pk])).status_code == 403
