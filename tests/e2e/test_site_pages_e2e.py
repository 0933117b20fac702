"""The site's pages in the real browser at a laptop and a phone size: no page scrolls sideways at 375 px, every
site page passes axe-core, and a visitor without an account plays at once with "Play now".

Viewport screenshots (what the player sees first, not the whole page) go to ``test-artifacts/site-*.png``.
The table's own audits (turn, reveal, result) are the table tests'; here the table, result and replay pages are
checked for overflow only.
"""

from __future__ import annotations

import pytest

from lobby import services as lobby
from tests.conftest import PASSWORD, play_to_the_end
from tests.e2e.axe import assert_accessible
from tests.e2e.conftest import ARTIFACTS, play_now
from turnengine.models import Match

pytestmark = pytest.mark.e2e

SIZES = {"laptop": (1280, 800), "phone": (375, 812)}


def _context(browser, live_url, size: str):
    width, height = SIZES[size]
    context = browser.new_context(viewport={"width": width, "height": height}, base_url=live_url)
    page = context.new_page()
    page.set_default_timeout(10_000)
    return context, page


def _look(page, name: str, size: str, *, audit: bool) -> None:
    """Viewport screenshot, no sideways scrolling, and (on the site's own pages) no axe-core violation."""
    ARTIFACTS.mkdir(exist_ok=True)
    page.screenshot(path=str(ARTIFACTS / f"site-{name}-{size}.png"))
    width = page.evaluate("document.documentElement.scrollWidth")
    assert width <= SIZES[size][0], f"{name} scrolls sideways at {SIZES[size][0]} px ({width} px)"
    if audit:
        assert_accessible(page, f"{name} at {size} size")


def _look_at_every_size(page, name: str, *, audit: bool) -> None:
    """The page as loaded, at the phone and then the laptop size (one load, one axe-core injection)."""
    for size, (width, height) in SIZES.items():
        page.set_viewport_size({"width": width, "height": height})
        page.evaluate("window.scrollTo(0, 0)")
        _look(page, name, size, audit=audit)


@pytest.mark.frontend
def test_every_site_page_fits_the_screen_and_passes_axe(browser, live_url, transactional_db, make_user):
    ana, bruno = make_user("ana"), make_user("bruno")
    waiting = lobby.table_create(
        user=ana, game="perudo", num_players=3, options={"calza": True}, ranked=False
    )
    playing = lobby.table_create(user=ana, game="spicy", num_players=2, options={}, ranked=False)
    lobby.table_join(user=bruno, match_id=playing.pk)
    lobby.table_start(user=ana, match_id=playing.pk)
    done = lobby.table_create(user=ana, game="perudo", num_players=2, options={}, ranked=True)
    lobby.table_join(user=bruno, match_id=done.pk)
    lobby.table_start(user=ana, match_id=done.pk)
    play_to_the_end(Match.objects.get(pk=done.pk), [ana, bruno])

    context, page = _context(browser, live_url, "phone")
    try:
        for name, path in [("login", "/accounts/login/"), ("signup", "/accounts/signup/")]:
            page.goto(path)
            _look_at_every_size(page, name, audit=True)
        page.goto("/accounts/login/")
        page.fill("#id_username", "ana")
        page.fill("#id_password", PASSWORD)
        page.click("form.stacked button[type=submit]")
        page.wait_for_url(lambda url: "/login/" not in url)
        site_pages = [
            ("home", "/"),
            ("lobby", "/play/perudo/"),
            ("waiting", f"/table/{waiting.pk}/"),
            ("profile", "/accounts/u/ana/"),
            ("leaderboard", "/leaderboard/chinesecheckers/4p/"),
            ("howto-perudo", "/how-to-play/perudo/"),
            ("howto-spicy", "/how-to-play/spicy/"),
            ("howto-chinesecheckers", "/how-to-play/chinesecheckers/"),
        ]
        for name, path in site_pages:
            page.goto(path)
            _look_at_every_size(page, name, audit=True)
        page.set_viewport_size({"width": SIZES["phone"][0], "height": SIZES["phone"][1]})
        page.goto("/play/spicy/")
        # A preset shows its values in the folded fields; touching one of them makes the rules custom.
        page.check("input[name=preset][value=spiceItUp]")
        page.locator("details.custom-options > summary").click()
        assert page.locator("[name=opt_spiceItUp][value='\"random1\"']").is_checked()
        page.locator("[name=opt_handSize]").fill("7")
        page.locator("[name=opt_handSize]").dispatch_event("change")
        assert page.locator("input[name=preset][value=custom]").is_checked()
        page.wait_for_selector("details.custom-options[open]")
        page.locator("details.custom-options").scroll_into_view_if_needed()
        _look(page, "form-custom", "phone", audit=True)
        for name, path in [
            ("table", f"/table/{playing.pk}/"),
            ("result", f"/table/{done.pk}/"),
            ("replay", f"/table/{done.pk}/replay/"),
        ]:
            page.goto(path)
            page.wait_for_selector("[data-players] li")
            _look_at_every_size(page, name, audit=False)
    finally:
        context.close()


def test_play_now_as_a_guest_starts_a_table_against_computer_players(browser, live_url, transactional_db):
    context, page = _context(browser, live_url, "phone")
    try:
        play_now(page, "perudo", "hard")
        page.wait_for_selector("[data-players] li:nth-child(4)")
        names = page.locator("[data-players] li").all_inner_texts()
        assert names[0].startswith("guest-") and all("bot-hard" in name for name in names[1:])
        page.wait_for_selector(".perudo-my-dice .perudo-die")
        assert page.locator(".perudo-my-dice .perudo-die").count() == 5  # the game has started: my dice are rolled
        _look(page, "play-now-table", "phone", audit=False)
        match = Match.objects.get()
        assert match.status == Match.Status.ACTIVE and not match.ranked
        assert match.created_by.is_guest and len(match.bot_seats) == 3
        page.goto("/")
        assert page.locator("#level-perudo").input_value() == "hard"  # the level is remembered
        page.click("header a.keep-link")
        page.wait_for_url("**/accounts/keep/")
        _look(page, "keep-account", "phone", audit=True)
    finally:
        context.close()
