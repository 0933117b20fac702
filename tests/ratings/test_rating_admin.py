"""Ratings in Django admin: every change visible, nothing editable, a match's ratings reversible (confirmed and
audited)."""

import pytest
from django.urls import reverse

from ratings.elo import INITIAL_RATING
from ratings.models import Rating, RatingChange, RatingReversal
from tests.conftest import play_to_the_end

pytestmark = pytest.mark.django_db


def test_admin_lists_ratings_and_changes_read_only(admin_client, start_table):
    match, users = start_table("perudo", 2, ranked=True)
    play_to_the_end(match, users)
    for model in ("rating", "ratingchange", "ratingreversal"):
        assert admin_client.get(reverse(f"admin:ratings_{model}_changelist")).status_code == 200
    change = RatingChange.objects.first()
    page = admin_client.get(reverse("admin:ratings_ratingchange_change", args=[change.pk]))
    assert page.status_code == 200 and b'name="delta"' not in page.content


def test_admin_reverses_a_matchs_ratings_through_the_audited_confirmation(admin_client, admin_user, start_table):
    from moderation.models import AuditEntry

    match, users = start_table("perudo", 2, ranked=True)
    play_to_the_end(match, users)
    ids = [str(pk) for pk in RatingChange.objects.filter(match=match).values_list("pk", flat=True)]
    response = admin_client.post(
        reverse("admin:ratings_ratingchange_changelist"),
        {"action": "reverse_matches", "_selected_action": ids[:1]},
    )
    assert response.status_code == 302 and not RatingReversal.objects.exists()  # nothing done yet
    confirm = admin_client.get(response.url)
    assert b"these rating changes are undone" in confirm.content
    admin_client.post(response.url, {"reason": "collusion seen in chat"})
    assert all(rating.rating == pytest.approx(INITIAL_RATING) for rating in Rating.objects.all())
    reversal = RatingReversal.objects.get(match=match)
    assert reversal.by == admin_user and reversal.reason == "collusion seen in chat"
    entry = AuditEntry.objects.get()
    assert (entry.action, entry.moderator, entry.match, entry.reason) == (
        "reverse_ratings", admin_user, match, "collusion seen in chat")
