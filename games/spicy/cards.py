"""Spicy's cards, declarations and challenge checks (docs/rules/spicy.md §1, §3, §4, §7): pure functions.

A card is a string: ``"<spice>-<number>"`` (``"chili-7"``) or one of the two wilds ``"wild-number"`` and
``"wild-spice"``. Copies of a card are the same string. A declaration is a ``(spice, number)`` pair.
"""

from __future__ import annotations

SPICES: tuple[str, ...] = ("chili", "wasabi", "pepper")
NUMBERS: tuple[int, ...] = tuple(range(1, 11))
HIGHEST = 10
RESTART_NUMBERS: tuple[int, ...] = (1, 2, 3)  # a new stack, or after a 10
COPIES_PER_CARD = 3
WILD_NUMBER = "wild-number"
WILD_SPICE = "wild-spice"
WILDS_PER_KIND = 5
CHILI = "chili"

# Spice It Up! cards (§7), by id.
WE_LOVE_CHILI = "we_love_chili"
START_IT_UP = "start_it_up"
SPICE_RAIDER = "spice_raider"
CHANGE_YOUR_LUCK = "change_your_luck"
TURN_IT_UP = "turn_it_up"
COPY_CAT = "copy_cat"
SPICE_IT_UP_CARDS: tuple[str, ...] = (
    WE_LOVE_CHILI,
    START_IT_UP,
    SPICE_RAIDER,
    CHANGE_YOUR_LUCK,
    TURN_IT_UP,
    COPY_CAT,
)

RAID_NUMBER = 4  # Spice Raider: a declared 4 puts the paw on the stack
LUCK_NUMBER = 5  # Change Your Luck: a declared 5 may tuck cards
MAX_TUCK = 2
TURNED_UP = frozenset({6, 9})  # Turn It Up!: 6 and 9 count as each other
START_IT_UP_FROM = 8  # Start It Up!: after a declared 8, 9 or 10 a 1-3 may follow
WILD_FOUR_NUMBER = 4  # house rule wildFour: a real 4 card stands for any number

CARD_SPICE: dict[str, str | None] = {f"{spice}-{number}": spice for spice in SPICES for number in NUMBERS}
CARD_NUMBER: dict[str, int | None] = {f"{spice}-{number}": number for spice in SPICES for number in NUMBERS}
CARD_SPICE.update({WILD_NUMBER: None, WILD_SPICE: None})
CARD_NUMBER.update({WILD_NUMBER: None, WILD_SPICE: None})
KNOWN_CARDS = frozenset(CARD_SPICE)

# The 100 Spicy cards (§1): 3 spices x 1..10 x 3 copies + 5 wild numbers + 5 wild spices.
DECK: tuple[str, ...] = tuple(
    sorted(
        [f"{spice}-{number}" for spice in SPICES for number in NUMBERS for _copy in range(COPIES_PER_CARD)]
        + [WILD_NUMBER] * WILDS_PER_KIND
        + [WILD_SPICE] * WILDS_PER_KIND
    )
)
DECK_SIZE = len(DECK)

Declaration = tuple[str, int]


def legal_declarations(
    top: Declaration | None, *, start_it_up: bool, we_love_chili: bool
) -> list[Declaration]:
    """Every declaration that may follow the top declaration ``top`` (None: a new stack), in a fixed order."""
    if top is None:
        return [(spice, number) for spice in SPICES for number in RESTART_NUMBERS]  # any spice, 1, 2 or 3
    spice, previous = top
    may_restart = previous == HIGHEST or (start_it_up and previous >= START_IT_UP_FROM)
    numbers = set(range(previous + 1, HIGHEST + 1))  # same spice, strictly higher
    if may_restart:
        numbers.update(RESTART_NUMBERS)  # after a 10 (Start It Up!: after 8-10): 1, 2 or 3
    declarations = [(spice, number) for number in sorted(numbers)]
    if may_restart and we_love_chili and spice != CHILI:
        # We Love Chili!: wherever a restart 1-3 is legal, it may be declared in chili instead.
        declarations += [(CHILI, number) for number in RESTART_NUMBERS]
    return declarations


def spice_holds(card: str, spice: str) -> bool:
    """Would ``card`` survive a "wrong spice" challenge against ``spice``? A wild spice always does, a wild number never."""
    return card == WILD_SPICE or CARD_SPICE[card] == spice


def number_holds(card: str, number: int, *, turn_it_up: bool, wild_four: bool = False) -> bool:
    """Would ``card`` survive a "wrong number" challenge? A wild number always does, a wild spice never; with the
    wildFour house rule a real 4 card does too, whatever number was declared."""
    if card == WILD_NUMBER:
        return True
    real = CARD_NUMBER[card]
    if real == number or (wild_four and real == WILD_FOUR_NUMBER):
        return True
    # Turn It Up!: a revealed 6 or 9 matches a declared 6 or 9.
    return turn_it_up and real in TURNED_UP and number in TURNED_UP


def claim_holds(
    card: str, trait: str, declaration: Declaration, *, turn_it_up: bool, wild_four: bool = False
) -> bool:
    """Does the named trait of the declaration hold for the revealed card? ``trait``: spice, number or both (Copy Cat)."""
    spice, number = declaration
    if trait == "spice":
        return spice_holds(card, spice)
    holds_number = number_holds(card, number, turn_it_up=turn_it_up, wild_four=wild_four)
    return holds_number if trait == "number" else spice_holds(card, spice) and holds_number


def tuck_choices(cards: list[str]) -> list[list[str]]:
    """Every distinct way to tuck 0, 1 or 2 of ``cards`` (Change Your Luck), each sorted, in a fixed order."""
    distinct = sorted(set(cards))
    choices: list[list[str]] = [[]]
    choices += [[card] for card in distinct]
    for index, first in enumerate(distinct):
        if cards.count(first) >= 2:
            choices.append([first, first])
        choices += [[first, second] for second in distinct[index + 1 :]]
    return choices
