"""Moderators (staff in the Moderators group, not superusers) work in Django admin: every action they can run goes
through its confirmation page, needs a reason, writes exactly one audit entry and is refused when it would change
nothing; a report is handled from its page in two clicks and a reason; the player and match pages are readable."""

import re
from datetime import timedelta
from html import unescape

import pytest
from django.contrib import admin
from django.contrib.auth.models import Group
from django.urls import reverse
from django.utils import translation

from moderation import services
from moderation.admin_actions import ACTIONS, action_url
from moderation.groups import MODERATORS
from moderation.models import AuditEntry, ModeratorNote, Report, Sanction
from ratings.models import Rating, RatingChange
from turnengine import chat, timers
from turnengine.models import ChatMessage, Match

pytestmark = pytest.mark.django_db


def finish_ranked(match, users) -> None:
    """End a ranked two-seat match in two service calls: the second player leaves, the first ends the table."""
    timers.seat_leave(match_id=match.pk, user=users[1])
    timers.match_end_by_vote(match_id=match.pk, user=users[0])
    match.refresh_from_db()


@pytest.fixture
def moderator_client(client, make_user):
    moderator = make_user("mod")
    moderator.is_staff = True
    moderator.save()
    moderator.groups.add(Group.objects.get(name=MODERATORS))
    client.force_login(moderator)
    client.moderator = moderator
    return client


def links(page) -> dict[str, str]:
    """Link text -> href of a page."""
    html = page.content.decode()
    return {unescape(re.sub(r"<[^>]+>", "", text)).strip(): unescape(href)
            for href, text in re.findall(r'<a href="([^"]+)"[^>]*>(.*?)</a>', html, re.S)}


def test_admin_pages_load_for_every_model(admin_client, moderator_client, start_table):
    match, users = start_table("perudo", 2)
    chat.chat_post(match=match, user=users[0], seat=0, text="hello", max_length=500)
    Report.objects.create(reporter=users[0], reported=users[1], reason="abuse", match=match)
    services.moderation_add_note(moderator=moderator_client.moderator, user=users[1], text="watch")
    for model in admin.site._registry:
        meta = model._meta
        changelist = reverse(f"admin:{meta.app_label}_{meta.model_name}_changelist")
        assert admin_client.get(changelist).status_code == 200, meta.label
        listed = moderator_client.get(changelist)
        assert listed.status_code in (200, 403), meta.label
        first = model.objects.first()
        if first is not None and listed.status_code == 200:
            page = moderator_client.get(reverse(f"admin:{meta.app_label}_{meta.model_name}_change", args=[first.pk]))
            assert page.status_code == 200, meta.label
    for client in (admin_client, moderator_client):
        assert client.get(reverse("admin:accounts_user_moderation", args=[users[1].pk])).status_code == 200


def test_a_moderator_handles_a_report_from_its_page_in_two_clicks_and_a_reason(moderator_client, start_table):
    match, users = start_table("perudo", 2)
    chat.chat_post(match=match, user=users[1], seat=1, text="you idiot", max_length=500)
    line = ChatMessage.objects.get()
    report = services.report_create(reporter=users[0], reported=users[1], reason="abuse", comment="insults",
                                    match=match, move=match.version, chat_message_ids=[line.pk])
    second = Report.objects.create(reporter=users[0], reported=users[1], reason="spam", match=match)
    page = moderator_client.get(reverse("admin:moderation_report_change", args=[report.pk]))
    assert b"you idiot" in page.content  # the reported chat line, on the report's page
    confirm = moderator_client.get(links(page)["Suspend 7 days"])  # click 1
    assert confirm.status_code == 200
    assert f"{users[1].username} is suspended until".encode() in confirm.content
    assert f"#{second.pk}".encode() in confirm.content  # the other open report at that match
    done = moderator_client.post(confirm.request["PATH_INFO"] + "?" + confirm.request["QUERY_STRING"],
                                 {"preset": "abuse", "duration": "7d", "resolve_related": "on"})  # click 2
    assert done.status_code == 302 and done.url == reverse("admin:moderation_report_change", args=[report.pk])
    sanction = Sanction.objects.get(user=users[1])
    assert sanction.kind == "suspension" and sanction.ends_at - sanction.starts_at == timedelta(days=7)
    assert sanction.report == report and sanction.public_reason.startswith("Abusive")
    assert set(Report.objects.values_list("status", flat=True)) == {"resolved"}
    entry = AuditEntry.objects.get()
    assert (entry.moderator, entry.action, entry.target_user, entry.match) == (
        moderator_client.moderator, "suspension", users[1], match)
    assert sorted(entry.detail["reports_resolved"]) == sorted([report.pk, second.pk])


def _targets(start_table, make_user, moderator):
    """One target for each action a moderator can run, and the query string that names it."""
    match, users = start_table("perudo", 2, ranked=True)
    chat.chat_post(match=match, user=users[0], seat=0, text="rude", max_length=500)
    finished, finished_users = start_table("perudo", 2, ranked=True)
    finish_ranked(finished, finished_users)
    cheated, cheated_users = start_table("perudo", 2, ranked=True)
    finish_ranked(cheated, cheated_users)  # the second player left: the first gained, a refund takes it back
    report = Report.objects.create(reporter=users[0], reported=users[1], reason="abuse", match=match)
    mute = Sanction.objects.create(user=make_user(), kind="mute", reason="x", by=moderator,
                                   ends_at=match.created_at + timedelta(days=30))
    player = make_user()
    return {
        "warn": {"users": [player.pk]},
        "mute": {"users": [player.pk], "duration": "24h"},
        "suspend": {"reports": [report.pk], "duration": "1h"},
        "ban": {"users": [player.pk]},
        "lift": {"ids": [mute.pk]},
        "hide": {"ids": [ChatMessage.objects.get().pk]},
        "abort": {"ids": [match.pk]},
        "reverse": {"ids": [finished.pk]},
        "refund": {"users": [cheated_users[0].pk]},
        "resolve": {"ids": [Report.objects.create(reporter=users[0], reported=users[1], reason="spam").pk]},
        "dismiss": {"ids": [Report.objects.create(reporter=users[1], reported=users[0], reason="spam").pk]},
    }


def test_every_action_needs_a_reason_and_writes_exactly_one_audit_entry(moderator_client, start_table, make_user):
    targets = _targets(start_table, make_user, moderator_client.moderator)
    assert set(targets) == set(ACTIONS)  # every action a moderator can run is walked
    for key, query in targets.items():
        url = action_url(key, **query)
        page = moderator_client.get(url)
        assert page.status_code == 200 and b"What will happen" in page.content, key
        duration = {"duration": query["duration"]} if "duration" in query else {}
        refused = moderator_client.post(url, {"reason": "  ", **duration})
        assert refused.status_code == 200 and b"Give a reason" in refused.content, key
        assert not AuditEntry.objects.filter(action__in=[key, ACTIONS[key].sanction or key]).exists(), key
        before = AuditEntry.objects.count()
        done = moderator_client.post(url, {"reason": f"because {key}", **duration})
        assert done.status_code == 302, key
        assert AuditEntry.objects.count() == before + 1, key
        entry = AuditEntry.objects.order_by("-pk").first()
        assert entry.moderator == moderator_client.moderator and entry.reason == f"because {key}", key
        assert entry.created_at is not None and (entry.target_user or entry.match) is not None, key
    assert {entry.action for entry in AuditEntry.objects.all()} == {
        "warning", "mute", "suspension", "ban", "lift", "hide_message", "abort_match", "reverse_ratings",
        "refund", "report_resolved", "report_dismissed"}


def test_every_list_action_leads_to_its_confirmation_page(moderator_client, start_table, make_user):
    targets = _targets(start_table, make_user, moderator_client.moderator)
    match = Match.objects.filter(status="active").first()
    rows = {
        "accounts_user": match.created_by.pk,
        "moderation_report": Report.objects.first().pk,
        "moderation_sanction": Sanction.objects.first().pk,
        "turnengine_match": match.pk,
        "turnengine_chatmessage": targets["hide"]["ids"][0],
        "ratings_ratingchange": RatingChange.objects.first().pk,
    }
    walked = 0
    for model, model_admin in admin.site._registry.items():
        name = f"{model._meta.app_label}_{model._meta.model_name}"
        request = moderator_client.get(reverse(f"admin:{name}_changelist")).wsgi_request
        for action_name in model_admin.get_actions(request):
            if action_name == "delete_selected":
                continue
            response = moderator_client.post(reverse(f"admin:{name}_changelist"),
                                             {"action": action_name, "_selected_action": [rows[name]]})
            assert response.status_code == 302 and "/admin/moderation/auditentry/act/" in response.url, (
                name, action_name)
            assert moderator_client.get(response.url).status_code == 200
            walked += 1
    assert walked >= 12
    assert not AuditEntry.objects.exists()  # nothing is done before the confirmation


def test_actions_that_would_change_nothing_are_refused(moderator_client, start_table):
    moderator = moderator_client.moderator
    friendly, _friendly_users = start_table("perudo", 2)
    ranked, users = start_table("perudo", 2, ranked=True)
    finish_ranked(ranked, users)
    services.moderation_reverse_ratings(moderator=moderator, match=ranked, reason="collusion")
    ban = services.moderation_ban(moderator=moderator, user=users[0], reason="cheating")
    services.moderation_lift(moderator=moderator, sanction=ban, reason="appeal")
    services.moderation_ban(moderator=moderator, user=users[1], reason="cheating")
    before = AuditEntry.objects.count()
    for key, query, why in [
        ("reverse", {"ids": [ranked.pk]}, b"already reversed"),
        ("reverse", {"ids": [friendly.pk]}, b"friendly"),
        ("abort", {"ids": [ranked.pk]}, b"already over"),
        ("lift", {"ids": [ban.pk]}, b"already lifted"),
        ("ban", {"users": [users[1].pk]}, b"already banned"),
    ]:
        page = moderator_client.get(action_url(key, **query))
        assert why in page.content and b"nothing to confirm" in page.content, key
        assert b"data-confirm" not in page.content, key
        moderator_client.post(action_url(key, **query), {"reason": "again"})
    assert AuditEntry.objects.count() == before
    with pytest.raises(services.Refused) as refused:
        services.moderation_reverse_ratings(moderator=moderator, match=ranked, reason="twice")
    assert refused.value.code == "already_reversed"


def test_the_reversal_page_shows_the_rating_changes_it_undoes(moderator_client, start_table):
    match, users = start_table("perudo", 2, ranked=True)
    finish_ranked(match, users)
    page = moderator_client.get(action_url("reverse", ids=[match.pk])).content.decode()
    for change in RatingChange.objects.filter(match=match):
        assert f"{change.user.username}: {round(change.before)} → {round(change.after)}" in page
    ratings_before = {rating.user_id: rating.rating for rating in Rating.objects.all()}
    moderator_client.post(action_url("reverse", ids=[match.pk]), {"preset": "cheating"})
    assert all(change.reversed_at for change in RatingChange.objects.filter(match=match))
    assert {rating.user_id: rating.rating for rating in Rating.objects.all()} != ratings_before
    assert AuditEntry.objects.get().reason.startswith("Cheating")


def test_the_player_page_gathers_reports_sanctions_notes_and_matches(moderator_client, start_table):
    match, users = start_table("spicy", 2, {"challengeGraceMs": 0})
    report = Report.objects.create(reporter=users[0], reported=users[1], reason="abuse", comment="insults",
                                   match=match)
    services.moderation_warn(moderator=moderator_client.moderator, user=users[1], reason="language")
    url = reverse("admin:accounts_user_moderation", args=[users[1].pk])
    moderator_client.post(url, {"text": "Second warning would be a mute."})
    note = ModeratorNote.objects.get()
    assert note.by == moderator_client.moderator and note.user == users[1]
    assert AuditEntry.objects.filter(action="note", target_user=users[1], reason=note.text).exists()
    page = moderator_client.get(url)
    html = page.content.decode()
    for text in ("insults", "language", "Second warning would be a mute.", str(match), "Mute 24 h",
                 "Suspend 30 days", "Ban"):
        assert text in html, text
    # linked from the report queue, the report, the match page and the user list
    for where in (reverse("admin:moderation_report_changelist"),
                  reverse("admin:moderation_report_change", args=[report.pk]),
                  reverse("admin:turnengine_match_change", args=[match.pk]),
                  reverse("admin:accounts_user_changelist")):
        assert url in moderator_client.get(where).content.decode(), where


def test_the_report_queue_shows_chat_lines_open_counts_and_quick_actions(moderator_client, start_table):
    match, users = start_table("perudo", 2)
    chat.chat_post(match=match, user=users[1], seat=1, text="buy gold here", max_length=500)
    for reason in ("spam", "abuse"):
        services.report_create(reporter=users[0], reported=users[1], reason=reason, comment="", match=match,
                               chat_message_ids=[ChatMessage.objects.get().pk])
    html = moderator_client.get(reverse("admin:moderation_report_changelist")).content.decode()
    assert "buy gold here" in html
    assert re.search(r'field-open_about_player">2<', html)
    assert "Suspend 7 days" in html and "Dismiss" in html


def test_the_match_page_reads_as_sentences_with_every_secret(moderator_client, start_table):
    match, users = start_table("perudo", 2, ranked=True)
    chat.chat_post(match=match, user=users[0], seat=0, text="good luck", max_length=500)
    page = moderator_client.get(reverse("admin:turnengine_match_change", args=[match.pk]))
    html = page.content.decode()
    log = page.context["log"]
    rolled = [event for row in log for event in row["events"] if event["type"] == "dice_rolled"]
    assert {event["seat"] for event in rolled} == {0, 1}  # both seats' dice, for the moderator
    assert all("visible_to" not in event for row in log for event in row["events"])
    assert "perudo/board.js" in html and "js/moderation-log.js" in html  # the players' own sentences
    assert "good luck" in html and "hide…" in html
    assert "<details" in html and match.seed in html
    assert "Abort the match…" in html


def test_the_admin_is_titled_as_tapete_s_in_the_moderators_language(moderator_client, start_table):
    match, _users = start_table("perudo", 2)
    services.moderation_abort_match(moderator=moderator_client.moderator, match=match, reason="stuck")
    for url in (reverse("admin:index"), action_url("abort", ids=[match.pk])):  # an action's page too
        page = moderator_client.get(url).content.decode()
        assert "<title>" in page and "Tapete administration" in page and "Django administration" not in page
    moderator_client.cookies["django_language"] = "fr"
    page = moderator_client.get(reverse("admin:index")).content.decode()
    assert "Administration de Tapete" in page


def test_admin_times_are_in_the_moderators_zone_and_named(moderator_client):
    moderator_client.cookies["tapete_tz"] = "Asia/Tokyo"
    page = moderator_client.get(reverse("admin:moderation_sanction_changelist"))
    assert b"Times in Asia/Tokyo" in page.content
    moderator_client.moderator.refresh_from_db()
    assert moderator_client.moderator.time_zone == "Asia/Tokyo"
    moderator_client.cookies["tapete_tz"] = "Not/AZone"
    assert b"Times in Asia/Tokyo" in moderator_client.get(reverse("admin:index")).content


def test_a_moderator_cannot_edit_ratings_or_read_passwords(moderator_client, start_table):
    match, users = start_table("perudo", 2, ranked=True)
    finish_ranked(match, users)
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
    services.moderation_warn(moderator=moderator_client.moderator, user=make_user(), reason="language")
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


def test_a_player_without_the_moderators_group_cannot_act(client, make_user):
    staff = make_user()
    staff.is_staff = True
    staff.save()
    client.force_login(staff)
    assert client.get(action_url("ban", users=[make_user().pk])).status_code == 403


def test_the_confirmation_page_speaks_the_moderators_language(moderator_client, make_user):
    moderator_client.cookies["django_language"] = "fr"
    try:
        page = moderator_client.get(action_url("suspend", users=[make_user().pk], duration="7d")).content.decode()
    finally:
        translation.activate("en")  # LocaleMiddleware leaves the request's language active in this thread
    assert "Ce qui va se passer" in page and "est suspendu jusqu" in page and "Motif prédéfini" in page
