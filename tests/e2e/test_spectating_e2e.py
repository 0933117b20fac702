"""A visitor without an account watches a live Perudo table in a real browser: from the lobby's "Watch", the board
with no secret (every frame the visitor's socket receives is audited: no seat's dice until the reveal), the players
see them counted, quick phrases read in each reader's own language; viewport screenshots at 1280x800 and 375x812 in
English, French and Italian."""

from __future__ import annotations

import json

import pytest
from playwright.sync_api import TimeoutError as PlaywrightTimeoutError

from tests.e2e.conftest import ARTIFACTS, open_table
from tests.e2e.test_perudo_e2e import _bid, _opener

pytestmark = [pytest.mark.e2e, pytest.mark.frontend]

SIZES = {"desktop": {"width": 1280, "height": 800}, "phone": {"width": 375, "height": 812}}
WORDS = {"en": "Well played!", "fr": "Bien joué !", "it": "Ben giocato!"}


def _visitor(browser, live_url, language: str, size: str):
    context = browser.new_context(viewport=SIZES[size], base_url=live_url, locale=language)
    context.add_cookies([{"name": "django_language", "value": language, "url": live_url}])
    page = context.new_page()
    page.set_default_timeout(10_000)
    frames: list[dict] = []
    sockets: list[tuple] = []  # what the page's sockets did, in order: opened, each frame's kind, closed

    def watch(ws) -> None:
        sockets.append(("opened", ws.url))

        def received(payload) -> None:
            frame = json.loads(payload)
            frames.append(frame)
            sockets.append((frame["t"], frame.get("v"), (frame.get("d") or {}).get("code")))

        ws.on("framereceived", received)
        ws.on("close", lambda _ws: sockets.append(("closed", ws.url)))

    page.on("websocket", watch)
    return context, page, frames, sockets


def _watch_from_the_lobby(page, sockets: list[tuple], table_id: str) -> None:
    """Open the table from the lobby's "Watch" and wait for its board; if it does not come, say what the page's
    sockets did, which tells a refused or retried socket from a view that never came."""
    page.goto("/play/perudo/")
    page.click(f".table-list a[href='/table/{table_id}/'].button")
    try:
        page.wait_for_selector(".perudo .perudo-turn-line")
    except PlaywrightTimeoutError:
        raise AssertionError(f"no board at {page.url}; the page's sockets: {sockets}") from None


def _secrets_in(frame: dict) -> list:
    """Any seat's own dice in a frame (the spectators' view has ``my_dice`` null; events carry no ``visible_to``)."""
    text = json.dumps(frame)
    found = ["visible_to"] if "visible_to" in text else []
    view = (frame.get("d") or {}).get("view") or {}
    if view.get("my_dice") is not None or view.get("my_dice_count") is not None:
        found.append(view)
    return found


def test_a_visitor_watches_a_live_table_and_sees_no_secret(new_player, browser, live_url):
    host, guest = new_player("ana"), new_player("bruno")
    path = open_table(host, guest, "perudo")
    table_id = path.strip("/").split("/")[-1]
    watchers = []
    for language in ("en", "fr", "it"):
        for size in SIZES:
            context, page, frames, sockets = _visitor(browser, live_url, language, size)
            watchers.append((context, page, frames, language, size))
            _watch_from_the_lobby(page, sockets, table_id)
            assert page.locator("[data-chat-form]").count() == 0 and page.locator(".visitor-note").count() == 1
    # The players see six spectators, none logged in.
    host.wait_for_selector("[data-spectators]:not([hidden]) :text('6 watching')")
    # A bid, then a quick phrase: each visitor reads it in their language.
    opener, (other,) = _opener(host, guest)
    _bid(opener, 2, 5)
    host.click("#tab-chat")
    host.click("[data-quick=gg]")
    for _context, page, _frames, language, size in watchers:
        page.wait_for_selector(".perudo-current-bid")
        if size == "desktop":
            page.click("#tab-chat")
        else:
            page.click("[data-side-open]")
            page.click("#tab-chat")
        page.wait_for_selector(f"[data-phrase=gg]:text('{WORDS[language]}')")
        if size == "phone":
            page.click("[data-side-close]")
        page.wait_for_timeout(300)
        ARTIFACTS.mkdir(exist_ok=True)
        page.screenshot(path=str(ARTIFACTS / f"visitor-watching-{language}-{size}.png"))
    other.click("button.perudo-dudo")  # the reveal: every cup is public from here on
    for _context, page, frames, _language, _size in watchers:
        page.wait_for_selector("[data-reveal]")
        views = [frame for frame in frames if frame["t"] == "view"]
        assert views and all(frame["d"]["seat"] is None for frame in views)
        assert {frame["t"] for frame in frames} <= {"view", "presence", "spectators", "chat", "heartbeat"}
        assert [secret for frame in frames for secret in _secrets_in(frame)] == []
    for context, *_rest in watchers:
        context.close()
