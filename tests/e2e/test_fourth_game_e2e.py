"""The test-only fourth game (``tests/tictactoe``) in a real browser: its board script and styles are found by
convention, two players open, join and start its table, mark squares by clicking until one has three in a row,
and both pages show the game log in words and the result."""

from __future__ import annotations

import pytest

from tests.e2e.conftest import ARTIFACTS, open_table

pytestmark = pytest.mark.e2e


def test_two_players_play_the_fourth_game_to_a_win(new_player):
    host, guest = new_player("ana"), new_player("bruno")
    open_table(host, guest, "tictactoe")
    pages = {0: host, 1: guest}
    for page in pages.values():
        page.wait_for_selector("[data-board] .tictactoe-grid button >> nth=8")
    assert host.locator("[data-board] button[data-cell]:not([disabled])").count() == 9
    assert guest.locator("[data-board] button[data-cell]:not([disabled])").count() == 0  # not bruno's turn
    # ana (X) takes the top row while bruno (O) answers in the middle row.
    for seat, cell in [(0, 0), (1, 3), (0, 1), (1, 4), (0, 2)]:
        square = pages[seat].locator(f"[data-board] button[data-cell='{cell}']:not([disabled])")
        square.click()
        for page in pages.values():
            page.wait_for_function(
                "([cell, mark]) => document.querySelector(`[data-board] button[data-cell='${cell}']`)"
                ".textContent === mark",
                arg=[cell, "XO"[seat]],
            )
    for page, title in ((host, "You win"), (guest, "You finish 2")):
        page.wait_for_selector("[data-result]:not([hidden])")
        assert title in page.inner_text("[data-result] h2")
        assert page.locator("[data-result] tbody tr").count() == 2
    assert "ana marks square 3" in host.inner_text("[data-log]")
    ARTIFACTS.mkdir(exist_ok=True)
    for width, height in ((1280, 800), (375, 812)):
        host.set_viewport_size({"width": width, "height": height})
        host.screenshot(path=str(ARTIFACTS / f"fourth-game-result-{width}x{height}.png"))
    host.click("[data-close-result]")
    for width, height in ((1280, 800), (375, 812)):
        host.set_viewport_size({"width": width, "height": height})
        host.screenshot(path=str(ARTIFACTS / f"fourth-game-board-{width}x{height}.png"))
