"""Moderators (staff in the Moderators group, not superusers) handle a report end to end in Django admin, and
cannot do more than moderating needs."""

import pytest
from django.contrib import admin
from django.contrib.auth.models import Group
from django.urls import reverse

from moderation.groups import MODERATORS
from moderation.models import AuditEntry, Report, Sanction
from ratings.models import Rating
from tests.conftest import play_to_the_end

pytestmark = pytest.mark.django_db


@pytest.fixture
def moderator_client(client, make_user):
    moderator = make_user("mod")
    moderator.is_staff = True
    moderator.save()
    moderator.groups.add(Group.objects.get(name=MODERATORS))
    client.force_login(moderator)
    client.moderator = moderator
    return client


def test_admin_pages_load_for_every_model(admin_client, start_table):
    start_table("perudo", 2)
    for model in admin.site._registry:
        meta = model._meta
        changelist = admin_client.get(reverse(f"admin:{meta.app_label}_{meta.model_name}_changelist"))
        assert changelist.status_code == 200, meta.label
        first = model.objects.first()
        if first is not None:
            page = admin_client.get(
                reverse(f"admin:{meta.app_label}_{meta.model_name}_change", args=[first.pk])
            )
            assert page.status_code == 200, meta.label


def test_a_moderator_handles_a_report_end_to_end(moderator_client, make_user, start_table):
    match, users = start_table("perudo", 2)
    report = Report.objects.create(
        reporter=users[0],
        reported=users[1],
        reason="abuse",
        comment="insults",
        match=match,
        move=match.version,
    )
    queue = moderator_client.get(reverse("admin:moderation_report_changelist"), {"status__exact": "open"})
    assert queue.status_code == 200 and users[1].username.encode() in queue.content
    match_page = moderator_client.get(reverse("admin:turnengine_match_change", args=[match.pk]))
    assert match_page.status_code == 200 and match.seed.encode() in match_page.content  # the full reveal
    response = moderator_client.post(
        reverse("admin:moderation_report_changelist"),
        {
            "action": "suspend",
            "_selected_action": [report.pk],
            "reason": "insults in chat",
            "days": "7",
        },
    )
    assert response.status_code == 302
    sanction = Sanction.objects.get(user=users[1])
    assert sanction.kind == "suspension" and (sanction.ends_at - sanction.starts_at).days == 7
    moderator_client.post(
        reverse("admin:moderation_report_changelist"),
        {
            "action": "resolve",
            "_selected_action": [report.pk],
            "reason": "suspended a week",
        },
    )
    report.refresh_from_db()
    assert report.status == "resolved" and report.handled_by == moderator_client.moderator
    assert set(AuditEntry.objects.values_list("action", flat=True)) == {"suspension", "report_resolved"}


def test_a_sanction_without_a_reason_is_refused(moderator_client, make_user):
    target = make_user()
    moderator_client.post(
        reverse("admin:accounts_user_changelist"),
        {
            "action": "ban",
            "_selected_action": [target.pk],
            "reason": "",
        },
    )
    assert not Sanction.objects.exists()


def test_a_moderator_cannot_edit_ratings_or_read_passwords(moderator_client, start_table):
    match, users = start_table("perudo", 2, ranked=True)
    play_to_the_end(match, users)
    rating = Rating.objects.first()
    url = reverse("admin:ratings_rating_change", args=[rating.pk])
    assert moderator_client.get(url).status_code == 200
    moderator_client.post(url, {"rating": "3000", "games": "1"})
    rating.refresh_from_db()
    assert rating.rating != 3000
    user_page = moderator_client.get(reverse("admin:accounts_user_change", args=[users[0].pk]))
    assert user_page.status_code == 200
    assert users[0].password.encode() not in user_page.content
    assert b"pbkdf2" not in user_page.content
    assert (
        moderator_client.post(
            reverse("admin:accounts_user_change", args=[users[0].pk]), {"username": "renamed"}
        ).status_code
        == 403
    )
    assert moderator_client.get(reverse("admin:auth_group_changelist")).status_code == 403


def test_a_moderator_cannot_edit_the_audit_log(moderator_client, make_user):
    from moderation.services import moderation_warn

    moderation_warn(moderator=moderator_client.moderator, user=make_user(), reason="language")
    entry = AuditEntry.objects.get()
    moderator_client.post(
        reverse("admin:moderation_auditentry_change", args=[entry.pk]), {"reason": "nothing"}
    )
    entry.refresh_from_db()
    assert entry.reason == "language"
    assert (
        moderator_client.post(
            reverse("admin:moderation_auditentry_delete", args=[entry.pk]), {"post": "yes"}
        ).status_code
        == 403
    )


def test_a_moderator_aborts_a_match_from_its_admin_page(moderator_client, start_table):
    match, _users = start_table("spicy", 2)
    page = moderator_client.get(reverse("admin:turnengine_match_change", args=[match.pk]))
    assert b"Full reveal" in page.content and match.seed.encode() in page.content
    moderator_client.post(
        reverse("admin:turnengine_match_changelist"),
        {"action": "abort", "_selected_action": [match.pk], "reason": "table stuck by a bug"},
    )
    match.refresh_from_db()
    assert match.status == "aborted"
    assert AuditEntry.objects.get().action == "abort_match"
