"""A newcomer's whole game: a guest clicks "Play now" on the home page, plays Perudo against three computer players
to the result screen, then clicks "Play again" and finds the same computer players at a new, started table.

Nothing is played for the guest: the guest's moves are clicks on the table's own controls (Dudo when it is offered,
else the bid the picker proposes), and the computer players are moved by the live server's Celery worker, as in
production (tests/e2e/conftest.py). Calling Dudo at every turn loses dice fast, so the guest is usually out early
and watches the computer players finish the game, as a player who lost would.
"""

from __future__ import annotations

import time

import pytest
from playwright.sync_api import Error as PlaywrightError

from lobby import services as lobby
from tests.e2e.conftest import ARTIFACTS, play_now
from turnengine import timers, writer
from turnengine.models import Match

pytestmark = pytest.mark.e2e

GAME_TIMEOUT_SECONDS = 45  # about 10 s here; generous for a loaded machine
# What the guest clicks when it is their turn, in this order of preference.
MOVES = ("button.perudo-dudo", ".perudo-bid-go")


def _play_to_the_result(page) -> int:
    """Click the guest's move whenever the page offers one, until the result screen shows; returns the clicks."""
    clicks = 0
    deadline = time.monotonic() + GAME_TIMEOUT_SECONDS
    while time.monotonic() < deadline:
        if page.locator("[data-result] [data-play-again]").is_visible():
            return clicks
        for selector in MOVES:
            control = page.locator(f".perudo {selector}:not([disabled])")
            if not (control.count() and control.first.is_visible()):
                continue
            try:
                button = control.first.element_handle(timeout=1000)
                button.click(timeout=1000)
                clicks += 1
                # the move is made when the page draws the next state (a new board without this button)
                button.wait_for_element_state("hidden", timeout=5000)
            except PlaywrightError:
                pass  # a computer player's move redrew the controls first: look again
            break
        else:
            page.wait_for_timeout(100)
    raise AssertionError(f"no result screen after {GAME_TIMEOUT_SECONDS} s ({clicks} moves made)")


def test_a_guest_plays_a_whole_game_against_the_computer_then_plays_again(
    browser, live_url, transactional_db
):
    context = browser.new_context(viewport={"width": 1280, "height": 800}, base_url=live_url)
    page = context.new_page()
    page.set_default_timeout(10_000)
    errors: list = []
    page.on("pageerror", lambda error: errors.append(str(error)))
    try:
        play_now(page, "perudo", "easy")
        page.wait_for_selector(".perudo-my-dice .perudo-die")
        first = Match.objects.get()
        computer_seats = {seat.index: seat.user.username for seat in first.seats.filter(user__is_bot=True)}
        assert sorted(computer_seats) == first.bot_seats == [1, 2, 3]

        clicks = _play_to_the_result(page)

        first.refresh_from_db()
        assert first.status == Match.Status.FINISHED
        assert clicks >= 1  # the guest played through the page
        assert first.actions.filter(seat=0).exclude(action__type="timeout").count() >= 1
        ranking = [seat for group in first.result["ranking"] for seat in group]
        assert sorted(ranking) == [0, 1, 2, 3]
        result = page.locator("[data-result]")
        assert result.locator("tbody tr").count() == 4
        page.screenshot(path=str(ARTIFACTS / "play-now-perudo-result-1280x800.png"))

        page.click("[data-play-again]")
        page.wait_for_url(lambda url: f"/table/{first.pk}/" not in url)
        rematch = Match.objects.get(rematch_of=first)
        assert page.url.endswith(f"/table/{rematch.pk}/")
        # The only human accepted: the new table starts at once, with the same computer players in the same seats.
        assert rematch.status == Match.Status.ACTIVE
        assert rematch.bot_seats == first.bot_seats
        assert {
            seat.index: seat.user.username for seat in rematch.seats.filter(user__is_bot=True)
        } == computer_seats
        assert rematch.seats.get(index=0).user == first.seats.get(index=0).user
        page.wait_for_selector(".perudo-my-dice .perudo-die")
        assert page.locator(".perudo-my-dice .perudo-die").count() == 5
        shown = page.locator("[data-players] li").all_inner_texts()
        assert all(name in " ".join(shown) for name in computer_seats.values())
        assert not errors
    finally:
        context.close()



PAIRS = 6
SIZES = [(1280, 800), (1440, 900), (375, 812), (812, 375)]
LANGUAGES = ["en", "fr", "it"]
PLAY_NOW = "document.querySelector(\"form[action='/play/perudo/now/'] button[type=submit]\").click()"
# The table page's own token still passes Django's CSRF check: "Play again" (a POST with it) would not be refused.
TOKEN_ACCEPTED = """async () => {
  const root = document.querySelector("[data-table]");
  const body = new URLSearchParams({ csrfmiddlewaretoken: root.dataset.csrf });
  const answer = await fetch(root.dataset.rematchUrl, { method: "POST", body, redirect: "manual" });
  return answer.status !== 403;
}"""


def _guest_page(browser, live_url, index):
    width, height = SIZES[index % len(SIZES)]
    context = browser.new_context(viewport={"width": width, "height": height}, base_url=live_url)
    language = LANGUAGES[index % len(LANGUAGES)]
    context.add_cookies([{"name": "django_language", "value": language, "url": live_url}])
    page = context.new_page()
    page.set_default_timeout(15_000)
    return context, page


def _stop(match_id: int) -> None:
    """Stop a table the test is done with: its computer players would go on playing it."""
    with writer.locked(match_id) as change:
        timers.match_abort(change)


@pytest.fixture
def waiting_table(make_user, transactional_db):
    """A friendly table waiting for players: the home page's list offers a guest its Join button."""
    return lobby.table_create(user=make_user(), game="spicy", num_players=3, options={}, ranked=False)


def test_guests_clicking_play_now_together_keep_a_working_csrf_token(browser, live_url, waiting_table):
    """Two visitors click "Play now" at the same moment, pair after pair, at each size and in each language: each
    one's new table makes the other's home page fetch the open tables again (issue 35: a fetch sent before the
    click's log-in and answered after it put the old CSRF cookie back). The table page's token keeps working."""
    for pair in range(PAIRS):
        opened = [_guest_page(browser, live_url, 2 * pair + index) for index in range(2)]
        try:
            for _context, page in opened:
                with page.expect_response(lambda response: "/tables/open/" in response.url):
                    page.goto("/")  # the lobby socket is open once it fetched the list on opening
            for _context, page in opened:
                page.evaluate(PLAY_NOW)
            for _context, page in opened:
                page.wait_for_url("**/table/*/")
                page.wait_for_selector(".perudo-my-dice .perudo-die")
            for _context, page in opened:
                page.wait_for_timeout(300)  # a list fetch still under way lands meanwhile
                assert page.evaluate(TOKEN_ACCEPTED), f"pair {pair}: the table page's CSRF token is refused"
        finally:
            for context, page in opened:
                match_id = int(page.url.rstrip("/").rsplit("/", 1)[1]) if "/table/" in page.url else None
                context.close()
                if match_id:
                    _stop(match_id)


def test_a_list_fetch_answered_after_play_now_cannot_spoil_play_again(browser, live_url, waiting_table):
    """The race made certain: the home page fetched the open tables with the cookie from before the guest's
    "Play now" log-in, and the answer arrives once the table page has loaded (sent here through the browser
    context's own request client, which shares its cookies). The answer sets no cookie, so the table's token
    stays valid: the guest plays the game to its end and plays again."""
    context, page = _guest_page(browser, live_url, 0)
    try:
        page.goto("/")
        before = {cookie["name"]: cookie["value"] for cookie in context.cookies()}["csrftoken"]
        page.evaluate(PLAY_NOW)
        page.wait_for_url("**/table/*/")
        page.wait_for_selector(".perudo-my-dice .perudo-die")
        late = context.request.get("/tables/open/", headers={"Cookie": f"csrftoken={before}"})
        assert late.ok
        assert page.evaluate(TOKEN_ACCEPTED), "the table page's CSRF token is refused"

        errors: list = []
        page.on("pageerror", lambda error: errors.append(str(error)))
        _play_to_the_result(page)
        finished = page.url
        page.click("[data-play-again]")
        page.wait_for_url(lambda url: url != finished and "/table/" in url)
        page.wait_for_selector(".perudo-my-dice .perudo-die")
        assert not errors
    finally:
        context.close()
