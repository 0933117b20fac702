"""The table log's connection lines, only for real disconnections: players who reload the page or switch its
language within the table's grace write nothing in anyone's log (the players' bar said "reconnecting…"
meanwhile), checked in French, Italian and English at the four sizes, in one game; a player who comes back after
the grace writes one line, "connected again after 0:04 away", and it is still there, in its place, after the
other player reloads."""

from __future__ import annotations

import pytest

from tests.e2e.conftest import ARTIFACTS
from tests.e2e.test_table_layout_e2e import LAPTOP, SIZES, _login, _table

pytestmark = pytest.mark.e2e

GRACE_SECONDS = 3
LANGUAGES = ["fr", "it", "en"]  # English last: the line below is read in English


@pytest.fixture
def players(make_user, transactional_db):
    return make_user


def _log_lines(page) -> list[str]:
    return page.eval_on_selector_all("[data-log] li.notice", "items => items.map((item) => item.textContent)")


def _online(page, seat: int) -> None:
    page.wait_for_function(f"() => document.querySelector(\"[data-conn-seat='{seat}']\").textContent === ''")


def test_reloads_write_nothing_and_a_real_disconnection_one_line_that_survives_a_reload(
    browser, live_url, players
):
    match, users = _table(players, "chinesecheckers", grace_seconds=GRACE_SECONDS)
    mover_context, mover, _ = _login(browser, live_url, users[0])
    context, page, errors = _login(browser, live_url, users[1])
    try:
        for each in (mover, page):
            each.goto(f"/table/{match.pk}/")
            each.wait_for_selector("[data-board] > *")
        _online(page, 0)
        # Within the grace, in each language (both switch through the form, which reloads the page) and at each
        # size: a reload of each page. Nothing is written in either log.
        for language in LANGUAGES:
            for each in (mover, page):
                each.set_viewport_size({"width": LAPTOP[0], "height": LAPTOP[1]})  # the header's language menu
                each.select_option("#language", language)
                each.wait_for_function(f"() => document.documentElement.lang === '{language}'")
                each.wait_for_selector("[data-board] > *")
            for width, height in SIZES:
                for each in (mover, page):
                    each.set_viewport_size({"width": width, "height": height})
                    each.reload()
                    each.wait_for_selector("[data-board] > *")
                _online(page, 0)
                _online(mover, 1)
                assert _log_lines(page) == [] and _log_lines(mover) == [], f"in {language} at {width}x{height}"
                page.screenshot(path=str(ARTIFACTS / f"presence-{language}-{width}x{height}.png"))

        for each in (mover, page):  # the log in view beside the board
            each.set_viewport_size({"width": LAPTOP[0], "height": LAPTOP[1]})

        # Away for longer than the grace, then back: the player not to move (the computer would play for the other
        # once the grace is over, which writes its own line).
        waits = 1 - min(match.rules.awaited(match.state))
        leaves, stays = (mover, page) if waits == 0 else (page, mover)
        leaves.goto("/")
        stays.wait_for_function(
            f"() => document.querySelector(\"[data-conn-seat='{waits}']\").textContent.includes('reconnecting')"
        )
        stays.wait_for_timeout(GRACE_SECONDS * 1000 + 500)
        leaves.goto(f"/table/{match.pk}/")
        stays.wait_for_selector("[data-log] li.notice")
        (line,) = _log_lines(stays)
        assert line.startswith(f"{users[waits].username} is connected again after 0:0") and line.endswith(" away.")
        stays.reload()
        stays.wait_for_selector("[data-log] li.notice")
        assert _log_lines(stays) == [line]
        assert not errors
    finally:
        mover_context.close()
        context.close()
