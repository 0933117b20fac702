"""A moderator (staff in the Moderators group, not a superuser) hides a chat line and warns a player, who sees both
live, mutes and unmutes them (the open tables' chat box closes and opens again at once), then handles a report from
the report's page in two clicks and a reason; the suspended player's open table pages say why and until when and
stop reconnecting, and the log-in page says the same. The moderator's browser is in Paris: its own script reports
the zone, and admin dates are in Paris time; on a phone the match page's seats table scrolls in its own box.
Viewport screenshots (laptop and phone) go to test-artifacts/."""

from __future__ import annotations

from zoneinfo import ZoneInfo

import pytest
from django.contrib.auth.models import Group
from django.utils import formats, timezone

from lobby import services as lobby
from moderation.groups import MODERATORS
from moderation.models import Report, Sanction
from moderation.services import report_create
from tests.conftest import PASSWORD
from tests.e2e.conftest import ARTIFACTS
from turnengine import chat
from turnengine.models import ChatMessage

pytestmark = pytest.mark.e2e
LAPTOP = {"width": 1280, "height": 800}
PHONE = {"width": 375, "height": 812}


def shot(page, name: str) -> None:
    ARTIFACTS.mkdir(exist_ok=True)
    page.screenshot(path=str(ARTIFACTS / f"{name}.png"))  # the viewport, as a person sees it


def log_in(browser, live_url, username: str, viewport: dict, timezone_id: str | None = None):
    context = browser.new_context(viewport=viewport, base_url=live_url, timezone_id=timezone_id)
    page = context.new_page()
    page.set_default_timeout(15_000)
    page.goto("/accounts/login/")
    page.fill("#id_username", username)
    page.fill("#id_password", PASSWORD)
    page.click("form.stacked button[type=submit]")
    return context, page


def test_a_moderator_handles_a_report_and_the_player_reads_why(browser, live_url, transactional_db, make_user):
    moderator = make_user("mira")
    moderator.is_staff = True
    moderator.save()
    moderator.groups.add(Group.objects.get(name=MODERATORS))
    reporter, offender = make_user("ana"), make_user("bruno")
    match = lobby.table_create(user=reporter, game="perudo", num_players=2, options={}, ranked=True)
    lobby.table_join(user=offender, match_id=match.pk)
    lobby.table_start(user=reporter, match_id=match.pk)
    chat.chat_post(match=match, user=offender, seat=1, text="you are all idiots", max_length=500)
    report = report_create(reporter=reporter, reported=offender, reason="abuse", comment="insults in chat",
                           match=match, chat_message_ids=[ChatMessage.objects.get().pk])
    contexts = []
    try:
        # The offender has the table open on a laptop and on a phone.
        context, laptop = log_in(browser, live_url, offender.username, LAPTOP)
        contexts.append(context)
        laptop.wait_for_url(lambda url: "/login/" not in url)
        phone = context.new_page()  # the same session, on a phone-sized page
        phone.set_viewport_size(PHONE)
        tables = [laptop, phone]
        for page in tables:
            page.goto(f"/table/{match.pk}/")
            page.wait_for_selector("[data-players] li")

        context, admin = log_in(browser, live_url, moderator.username, LAPTOP, timezone_id="Europe/Paris")
        contexts.append(context)
        admin.wait_for_url(lambda url: "/login/" not in url)
        admin.goto("/admin/moderation/report/")
        # timezone.js set the cookie as browsers do (Europe%2FParis), and the server read it
        assert "Times in Europe/Paris" in admin.inner_text(".admin-time-zone")
        # the chat lines and, after them, the quick actions are on screen (not scrolled off the list's right edge)
        quick, shown = admin.locator("td.field-reported_chat + td").bounding_box(), admin.locator(".results").bounding_box()
        assert "Suspend 7 days" in admin.inner_text("td.field-reported_chat + td")
        assert quick["x"] + quick["width"] <= shown["x"] + shown["width"]
        shot(admin, "moderation-report-queue")
        # A hidden chat line leaves the open pages at once; a warning shows live until acknowledged.
        admin.goto(f"/admin/turnengine/match/{match.pk}/change/")
        admin.click("text=hide…")
        admin.select_option("#id_preset", "abuse")
        admin.click("[data-confirm]")
        admin.wait_for_selector(".messagelist .success")
        for page in tables:
            page.wait_for_selector("[data-chat] li", state="detached")
        admin.goto(f"/admin/accounts/user/{offender.pk}/moderation/")
        admin.click(".moderation-buttons >> text=Warn")
        admin.select_option("#id_preset", "abuse")
        admin.click("[data-confirm]")
        admin.wait_for_selector(".messagelist .success")
        warning = tables[1].wait_for_selector("[data-warning-notice]")
        assert "A moderator warned you." in warning.inner_text()
        shot(tables[1], "moderation-warning-table-phone")
        warning.query_selector("button").click()
        tables[1].wait_for_selector("[data-warning-notice]", state="detached")
        assert Sanction.objects.get(kind="warning").acknowledged_at is not None
        # A mute closes the open tables' chat box, and lifting it opens the box again, without a reload.
        admin.click(".moderation-buttons a[href*='/act/mute/'][href*='duration=24h']")
        admin.select_option("#id_preset", "spam")
        admin.click("[data-confirm]")
        admin.wait_for_selector(".messagelist .success")
        for page in tables:
            page.wait_for_selector("[data-mute-notice]")
            assert page.is_disabled("[data-chat-form] input")
        mute = Sanction.objects.get(kind="mute")
        admin.goto(f"/admin/moderation/sanction/{mute.pk}/change/")
        paris = timezone.localtime(mute.starts_at, ZoneInfo("Europe/Paris"))
        assert formats.date_format(paris, "DATETIME_FORMAT") in admin.content()  # an admin date, Paris time
        admin.click(".moderation-buttons a[href*='/act/lift/']")
        admin.fill("#id_reason", "appeal accepted")
        admin.click("[data-confirm]")
        admin.wait_for_selector(".messagelist .success")
        for page in tables:
            page.wait_for_selector("[data-mute-notice]", state="detached")
            page.wait_for_function("() => !document.querySelector('[data-chat-form] input').disabled")

        admin.goto(f"/admin/moderation/report/{report.pk}/change/")
        assert "you are all idiots" in admin.content()  # the reported line, hidden but kept for moderators
        shot(admin, "moderation-report-page")
        clicks = 0
        admin.click("text=Suspend 7 days")
        clicks += 1
        admin.wait_for_selector("text=What will happen")
        admin.select_option("#id_preset", "abuse")  # the reason
        shot(admin, "moderation-confirm")
        admin.click("[data-confirm]")
        clicks += 1
        admin.wait_for_selector(".messagelist .success")
        assert clicks <= 3
        sanction = Sanction.objects.get(user=offender, kind="suspension")
        assert sanction.kind == "suspension" and sanction.report_id == report.pk
        assert Report.objects.get(pk=report.pk).status == "resolved"

        for page in tables:
            notice = page.wait_for_selector("[data-lockout-notice]")
            assert "Your account is suspended until" in notice.inner_text()
            assert "Abusive or insulting language" in notice.inner_text()
        laptop.wait_for_timeout(1500)  # well past the first reconnection delay: no new socket, same notice
        for page, name in zip(tables, ("laptop", "phone"), strict=True):
            assert "reconnecting" not in page.inner_text("[data-error]")
            assert page.locator("[data-seat-controls] button").count() == 0
            notice.scroll_into_view_if_needed()
            shot(page, f"moderation-suspended-table-{name}")

        admin.goto(f"/admin/accounts/user/{offender.pk}/moderation/")
        assert "insults in chat" in admin.content() and "Suspended" in admin.content()
        shot(admin, "moderation-player-page")
        admin.goto(f"/admin/turnengine/match/{match.pk}/change/")
        admin.wait_for_selector("[data-moderation-log] li >> text=rolled")
        admin.wait_for_selector("[data-moderation-log] li.notice >> text=left the game")  # the connection lines
        assert "abandoned" in admin.content()
        admin.locator("#log-title").scroll_into_view_if_needed()
        shot(admin, "moderation-match-page")
        admin.set_viewport_size(PHONE)  # on a phone the seats scroll in their own box, the page never sideways
        admin.locator("#seats-title").scroll_into_view_if_needed()
        assert admin.evaluate("() => document.documentElement.scrollWidth <= innerWidth")
        seats = admin.locator(".moderation-scroll").first
        assert seats.evaluate("(box) => box.scrollWidth > box.clientWidth")  # wider than a phone, as it should be
        shot(admin, "moderation-match-page-phone")

        context, login = log_in(browser, live_url, offender.username, LAPTOP)
        contexts.append(context)
        error = login.wait_for_selector(".errorlist, .errornote")
        assert "Your account is suspended until" in error.inner_text()
        shot(login, "moderation-login-laptop")
        login.set_viewport_size(PHONE)
        shot(login, "moderation-login-phone")
    finally:
        for context in contexts:
            context.close()
