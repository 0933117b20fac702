"""Moderators (staff in the Moderators group, not superusers) work in Django admin: every action they can run goes
through its confirmation page, needs a reason, writes exactly one audit entry and is refused when it would change
nothing; a report is handled from its page in two clicks and a reason; the player and match pages are readable."""

import importlib
import re
from datetime import timedelta
from html import unescape
from zoneinfo import ZoneInfo

import pytest
from django.apps import apps as django_apps
from django.contrib import admin
from django.contrib.auth.models import Group, Permission
from django.core import checks
from django.core.exceptions import PermissionDenied
from django.db import connection
from django.test.utils import CaptureQueriesContext
from django.urls import reverse
from django.utils import formats, timezone, translation

from moderation import services
from moderation.admin_actions import ACTIONS, action_url
from moderation.groups import MODERATORS
from moderation.models import AuditEntry, ModeratorNote, Report, Sanction
from moderation.notices import sanction_message
from ratings.models import Rating, RatingChange
from tapete.errors import permission_denied
from tournaments.models import Entry, Tournament
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
    assert sanction.report == report and (sanction.preset, sanction.public_reason) == ("abuse", "")
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
    tournament = Tournament.objects.create(name="Cup", game="perudo", created_by=moderator,
                                           starts_at=timezone.now() + timedelta(hours=1))
    entry = Entry.objects.create(tournament=tournament, user=make_user())
    return {
        "disqualify": {"ids": [entry.pk]},
        "cancel_tournament": {"ids": [tournament.pk]},
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
        assert entry.created_at is not None, key
        assert (entry.target_user or entry.match or entry.detail.get("tournament")) is not None, key
    assert {entry.action for entry in AuditEntry.objects.all()} == {
        "warning", "mute", "suspension", "ban", "lift", "hide_message", "abort_match", "reverse_ratings",
        "refund", "report_resolved", "report_dismissed", "disqualify", "cancel_tournament"}


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
        "tournaments_tournament": targets["cancel_tournament"]["ids"][0],
        "tournaments_entry": targets["disqualify"]["ids"][0],
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


def test_the_zone_cookie_is_read_as_a_browser_writes_it(moderator_client, client, start_table):
    """timezone.js writes ``encodeURIComponent(zone)``: the browser sends ``tapete_tz=Europe%2FParis``."""
    match, users = start_table("perudo", 2)
    mute = services.moderation_mute(moderator=moderator_client.moderator, user=users[0], reason="spam",
                                    duration=timedelta(hours=24))
    moderator_client.cookies["tapete_tz"] = "Europe%2FParis"
    assert moderator_client.cookies.output(header="").strip().endswith("tapete_tz=Europe%2FParis")
    page = moderator_client.get(reverse("admin:moderation_sanction_change", args=[mute.pk])).content.decode()
    assert "Times in Europe/Paris" in page
    paris = timezone.localtime(mute.starts_at, ZoneInfo("Europe/Paris"))
    assert formats.date_format(paris, "DATETIME_FORMAT") in page  # an admin date, in the moderator's time
    client.cookies["tapete_tz"] = "America%2FArgentina%2FBuenos_Aires"
    client.force_login(users[0])
    table = client.get(reverse("lobby:table", args=[match.pk])).content.decode()
    assert "muted you in chat until" in table and "(America/Argentina/Buenos_Aires)" in table
    users[0].refresh_from_db()
    assert users[0].time_zone == "America/Argentina/Buenos_Aires"


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


def without_permission(codename: str) -> None:
    """The Moderators group loses one of its permissions (the test's moderator stays in the group)."""
    Group.objects.get(name=MODERATORS).permissions.remove(Permission.objects.get(codename=codename))


def test_a_refused_admin_page_is_the_admins_own_and_names_the_missing_permission(moderator_client, make_user):
    page = moderator_client.get(reverse("admin:auth_group_changelist"))
    html = page.content.decode()
    assert page.status_code == 403 and "Tapete administration" in html  # the admin's frame, not a bare page
    assert "auth.view_group" in html and "see groups" in html and "admin-time-zone" in html
    without_permission("add_sanction")
    page = moderator_client.get(action_url("ban", users=[make_user().pk]))
    html = page.content.decode()
    assert page.status_code == 403 and "moderation.add_sanction" in html and "add sanctions" in html
    moderator_client.cookies["django_language"] = "fr"
    try:
        html = moderator_client.get(action_url("ban", users=[make_user().pk])).content.decode()
    finally:
        translation.activate("en")
    assert "Administration de Tapete" in html and "ajouter des sanctions" in html


def test_the_queue_shows_only_the_quick_actions_the_moderator_may_run(moderator_client, start_table):
    match, users = start_table("perudo", 2)
    Report.objects.create(reporter=users[0], reported=users[1], reason="abuse", match=match)
    queue = reverse("admin:moderation_report_changelist")
    assert {"Warn", "Mute 24 h", "Suspend 7 days", "Dismiss"} <= set(links(moderator_client.get(queue)))
    without_permission("add_sanction")
    shown = set(links(moderator_client.get(queue)))
    assert "Dismiss" in shown and not {"Warn", "Mute 24 h", "Suspend 7 days"} & shown


def test_the_queues_quick_links_return_to_the_queue(moderator_client, start_table):
    match, users = start_table("perudo", 2)
    Report.objects.create(reporter=users[0], reported=users[1], reason="abuse", match=match)
    queue = reverse("admin:moderation_report_changelist") + "?status=open&reason__exact=abuse"
    for label, post in (("Warn", {"preset": "abuse"}), ("Dismiss", {"reason": "not abuse"})):
        Report.objects.update(status="open")
        url = links(moderator_client.get(queue))[label]
        done = moderator_client.post(url, post)
        assert done.status_code == 302 and done.url == queue, label


def test_the_audit_log_lists_in_a_constant_number_of_queries(moderator_client, start_table, make_user):
    match, _users = start_table("perudo", 2)
    changelist = reverse("admin:moderation_auditentry_changelist")

    def queries_for(rows: int) -> int:
        while AuditEntry.objects.count() < rows:  # each row its own player, moderator and match
            AuditEntry.objects.create(moderator=make_user(), action="note", target_user=make_user(),
                                      match=start_table("perudo", 2)[0], reason="watch")
        with CaptureQueriesContext(connection) as queries:
            page = moderator_client.get(changelist)
        assert len(page.context["cl"].result_list) == rows
        return len(queries)

    assert queries_for(2) == queries_for(12)


def test_audit_actions_read_as_words(moderator_client, start_table):
    match, users = start_table("perudo", 2)
    chat.chat_post(match=match, user=users[0], seat=0, text="rude", max_length=500)
    services.moderation_hide_message(moderator=moderator_client.moderator, message=ChatMessage.objects.get(),
                                     reason="insult")
    html = moderator_client.get(reverse("admin:moderation_auditentry_changelist")).content.decode()
    assert "Hid a chat line" in html and ">hide_message<" not in html
    moderator_client.cookies["django_language"] = "it"
    try:
        html = moderator_client.get(reverse("admin:moderation_auditentry_changelist")).content.decode()
    finally:
        translation.activate("en")
    assert "Ha nascosto una riga della chat" in html


def test_preset_reasons_are_kept_as_keys_and_read_in_the_players_language(moderator_client, make_user):
    player = make_user()
    moderator_client.cookies["django_language"] = "fr"  # a French moderator picks the preset
    try:
        moderator_client.post(action_url("suspend", users=[player.pk]),
                              {"preset": "abuse", "duration": "7d", "reason": "see chat"})
    finally:
        translation.activate("en")
    sanction = Sanction.objects.get()
    assert (sanction.preset, sanction.public_reason) == ("abuse", "")
    for language, reason in (("en", "Abusive or insulting language in chat."),
                             ("it", "Linguaggio offensivo o insulti nella chat."),
                             ("fr", "Propos injurieux ou insultants dans le chat.")):
        with translation.override(language):
            assert sanction_message(sanction).endswith(reason), language


def test_the_migration_turns_stored_preset_sentences_in_any_language_into_keys(make_user):
    migration = importlib.import_module("moderation.migrations.0003_preset_reasons_and_audit_actions")
    moderator, player = make_user(), make_user()
    stored = {
        "Propos injurieux ou insultants dans le chat. Encore une fois.": ("abuse", "Encore une fois."),
        "Imbroglio o collusione con un altro giocatore.": ("cheating", ""),
        "Spam or advertising in chat.": ("spam", ""),
        "Please stop.": ("", "Please stop."),
    }
    for text in stored:
        Sanction.objects.create(user=player, kind="warning", reason="x", public_reason=text, by=moderator)
    migration.presets_to_keys(django_apps, None)
    assert {(s.preset, s.public_reason) for s in Sanction.objects.all()} == set(stored.values())
    migration.keys_to_presets(django_apps, None)
    assert "Abusive or insulting language in chat. Encore une fois." in Sanction.objects.values_list(
        "public_reason", flat=True)


def test_the_sanctions_list_links_each_sanction_to_its_own_page(moderator_client, make_user):
    mute = services.moderation_mute(moderator=moderator_client.moderator, user=make_user(), reason="spam",
                                    duration=timedelta(hours=1))
    html = moderator_client.get(reverse("admin:moderation_sanction_changelist")).content.decode()
    # the kind is the link (before, Django wrapped its link around the player's, and the player's won)
    assert f'<a href="{reverse("admin:moderation_sanction_change", args=[mute.pk])}">Muted in chat</a>' in html


def test_the_queue_opens_on_open_reports_and_says_who_is_locked_out(moderator_client, start_table):
    match, users = start_table("perudo", 3)
    Report.objects.create(reporter=users[0], reported=users[1], reason="abuse", match=match, status="dismissed")
    Report.objects.create(reporter=users[0], reported=users[2], reason="spam", match=match, comment="open one")
    Report.objects.create(reporter=users[1], reported=users[0], reason="spam", match=match)
    services.moderation_ban(moderator=moderator_client.moderator, user=users[2], reason="cheating")
    services.moderation_suspend(moderator=moderator_client.moderator, user=users[0], reason="cheating",
                                duration=timedelta(days=3))
    queue = reverse("admin:moderation_report_changelist")
    page = moderator_client.get(queue)
    assert [report.status for report in page.context["cl"].result_list] == ["open", "open"]
    html = page.content.decode()
    assert "banned" in html and "suspended until" in html
    every = moderator_client.get(queue + "?status=all").context["cl"].result_list
    assert sorted(report.status for report in every) == ["dismissed", "open", "open"]


def test_the_report_form_defaults_to_abuse_when_reporting_a_chat_line(client, start_table):
    match, users = start_table("perudo", 2)
    chat.chat_post(match=match, user=users[1], seat=1, text="you idiot", max_length=500)
    client.force_login(users[0])
    url = reverse("moderation:report", args=[users[1].username])
    from_chat = client.get(url, {"match": match.pk, "chat": ChatMessage.objects.get().pk})
    assert from_chat.context["form"]["reason"].value() == "abuse"
    assert client.get(url, {"match": match.pk}).context["form"]["reason"].value() != "abuse"


def test_the_match_page_marks_the_computers_moves_and_shows_connection_lines(moderator_client, start_table):
    match, users = start_table("perudo", 2)
    (seat,) = match.rules.awaited(match.state)  # the seat to play: suspended, the computer plays for it at once
    services.moderation_suspend(moderator=moderator_client.moderator, user=users[seat], reason="cheating",
                                duration=timedelta(days=1))
    log = moderator_client.get(reverse("admin:turnengine_match_change", args=[match.pk])).context["log"]
    notices = [row for row in log if row["notice"]]
    assert [(row["events"][0]["type"], row["seat"]) for row in notices] == [("left", seat)]
    moves = [row for row in log if not row["notice"] and row["seat"] >= 0]
    assert [row["seat"] for row in moves if row["computer"]][:1] == [seat]  # at least one, and the right seat
    assert all(row["computer"] == (row["seat"] == seat) for row in moves)


def test_the_admin_passes_djangos_system_checks():
    """``manage.py check`` (run by every server start) finds nothing wrong in the admin classes."""
    assert [message.id for message in checks.run_checks(tags=[checks.Tags.admin]) if message.is_serious()] == []


def test_a_refusal_with_any_message_still_gets_the_admins_403_page(rf, make_user):
    request = rf.get(reverse("admin:moderation_report_changelist"))
    request.user = make_user()
    request.user.is_staff = True
    for message in ("odd_text.without a permission", "x.y", ""):
        response = permission_denied(request, PermissionDenied(message))
        response.render()
        assert response.status_code == 403 and b"may not" in response.content, message
    request.user.is_staff = False  # not staff: Django's plain page
    assert b"Tapete administration" not in permission_denied(request, PermissionDenied()).content
