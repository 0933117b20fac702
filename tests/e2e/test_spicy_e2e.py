"""Spicy in a real browser: play a card by clicking it and a declaration, challenge it, see the reveal and who took
the stack; the challenge grace countdown; Copy Cat and Change Your Luck through the page; spectators and replays."""

from __future__ import annotations

import pytest
from playwright.sync_api import expect

from tests.e2e.conftest import choose_custom_rules, open_table, screenshot

pytestmark = [pytest.mark.e2e, pytest.mark.frontend]

FAST = {"opt_challengeGraceMs": 0}


def actor_and_other(first, second):
    """The page whose player acts first (their hand cards are buttons) and the other one."""
    for page in (first, second):
        page.wait_for_selector("[data-board] [data-status]")
    first.wait_for_selector("[data-hand]")
    second.wait_for_selector("[data-hand]")
    if first.locator("[data-hand] button.spicy-card").count():
        return first, second
    return second, first


def play_first_card(page) -> tuple[str, str]:
    """Click the first card of the hand, then the first declaration offered; return (card, 'spice-number')."""
    card_button = page.locator("[data-hand] button.spicy-card").first
    card = card_button.get_attribute("data-card")
    card_button.click()
    declare = page.locator("[data-declare]").first
    declared = declare.get_attribute("data-declare")
    declare.click()
    return card, declared


def settle(page) -> None:
    """Let the reveal and landing animations finish before a screenshot."""
    page.wait_for_function(
        "() => document.getAnimations().every((a) => !(a instanceof CSSAnimation) || a.playState !== 'running')"
    )


def claim_holds(card: str, declared: str, trait: str) -> bool:
    """The rules' check, to know who must win (wilds: docs/rules/spicy.md §1)."""
    spice, number = declared.split("-")
    spice_ok = card == "wild-spice" or (card != "wild-number" and card.split("-")[0] == spice)
    number_ok = card == "wild-number" or (card != "wild-spice" and card.split("-")[1] == number)
    return {"spice": spice_ok, "number": number_ok, "both": spice_ok and number_ok}[trait]


def name_of(page) -> str:
    return page.locator(".spicy-seat.spicy-mine").get_attribute("data-label").split(" (")[0]


def expect_stack_won(pages, card: str, winner: str, count: int) -> None:
    for page in pages:
        expect(page.locator(f"[data-reveal] [data-card='{card}']")).to_be_visible()
        expect(page.locator("[data-log]")).to_contain_text(
            f"{winner} takes the stack ({count} card{'s' if count > 1 else ''})"
        )
        winner_tile = page.locator(".spicy-seat", has_text=winner)
        expect(winner_tile).to_have_attribute("data-won", str(count))
        expect(page.locator("[data-stack-size]")).to_have_attribute("data-stack-size", "0")


def test_play_a_card_and_challenge_it(new_player):
    host, guest = new_player("ana"), new_player("bruno")
    path = open_table(host, guest, "spicy", FAST)
    actor, other = actor_and_other(host, guest)
    expect(actor.locator("[data-status]")).to_contain_text("Your turn")

    card, declared = play_first_card(actor)
    for page in (host, guest):
        expect(page.locator("[data-stack-size]")).to_have_attribute("data-stack-size", "1")
    expect(other.locator("[data-status]")).to_contain_text("challenge")
    other.click("[data-challenge=spice]")

    winner = name_of(actor) if claim_holds(card, declared, "spice") else name_of(other)
    expect_stack_won((host, guest), card, winner, 1)
    loser_page = other if winner == name_of(actor) else actor
    expect(loser_page.locator("[data-status]")).to_contain_text("start a new stack")
    for page, name in ((host, "spicy-desktop-host"), (guest, "spicy-desktop-guest")):
        settle(page)
        screenshot(page, name)

    # A spectator sees the table read-only: the stack and the reveal, no hand and no buttons.
    watcher = new_player("carla")
    watcher.goto(path)
    expect(watcher.locator(f"[data-reveal] [data-card='{card}']")).to_be_visible()
    assert watcher.locator("[data-hand]").count() == 0
    assert watcher.locator("[data-board] button:not(.spicy-reveal-hide)").count() == 0

    # The replay page draws the same board without action buttons (as a spectator: see the report about a
    # player's own replay of a running match).
    watcher.goto(path + "replay/")
    expect(watcher.locator(f"[data-board] [data-reveal] [data-card='{card}']")).to_be_visible()
    assert watcher.locator("[data-board] button:not(.spicy-reveal-hide)").count() == 0


def test_the_grace_countdown_holds_the_next_play(new_player):
    host, guest = new_player("dora"), new_player("emil", phone=True)
    open_table(host, guest, "spicy", {"opt_challengeGraceMs": 3})
    actor, other = actor_and_other(host, guest)

    play_first_card(actor)
    # Everyone sees the countdown; the next player cannot play yet but may already choose a card and challenge.
    expect(other.locator("[data-grace]")).to_be_visible()
    expect(actor.locator("[data-grace]")).to_be_visible()
    other.locator("[data-hand] button.spicy-card").first.click()
    expect(other.locator("[data-challenge=number]")).to_be_enabled()
    declarations = other.locator("[data-declare]")
    assert declarations.count() > 0
    expect(declarations.first).to_be_disabled()
    if other is guest:
        settle(guest)
        screenshot(guest, "spicy-phone")

    # When the countdown is over the declarations open up and the play goes through.
    expect(other.locator("[data-grace]")).to_have_count(0, timeout=8000)
    expect(declarations.first).to_be_enabled()
    declarations.first.click()
    for page in (host, guest):
        expect(page.locator("[data-stack-size]")).to_have_attribute("data-stack-size", "2")
    expect(actor.locator("[data-grace]")).to_be_visible()
    if actor is guest:
        settle(guest)
        screenshot(guest, "spicy-phone")

    # Challenges are never held back: the first player challenges the second card's number at once.
    actor.click("[data-challenge=number]")
    for page in (host, guest):
        expect(page.locator("[data-reveal]")).to_be_visible()
        expect(page.locator("[data-log]")).to_contain_text("takes the stack (2 cards)")
    assert host.evaluate("document.documentElement.scrollWidth") <= 1280
    assert guest.evaluate("document.documentElement.scrollWidth") <= 375


def open_with_spice_it_up(host, guest, cards: list[str]) -> None:
    """open_table with Spice It Up! cards ticked (a multiple choice, which open_table's fields cannot express)."""
    host.goto("/play/spicy/")
    choose_custom_rules(host)
    for card in cards:
        host.locator(f"[name=opt_spiceItUp][value='\"{card}\"']").check()
    host.locator("[name=opt_challengeGraceMs]").fill("0")
    host.click("form.stacked button[type=submit]")
    host.wait_for_url("**/table/*/")
    guest.goto("/" + host.url.split("/", 3)[3])
    guest.click("form[action$='/join/'] button")
    host.wait_for_selector("form[action$='/start/'] button:not([disabled])")
    host.click("form[action$='/start/'] button")
    host.wait_for_selector("[data-table]")
    guest.wait_for_selector("[data-table]")


def test_change_your_luck_tuck_and_copy_cat(new_player):
    host, guest = new_player("fina"), new_player("gino")
    open_with_spice_it_up(host, guest, ["change_your_luck", "copy_cat"])
    actor, other = actor_and_other(host, guest)
    for page in (host, guest):
        expect(page.locator(".spicy-variants")).to_contain_text("Change Your Luck")
        expect(page.locator(".spicy-variants")).to_contain_text("Copy Cat")

    play_first_card(actor)
    expect(other.locator("[data-stack-size]")).to_have_attribute("data-stack-size", "1")

    # The other player declares a 5 and tucks one more card under it.
    other.locator("[data-hand] button.spicy-card").first.click()
    other.locator("[data-declare$='-5']").click()
    other.locator("[data-tuck]").first.click()
    expect(other.locator("[data-tuck-confirm]")).to_have_text("Play, tucking 1 card")
    other.click("[data-tuck-confirm]")
    for page in (host, guest):
        expect(page.locator("[data-stack-size]")).to_have_attribute("data-stack-size", "3")
        expect(page.locator("[data-log]")).to_contain_text("They tuck 1 card under it.")

    # The first player copies that 5 out of turn (a copy of a 5 may tuck too: none here).
    actor.locator("[data-hand] button.spicy-card").first.click()
    copied = actor.locator("[aria-pressed=true].spicy-card").get_attribute("data-card")
    actor.click("[data-copy]")
    expect(actor.locator("[data-tuck-confirm]")).to_have_text("Play, tucking 0 cards")
    actor.click("[data-tuck-confirm]")
    expect(other.locator("[data-stack-size]")).to_have_attribute("data-stack-size", "4")
    expect(other.locator("[data-top] .spicy-copy-badge")).to_be_visible()

    # A copy is challenged on spice and number together.
    declared = other.locator("[data-top]").get_attribute("data-top")
    other.click("[data-challenge=both]")
    winner = name_of(actor) if claim_holds(copied, declared, "both") else name_of(other)
    expect_stack_won((host, guest), copied, winner, 4)
    settle(actor)
    screenshot(actor, "spicy-copy-cat")


def test_last_cards_declined_until_a_second_trophy_ends_the_game(new_player):
    host, guest = new_player("hana"), new_player("ivo")
    # A grace period the opponent can decline within: the live server's worker applies the engine's decline at its
    # end (with no grace at all, the engine declines for them at once).
    open_table(host, guest, "spicy", {"opt_challengeGraceMs": 20, "opt_handSize": 1, "opt_trophyRefill": 1})
    first, second = actor_and_other(host, guest)
    winner = name_of(first)

    # One card each: every play is a last card, which the opponent declines; a second trophy wins outright.
    for player, opponent in ((first, second), (second, first), (first, second)):
        play_first_card(player)
        expect(opponent.locator("[data-status]")).to_contain_text("played their last card")
        opponent.click("[data-decline]")

    for page in (host, guest):
        scores = page.locator(".spicy-scores")
        expect(scores).to_contain_text(f"{winner} took a second trophy and wins outright")
        expect(scores.locator("tr.spicy-winner")).to_contain_text(winner)
        expect(page.locator("[data-log]")).to_contain_text(f"{winner} wins a trophy! 2 trophies left.")
        assert page.locator("[data-board] button:not(.spicy-reveal-hide)").count() == 0
    settle(host)
    screenshot(host, "spicy-game-over")
