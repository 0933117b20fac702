"""Perudo in a real browser: players sign up, open and join a table and play by clicking the board's controls.

Who opens round 1 is drawn at random, so each test first finds the page that shows the bid picker.
"""

import pytest

from tests.e2e.conftest import choose_custom_rules, open_table, screenshot

pytestmark = [pytest.mark.e2e, pytest.mark.frontend]


def _script_errors(*pages) -> list:
    """Collect the JavaScript errors of the pages (the test asserts there are none)."""
    errors: list = []
    for page in pages:
        page.on("pageerror", lambda error: errors.append(error))
    return errors


def _wait_for_board(*pages) -> None:
    for page in pages:
        page.wait_for_selector(".perudo .perudo-turn-line")


def _opener(*pages):
    """The page of the player who opens the round (the only one with the bid button), and the others."""
    _wait_for_board(*pages)
    opener = next(page for page in pages if page.locator(".perudo-bid-go").count())
    return opener, [page for page in pages if page is not opener]


def _bid(page, quantity: int, face: int) -> None:
    """Choose a face and a quantity in the picker, then press the bid button."""
    page.click(f"label[for=perudo-face-{face}]")
    while int(page.input_value(".perudo-qty-input")) < quantity:
        page.click("[data-key=plus]")
    page.click(".perudo-bid-go")


def _settled(page):
    """Let the reveal and roll animations finish before a screenshot."""
    page.wait_for_function("() => document.getAnimations().every((a) => a.playState !== 'running')")
    return page


def _join_and_start(host, guests, options: dict) -> None:
    """The host opens a table for 1 + len(guests) players with ``options``, everyone joins, the host starts."""
    host.goto("/play/perudo/")
    host.locator("[name=num_players]").select_option(str(1 + len(guests)))
    choose_custom_rules(host)
    for name, value in options.items():
        host.locator(f"[name={name}]").set_checked(bool(value))
    host.click("form.stacked button[type=submit]")
    host.wait_for_url("**/table/*/")
    path = "/" + host.url.split("/", 3)[3]
    for guest in guests:
        guest.goto(path)
        guest.click("form[action$='/join/'] button")
        guest.wait_for_selector("form[action$='/leave/']")
    host.wait_for_selector("form[action$='/start/'] button:not([disabled])")
    host.click("form[action$='/start/'] button")
    for page in (host, *guests):
        page.wait_for_selector("[data-table]")


def _play_bid_and_dudo(host, guest) -> tuple:
    opener, (other,) = _opener(host, guest)
    # The opener sees their five dice, the picker (Pacos closed at the opening) and no Dudo button.
    assert opener.locator(".perudo-my-dice .perudo-die").count() == 5
    assert opener.locator("#perudo-face-1").is_disabled()
    assert opener.locator("button.perudo-dudo").count() == 0
    _bid(opener, 2, 5)
    other.wait_for_selector(".perudo-current-bid :text('2 fives')")
    assert other.locator(".perudo-seat-cup.perudo-designated").count() == 1
    # The answer offers the Paco conversion and Dudo.
    assert other.locator(".perudo-hint", has_text="Switching to Pacos needs at least 1 Paco").count() == 1
    other.click("button.perudo-dudo")
    return opener, other


def _assert_reveal(page, call: str, players: int) -> None:
    """The reveal panel names the call and shows every cup's dice (five each in round 1)."""
    reveal = page.locator("[data-reveal]")
    reveal.wait_for()
    assert call in reveal.locator("h2").inner_text()
    assert reveal.locator(".perudo-reveal-hand").count() == players
    assert reveal.locator(".perudo-reveal-hand .perudo-die").count() == 5 * players
    assert reveal.locator(".perudo-reveal-hand .perudo-die.perudo-counted").count() == int(
        reveal.locator(".perudo-total-count").inner_text()
    )


def test_a_bid_and_a_dudo_reveal_every_cup_and_cost_a_die(new_player):
    host, guest = new_player("ana"), new_player("bruno")
    errors = _script_errors(host, guest)
    open_table(host, guest, "perudo", {"opt_lostDiceVisible": True})
    _play_bid_and_dudo(host, guest)
    for page in (host, guest):
        _assert_reveal(page, "Dudo", 2)
        result = page.locator(".perudo-reveal-result").inner_text()
        assert "loses a die" in result
        page.wait_for_selector("[data-log] li:has-text('calls Dudo on 2 fives')")
        page.wait_for_selector("[data-log] li:has-text('loses a die (4 dice left)')")
        # lostDiceVisible: the loser's cup now shows 4, the total is 9, and round 2 has begun.
        assert page.locator(".perudo-seat-cup .perudo-cup-count", has_text="4").count() == 1
        assert page.locator(".perudo-pill", has_text="9 dice in play").count() == 1
        assert page.locator(".perudo-pill.perudo-round", has_text="Round 2").count() == 1
        assert page.locator(".perudo-reveal .perudo-change.perudo-lost").count() == 1
    # The loser opens round 2; their first bid closes the reveal on both pages.
    screenshot(_settled(host), "perudo-desktop-host")
    screenshot(_settled(guest), "perudo-desktop-guest")
    opener, (other,) = _opener(host, guest)
    assert opener.locator(".perudo-my-dice .perudo-die").count() == 4
    _bid(opener, 1, 3)
    for page in (host, guest):
        page.wait_for_selector(".perudo-current-bid :text('1 three')")
        assert page.locator("[data-reveal]").count() == 0
    assert not errors


def test_the_board_fits_a_phone_screen(new_player):
    phone, guest = new_player("carla", phone=True), new_player("dario")
    errors = _script_errors(phone, guest)
    open_table(phone, guest, "perudo")
    _play_bid_and_dudo(phone, guest)
    _assert_reveal(phone, "Dudo", 2)
    # Without lostDiceVisible the other cup's count is hidden and the log still tells who lost a die.
    assert phone.locator(".perudo-seat-cup .perudo-cup-count", has_text="?").count() == 1
    phone.click("[data-side-open]")  # on a phone the log is in a drawer
    phone.wait_for_selector("[data-log] li:has-text('loses a die.')")
    phone.click("[data-side-close]")
    width = phone.evaluate("document.documentElement.scrollWidth")
    assert width <= 375, f"the page scrolls sideways on a phone ({width}px)"
    screenshot(_settled(phone), "perudo-phone")
    assert not errors


def test_salsa_out_of_turn_bid_and_calza(new_player):
    host, second, third = new_player("elena"), new_player("fabio"), new_player("gina")
    errors = _script_errors(host, second, third)
    _join_and_start(host, [second, third], {"opt_calza": True, "opt_salsa": True})
    opener, others = _opener(host, second, third)
    _bid(opener, 1, 4)
    for page in others:
        page.wait_for_selector(".perudo-current-bid :text('1 four')")
    # The designated player raises in turn; the third one may bid out of turn (Salsa).
    salsa = next(page for page in others if page.locator("legend", has_text="Bid out of turn").count())
    designated = next(page for page in others if page is not salsa)
    assert designated.locator("legend", has_text="Raise the bid").count() == 1
    # The Salsa bidder's page highlights the designated next player's cup, not their own.
    designated_seat = designated.locator(".perudo-seat-cup.perudo-me").get_attribute("data-seat")
    assert salsa.locator(".perudo-seat-cup.perudo-designated").get_attribute("data-seat") == designated_seat
    _bid(salsa, 2, 4)
    for page in (opener, designated, salsa):
        page.wait_for_selector("[data-log] li:has-text('bids 2 fours (out of turn)')")
    # Play resumes left of the out-of-turn bidder (the opener); the skipped player calls Calza out of turn.
    opener.wait_for_selector(".perudo-turn-line.perudo-mine")
    designated.wait_for_selector("button.perudo-calza")
    designated.click("button.perudo-calza")
    for page in (opener, designated, salsa):
        _assert_reveal(page, "Calza", 3)
        page.wait_for_selector("[data-log] li:has-text('calls Calza on 2 fours')")
        assert (
            page.locator(".perudo-reveal .perudo-change").count() == 1
            or "no die to regain" in page.locator(".perudo-reveal-result").inner_text()
        )
    screenshot(_settled(designated), "perudo-salsa-calza")
    assert not errors
