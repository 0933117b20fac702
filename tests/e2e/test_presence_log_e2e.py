"""The table log's connection lines survive a reload: a player closes their browser, the other page says so in its
log, and after reloading that page the line is still there, in its place before the moves that followed."""

from __future__ import annotations

import pytest

from lobby import services as lobby
from tests.e2e.test_table_layout_e2e import _login
from turnengine import services

pytestmark = pytest.mark.e2e


@pytest.fixture
def players(make_user, transactional_db):
    return [make_user() for _ in range(2)]


def _log_lines(page) -> list[str]:
    return page.eval_on_selector_all("[data-log] li", "items => items.map((item) => item.textContent)")


def test_a_lost_connection_line_is_still_in_the_log_after_a_reload(browser, live_url, players):
    match = lobby.table_create(
        user=players[0],
        game="chinesecheckers",
        num_players=2,
        options={},
        ranked=False,
        time_control="normal",
    )
    lobby.table_join(user=players[1], match_id=match.pk)
    lobby.table_start(user=players[0], match_id=match.pk)
    match.refresh_from_db()
    gone_context, gone_page, _ = _login(browser, live_url, players[0])
    context, page, errors = _login(browser, live_url, players[1])
    try:
        for each in (gone_page, page):
            each.goto(f"/table/{match.pk}/")
            each.wait_for_selector("[data-board] > *")
        page.wait_for_function("document.querySelector(\"[data-conn-seat='0']\").textContent === ''")
        gone_context.close()
        page.wait_for_selector("[data-log] li.notice", timeout=5000)
        # A move after the disconnection (made here, so only a fresh snapshot shows it): the line comes before it.
        match.refresh_from_db()
        seat = min(match.rules.awaited(match.state))
        services.match_apply_action(
            match_id=match.pk,
            user=players[seat],
            expected_version=match.version,
            action=match.rules.legal_actions(match.state, seat)[0],
        )
        live = _log_lines(page)
        page.reload()
        page.wait_for_selector("[data-log] li.notice")
        reloaded = _log_lines(page)
        # (The reload itself closed and reopened this page's socket: its own lines are there too.)
        lost = [line for line in reloaded if line == f"{players[0].username} lost the connection."]
        assert len(lost) == 1
        assert reloaded.index(lost[0]) < len(reloaded) - 1, "the move's line follows the disconnection"
        assert [line for line in live if line == lost[0]] == lost
        assert not errors
    finally:
        context.close()
