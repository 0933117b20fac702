"""Fair ranked play in the browser: the player who stayed in a two-player ranked game is offered "Claim the win"
once the opponent has been away past the grace, and claiming it ends the game with them as its winner."""

from __future__ import annotations

import pytest

from lobby import services as lobby
from tests.e2e.test_table_layout_e2e import _login
from turnengine.models import Match

pytestmark = pytest.mark.e2e


def test_claim_the_win_is_offered_after_the_grace_and_ends_the_game(browser, live_url, make_user, transactional_db):
    stays, leaves = make_user(), make_user()
    match = lobby.table_create(
        user=stays, game="chinesecheckers", num_players=2, options={}, ranked=True, grace_seconds=2
    )
    lobby.table_join(user=leaves, match_id=match.pk)
    lobby.table_start(user=stays, match_id=match.pk)
    gone_context, gone_page, _ = _login(browser, live_url, leaves)
    context, page, errors = _login(browser, live_url, stays)
    try:
        for each in (gone_page, page):
            each.goto(f"/table/{match.pk}/")
            each.wait_for_selector("[data-board] > *")
        assert page.locator("[data-claim]").count() == 0  # the opponent is there
        gone_context.close()
        page.wait_for_selector("[data-claim-offer]", timeout=8000)
        page.click("[data-claim]")
        page.wait_for_selector("[data-result]:has-text('The win was claimed')")
        match.refresh_from_db()
        assert match.status == Match.Status.FINISHED and match.result["ranking"] == [[0], [1]]
        assert errors == []
    finally:
        context.close()
