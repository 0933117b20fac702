"""The table log's connection lines, only for real disconnections: a player who reloads the page or switches its
language within the table's grace writes nothing in anyone's log (the players' bar said "reconnecting…"
meanwhile); a player who comes back after the grace writes one line, "connected again after 0:04 away", and it is
still there, in its place, after the other player reloads."""

from __future__ import annotations

import pytest

from tests.e2e.test_table_layout_e2e import _login, _table

pytestmark = pytest.mark.e2e

GRACE_SECONDS = 3


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
        # Within the grace: two reloads and a language switch (the form reloads the page in Italian, then English).
        for _ in range(2):
            mover.reload()
            mover.wait_for_selector("[data-board] > *")
        for language in ("it", "en"):
            mover.select_option("#language", language)
            mover.wait_for_function(f"() => document.documentElement.lang === '{language}'")
            mover.wait_for_selector("[data-board] > *")
        _online(page, 0)
        assert _log_lines(page) == [] and _log_lines(mover) == []

        # Away for longer than the grace, then back.
        mover.goto("/")
        page.wait_for_function(
            "() => document.querySelector(\"[data-conn-seat='0']\").textContent.includes('reconnecting')"
        )
        page.wait_for_timeout(GRACE_SECONDS * 1000 + 500)
        mover.goto(f"/table/{match.pk}/")
        page.wait_for_selector("[data-log] li.notice")
        (line,) = _log_lines(page)
        assert line.startswith(f"{users[0].username} is connected again after 0:0") and line.endswith(" away.")
        page.reload()
        page.wait_for_selector("[data-log] li.notice")
        assert _log_lines(page) == [line]
        assert not errors
    finally:
        mover_context.close()
        context.close()
