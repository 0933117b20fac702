"""Chinese Checkers in a real browser: two players move marbles by clicking (and with the keyboard) until a chain
of two hops is possible, play it, and both pages show it; the guest sees the board turned, a phone spectator
sees it without horizontal scrolling, and the replay page draws it read-only."""

from __future__ import annotations

import pytest

from games.chinesecheckers.rules import RULES
from tests.e2e.conftest import open_table, screenshot

pytestmark = [pytest.mark.e2e, pytest.mark.frontend]


def key(cube) -> str:
    return ",".join(str(value) for value in cube)


def hops(move) -> int:
    step = max(abs(a - b) for a, b in zip(move["from"], move["to"], strict=True)) == 1
    return 0 if step else len(move["path"])


def script_to_a_hop_chain(max_plies: int = 4):
    """Breadth-first over move sequences from the start (seat 0 first): the shortest list of (seat, move) after
    which the seat to act has a chain of at least two hops, and that chain."""
    start = RULES.initial_state({"firstPlayer": "seat0"}, 2)
    frontier = [(start, [])]
    for _ply in range(max_plies + 1):
        following = []
        for state, script in frontier:
            seat = state["turn"]
            moves = RULES.view(state, seat)["moves"]
            chains = [move for move in moves if hops(move) >= 2]
            if chains:
                return script, seat, chains[0]
            for move in moves:
                action = {"type": "move", "from": move["from"], "to": move["to"]}
                following.append((RULES.apply_action(state, seat, action)[0], [*script, (seat, move)]))
        frontier = following
    raise AssertionError("no hop chain within reach")


def marble(page, cube, seat):
    return page.locator(f"[data-board] .cc-marble[data-cell='{key(cube)}'][data-seat='{seat}']")


def centre_y(page, seat) -> float:
    """The mean screen height of a seat's marbles (larger is lower on the screen)."""
    return page.evaluate(
        """(seat) => { const ys = [...document.querySelectorAll(`[data-board] .cc-marble[data-seat="${seat}"]`)]
             .map((node) => { const box = node.getBoundingClientRect(); return box.top + box.height / 2; });
           return ys.reduce((a, b) => a + b, 0) / ys.length; }""",
        seat,
    )


def test_players_click_their_way_to_a_two_hop_chain(new_player):
    host, guest = new_player("ana"), new_player("bruno")
    path = open_table(host, guest, "chinesecheckers", {"opt_firstPlayer": '"seat0"'})
    pages, names = {0: host, 1: guest}, {0: "ana", 1: "bruno"}
    for page in pages.values():
        page.wait_for_selector("[data-board] .cc-marble >> nth=19")
        assert page.locator("[data-board] .cc-marble").count() == 20
        assert page.locator("[data-board] .cc-hole").count() == 121
    # Each player's own start is at the bottom of their board.
    assert centre_y(host, 0) > centre_y(host, 1)
    assert centre_y(guest, 1) > centre_y(guest, 0)
    assert guest.locator("[data-board] .cc-control").count() == 0  # not the guest's turn

    script, chain_seat, chain = script_to_a_hop_chain()
    for ply, (seat, move) in enumerate(script):
        page = pages[seat]
        control = page.locator(f".cc-control[data-cell='{key(move['from'])}']")
        destination = page.locator(f".cc-dest[data-cell='{key(move['to'])}']")
        if ply == 0:
            # Keyboard: select with Enter, Escape cancels, select again with Space and move with Enter.
            control.focus()
            page.keyboard.press("Enter")
            assert destination.count() == 1
            page.keyboard.press("Escape")
            assert page.locator(".cc-dest").count() == 0
            page.locator(f".cc-control[data-cell='{key(move['from'])}']").focus()
            page.keyboard.press(" ")
            destination.focus()
            page.keyboard.press("Enter")
        else:
            control.click()
            destination.click()
        for other in pages.values():
            marble(other, move["to"], seat).wait_for()
            assert marble(other, move["from"], seat).count() == 0

    page = pages[chain_seat]
    page.locator(f".cc-control[data-cell='{key(chain['from'])}']").click()
    assert page.locator(".cc-dest").count() >= 2
    destination = page.locator(f".cc-dest[data-cell='{key(chain['to'])}']")
    assert int(destination.get_attribute("data-hops")) == hops(chain) >= 2
    assert "chain of" in destination.get_attribute("aria-label")
    destination.click()
    for other in pages.values():
        marble(other, chain["to"], chain_seat).wait_for()
        assert marble(other, chain["from"], chain_seat).count() == 0
        other.wait_for_selector(f"[data-log] li:has-text('chain of {hops(chain)} hops')")
        last_line = other.locator("[data-log] li").last.inner_text()
        assert (
            last_line.startswith(f"{names[chain_seat]} moves a marble")
            and f"chain of {hops(chain)} hops" in last_line
        )
        # The last move is highlighted: its trail runs through every landing hole.
        assert other.locator(".cc-trail").get_attribute("data-landings") == str(len(chain["path"]))
    guest.locator(".cc-control").first.wait_for()  # the guest's turn now
    for page in pages.values():
        page.wait_for_function("() => !document.querySelector('.cc-moving')")  # the hop animation has ended
    screenshot(host, "chinesecheckers-desktop-host")
    screenshot(guest, "chinesecheckers-desktop-guest")

    # A spectator on a phone: seat 0 at the bottom, no controls, no horizontal scrolling.
    watcher = new_player("carla", phone=True)
    watcher.goto(path)
    marble(watcher, chain["to"], chain_seat).wait_for()
    assert watcher.locator(".cc-control").count() == 0
    assert centre_y(watcher, 0) > centre_y(watcher, 1)
    assert watcher.evaluate("document.documentElement.scrollWidth") <= 375
    board_width = watcher.locator("[data-board] svg.cc-svg").bounding_box()["width"]
    assert 300 <= board_width <= 375
    screenshot(watcher, "chinesecheckers-phone")

    # The replay page draws the same board, read-only.
    watcher.goto(watcher.locator("[data-table]").get_attribute("data-replay-url"))
    marble(watcher, chain["to"], chain_seat).wait_for()
    assert watcher.locator(".cc-control").count() == 0
    watcher.click("[data-prev]")
    marble(watcher, chain["from"], chain_seat).wait_for()
