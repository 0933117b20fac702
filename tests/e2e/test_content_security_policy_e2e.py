"""The Content-Security-Policy (docs/security.md) in the real browser: Chromium logs a console error for anything the
policy blocks (an inline script, handler or style, a foreign source), so no main page may log one: the site's pages
(the table, the replay, How to play), the Bot API's docs and the moderators' admin pages, with the scripts that run
on them (the language menu, the waiting page's socket). Viewport screenshots: ``test-artifacts/csp-*.png``."""

from __future__ import annotations

import pytest
from django.contrib.auth.models import Group

from lobby import services as lobby
from moderation.groups import MODERATORS
from tests.conftest import FAST_OPTIONS, PASSWORD, play_to_the_end
from tests.e2e.conftest import ARTIFACTS
from turnengine.models import Match

pytestmark = pytest.mark.e2e


def _log_in(page, path: str, username: str) -> None:
    page.goto(path)
    page.fill("#id_username", username)
    page.fill("#id_password", PASSWORD)
    page.click("[type=submit]")
    page.wait_for_url(lambda url: "/login/" not in url)


@pytest.mark.frontend
def test_no_main_page_breaks_the_content_security_policy(browser, live_url, transactional_db, make_user):
    ana, bruno, moderator = make_user("ana"), make_user("bruno"), make_user("mod")
    moderator.is_staff = True
    moderator.save()
    moderator.groups.add(Group.objects.get(name=MODERATORS))
    waiting = lobby.table_create(user=ana, game="perudo", num_players=3, options={}, ranked=False)
    playing = lobby.table_create(user=ana, game="perudo", num_players=2, options={}, ranked=False)
    lobby.table_join(user=bruno, match_id=playing.pk)
    lobby.table_start(user=ana, match_id=playing.pk)
    checkers = lobby.table_create(user=ana, game="chinesecheckers", num_players=2, options={}, ranked=False)
    lobby.table_join(user=bruno, match_id=checkers.pk)
    lobby.table_start(user=ana, match_id=checkers.pk)
    done = lobby.table_create(user=ana, game="spicy", num_players=2, options=FAST_OPTIONS["spicy"], ranked=False)
    lobby.table_join(user=bruno, match_id=done.pk)
    lobby.table_start(user=ana, match_id=done.pk)
    play_to_the_end(Match.objects.get(pk=done.pk), [ana, bruno])

    context = browser.new_context(viewport={"width": 1280, "height": 800}, base_url=live_url)
    errors: list[str] = []
    page = context.new_page()
    page.set_default_timeout(10_000)
    page.on("console", lambda message: message.type == "error" and errors.append(f"{page.url}: {message.text}"))
    page.on("pageerror", lambda error: errors.append(f"{page.url}: {error}"))
    try:
        page.goto("/accounts/login/")
        # The menu's handler (static/js/forms.js, a deferred script) submits the form. Each switch waits for the new
        # page's load event: the element html[lang=fr] exists before the deferred handler is bound, and a change made
        # then submits nothing (a full run on a busy machine did that).
        for language in ("fr", "en"):
            with page.expect_navigation(wait_until="load"):
                page.select_option("#language", language)
            page.wait_for_selector(f"html[lang={language}]")
        _log_in(page, "/accounts/login/", "ana")
        pages = {
            "home": "/",
            "lobby": "/play/perudo/",
            "howto": "/how-to-play/perudo/",
            "waiting": f"/table/{waiting.pk}/",
            "table": f"/table/{playing.pk}/",
            "table-checkers": f"/table/{checkers.pk}/",
            "howto-spicy": "/how-to-play/spicy/",
            "replay": f"/table/{done.pk}/replay/",
            "profile": "/accounts/u/ana/",
            "api-docs": "/api/docs/",
        }
        for name, path in pages.items():
            page.goto(path)
            page.wait_for_load_state("networkidle")
            for size, viewport in {"laptop": (1280, 800), "phone": (375, 812)}.items():
                page.set_viewport_size({"width": viewport[0], "height": viewport[1]})
                ARTIFACTS.mkdir(exist_ok=True)
                page.screenshot(path=str(ARTIFACTS / f"csp-{name}-{size}.png"))
            page.set_viewport_size({"width": 1280, "height": 800})
        assert page.locator(".swagger-ui .info").count() == 1  # the API docs' scripts ran
        page.goto(f"/table/{waiting.pk}/")
        page.click("#invite")  # the invitation field's handler selects the link
        assert page.evaluate("document.getSelection().toString() || document.activeElement.selectionEnd") != 0
        page.context.clear_cookies()
        _log_in(page, "/admin/login/", "mod")
        for name, path in {
            "admin-index": "/admin/",
            "admin-match": f"/admin/turnengine/match/{done.pk}/change/",
            "admin-players": "/admin/accounts/user/",
        }.items():
            page.goto(path)
            page.wait_for_load_state("networkidle")
            page.screenshot(path=str(ARTIFACTS / f"csp-{name}-laptop.png"))
        page.goto(f"/admin/turnengine/match/{done.pk}/change/")
        page.locator("details.moderation-section summary").click()  # the raw state's box, styled from a file
        assert page.locator("pre.raw-state").evaluate("node => getComputedStyle(node).overflow") == "auto"
    finally:
        context.close()
    assert errors == []
