"""The Spicy reference player: a truthful player.

It plays only cards that are what it declares them to be (the right spice and the right number, which a wild card
never is): of those, the one with the lowest number, so that it keeps its higher cards for later; with none, it
passes and draws. Only when it must lead a new stack with no honest card does it play a card it cannot back up
(its lowest, declared with its own spice where it can). It never tucks (Change Your Luck) and copies (Copy Cat) only
with the exact card.

It takes the others to be as truthful as itself: it challenges only a trait that its own cards show to be false
(every card that could make it true is in its hand or was the last card revealed), and an opponent's last card
that would win that opponent the game outright (a second trophy), where a challenge has nothing to lose. Every
other last card is let go (decline).
"""

from __future__ import annotations

import random
from collections import Counter
from typing import Any

from games.spicy.cards import CARD_NUMBER, DECK, TURN_IT_UP, claim_holds

Action = dict[str, Any]


def declared(action: Action) -> tuple[str, int]:
    return action["declare"]["spice"], action["declare"]["number"]


def is_honest(card: str, declaration: tuple[str, int], turn_it_up: bool) -> bool:
    return claim_holds(card, "both", declaration, turn_it_up=turn_it_up)


def unseen_cards(view: dict) -> Counter:
    """The deck less the cards this seat has seen face up: its hand and the last revealed card."""
    unseen = Counter(DECK)
    unseen.subtract(view["hand"] or [])
    if view["last_challenge"]:
        unseen[view["last_challenge"]["card"]] -= 1
    return +unseen


def may_hold(unseen: Counter, trait: str, declaration: tuple[str, int], turn_it_up: bool) -> bool:
    """Could a card this seat has not seen make ``trait`` of the declaration true?"""
    return any(claim_holds(card, trait, declaration, turn_it_up=turn_it_up) for card in unseen)


def challenge(view: dict, legal: list[Action]) -> Action | None:
    """A challenge of a trait known to be false, or of an outright-winning last card; else None."""
    challenges = [action for action in legal if action["type"] == "challenge"]
    if not challenges:
        return None
    top = view["top"]
    declaration = (top["spice"], top["number"])
    turn_it_up = TURN_IT_UP in view["spice_it_up"]
    unseen = unseen_cards(view)
    for action in challenges:
        if not may_hold(unseen, action["trait"], declaration, turn_it_up):
            return action
    last = view["last_card"]
    if view["phase"] == "last_card" and last and view["trophies"][last["seat"]] >= 1:
        return challenges[0]
    return None


def lowest(actions: list[Action]) -> Action:
    return min(actions, key=lambda action: (CARD_NUMBER[action["card"]] or 11, action["card"]))


def choose(view: dict, legal: list[Action], rng: random.Random) -> Action | None:
    if not legal:
        return None
    turn_it_up = TURN_IT_UP in view["spice_it_up"]
    chosen = challenge(view, legal)
    if chosen is not None:
        return chosen
    copies = [
        action
        for action in legal
        if action["type"] == "copy"
        and not action.get("tuck")
        and is_honest(action["card"], (view["top"]["spice"], view["top"]["number"]), turn_it_up)
    ]
    if copies:
        return copies[0]
    if view["seat"] not in view["awaited"]:
        return None
    declines = [action for action in legal if action["type"] == "decline"]
    plays = [action for action in legal if action["type"] == "play" and not action.get("tuck")]
    if declines and not plays:
        return declines[0]
    honest = [action for action in plays if is_honest(action["card"], declared(action), turn_it_up)]
    if honest:
        return lowest(honest)
    passes = [action for action in legal if action["type"] == "pass"]
    if passes:
        return passes[0]
    if plays:  # must lead with no honest card
        card = lowest(plays)["card"]
        own_spice = [action for action in plays if action["card"] == card and declared(action)[0] in card]
        return (own_spice or [action for action in plays if action["card"] == card])[0]
    return legal[0]
