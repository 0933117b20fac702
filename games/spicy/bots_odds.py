"""Card counting and odds for the Spicy bots (``bots.py``): pure functions of what a seat has seen.

A *pool* is the multiset of cards a seat has not seen, as a sorted tuple of ``(card, copies)`` pairs so that the
odds below can be memoised. An owner's hand before a play is modelled as a uniform draw of ``x`` cards from that
pool; the odds that a declaration is true then follow from how a typical player picks a card and a declaration.

Two models answer "how likely does the top card pass a spice / number / both check?":

* :func:`simple_odds` (medium): the chance that the owner held at least one card that makes the trait true
  (hypergeometric), discounted by a bluff propensity per trait (the caller's: the bots judge their own cards
  with the naive :data:`NAIVE_PROPENSITIES` of an observer). It ignores that the owner *chose* this declaration.
* :func:`bayes_odds` (hard): a Bayesian model of the owner's choice. Hands of the owner's size are drawn from the
  pool (all of them, weighted, for a single card; a fixed number of samples otherwise, from a generator seeded by
  the question so the answer stays a pure function), and a model player says how likely it would have made the
  declaration that was made: honest when it can (usually its lowest honest declaration); without an honest card
  it seldom passes and bluffs, keeping the number by preference, else the spice, choosing among the declarations
  that allow it. The odds are the shares of that likelihood whose card passes each check. The model's rates were
  measured on bot games (honest plays are the lowest 75% of the time; a bluffer who could keep either trait keeps
  the number 85% of the time; 3-5% pass without an honest card, 15% with a single card).
"""

from __future__ import annotations

import random
import zlib
from collections import Counter
from collections.abc import Iterable
from functools import lru_cache
from math import comb
from typing import NamedTuple

from games.spicy.cards import CARD_NUMBER, CARD_SPICE, DECK, TURNED_UP, claim_holds

Pool = tuple[tuple[str, int], ...]
Declaration = tuple[str, int]

FULL_DECK: Counter[str] = Counter(DECK)
FLOOR, CEILING = 0.02, 0.98


class Odds(NamedTuple):
    """Chances that the card passes a spice, a number and a both-traits (Copy Cat) check."""

    spice: float
    number: float
    both: float

    def of(self, trait: str) -> float:
        return {"spice": self.spice, "number": self.number}.get(trait, self.both)


def make_pool(seen: Iterable[str]) -> Pool:
    """The deck minus the cards in ``seen`` (a card seen twice removes two copies)."""
    left = FULL_DECK - Counter(seen)
    return tuple(sorted(left.items()))


def pool_size(pool: Pool) -> int:
    return sum(copies for _card, copies in pool)


def chance_none(total: int, good: int, draws: int) -> float:
    """P(no good card) in ``draws`` cards drawn without replacement from ``total`` cards, ``good`` of them good."""
    if draws <= 0 or good <= 0:
        return 1.0
    if draws > total - good:
        return 0.0
    return comb(total - good, draws) / comb(total, draws)


def chance_any(total: int, good: int, draws: int) -> float:
    return 1.0 - chance_none(total, good, draws)


def _clip(value: float) -> float:
    return min(CEILING, max(FLOOR, value))


def _support(pool: Pool, declaration: Declaration, trait: str, turn_it_up: bool) -> int:
    return sum(
        copies for card, copies in pool if claim_holds(card, trait, declaration, turn_it_up=turn_it_up)
    )


@lru_cache(maxsize=256)
def honest_declarations(card: str, turn_it_up: bool) -> frozenset[Declaration]:
    """Every declaration for which ``card`` passes both checks (none for a wild)."""
    spice, number = CARD_SPICE[card], CARD_NUMBER[card]
    if spice is None or number is None:
        return frozenset()
    numbers = {number}
    if turn_it_up and number in TURNED_UP:
        numbers |= TURNED_UP
    return frozenset((spice, value) for value in numbers)


@lru_cache(maxsize=8192)
def honest_support(pool: Pool, declarations: tuple[Declaration, ...], turn_it_up: bool) -> int:
    """How many cards of ``pool`` would be an honest play for at least one of ``declarations``."""
    wanted = frozenset(declarations)
    return sum(copies for card, copies in pool if honest_declarations(card, turn_it_up) & wanted)


# --------------------------------------------------------------------------------------------------------------
# Medium: "did the owner hold such a card at all?"
# --------------------------------------------------------------------------------------------------------------


NAIVE_PROPENSITIES = (0.5, 0.6, 0.15)  # how an observer who counts only public cards discounts each trait


@lru_cache(maxsize=4096)
def simple_odds(
    pool: Pool,
    declaration: Declaration,
    hand_before: int,
    turn_it_up: bool,
    propensities: tuple[float, float, float] = NAIVE_PROPENSITIES,
) -> Odds:
    """Chance that each trait holds: held-a-fitting-card odds, discounted by a bluff propensity per trait (spice,
    number, both): how likely a player without a fitting card still makes the claim, relative to one with it."""
    total = pool_size(pool)
    draws = min(hand_before, total)

    def odds(trait: str, propensity: float) -> float:
        held = chance_any(total, _support(pool, declaration, trait, turn_it_up), draws)
        return _clip(held / (held + (1.0 - held) * propensity)) if held > 0 else FLOOR

    spice, number, both = propensities
    return Odds(odds("spice", spice), odds("number", number), odds("both", both))


# --------------------------------------------------------------------------------------------------------------
# Hard: a Bayesian model of the owner's choice
# --------------------------------------------------------------------------------------------------------------

LOWEST_HONEST = 0.75  # an owner with several honest declarations picks the lowest this often

KEEP_NUMBER = 0.85  # a bluffer who could keep either trait keeps the number this often
COPY_BLUFF = 0.05  # how often a copier copies without the exact card, relative to copying with it
SAMPLES = 300  # sampled hands when the owner held more than one card


class _Kind(NamedTuple):
    """One card of the pool, as bit masks over the legal declarations."""

    copies: int
    honest: int  # declarations it would be an honest play for
    number: int  # declarations whose number it passes
    spice: int  # declarations whose spice it passes


def _kinds(pool: Pool, legal: tuple[Declaration, ...], turn_it_up: bool) -> list[_Kind]:
    kinds = []
    for card, copies in pool:
        honest = number = spice = 0
        for index, option in enumerate(legal):
            bit = 1 << index
            if claim_holds(card, "both", option, turn_it_up=turn_it_up):
                honest |= bit
            if claim_holds(card, "number", option, turn_it_up=turn_it_up):
                number |= bit
            if claim_holds(card, "spice", option, turn_it_up=turn_it_up):
                spice |= bit
        kinds.append(_Kind(copies, honest, number, spice))
    return kinds


def _bits(mask: int) -> list[int]:
    return [index for index in range(mask.bit_length()) if mask >> index & 1]


def _choice(
    hand: list[_Kind], target: int, numbers: tuple[int, ...], pass_rate: float
) -> tuple[float, float, float, float]:
    """The modelled owner holding ``hand``: P(it declares ``target``), then P(that and the spice holds), P(that
    and the number holds), P(that and both hold). Honest when it can (mostly its lowest honest declaration);
    otherwise it passes now and then, or bluffs keeping the number (by preference) or the spice, choosing among
    the declarations that allow it."""
    honest = number = spice = 0
    for kind in hand:
        honest |= kind.honest
        number |= kind.number
        spice |= kind.spice
    bit = 1 << target
    if honest:
        options = _bits(honest)
        if not honest & bit:
            return 0.0, 0.0, 0.0, 0.0
        lowest = min(numbers[index] for index in options)
        chance = (1.0 - LOWEST_HONEST) / len(options)
        if numbers[target] == lowest:
            chance += LOWEST_HONEST / sum(1 for index in options if numbers[index] == lowest)
        return chance, chance, chance, chance
    play = 1.0 - pass_rate
    keep_number = (KEEP_NUMBER if spice else 1.0) if number else 0.0
    keep_spice = (1.0 - keep_number) if spice else 0.0
    by_number = play * keep_number / len(_bits(number)) if number & bit else 0.0
    by_spice = play * keep_spice / len(_bits(spice)) if spice & bit else 0.0
    blind = play / len(numbers) if not (number or spice) else 0.0
    return by_number + by_spice + blind, by_spice, by_number, 0.0


@lru_cache(maxsize=4096)
def bayes_odds(
    pool: Pool,
    declaration: Declaration,
    legal: tuple[Declaration, ...],
    hand_before: int,
    turn_it_up: bool,
    pass_rate: float,
    copy: bool = False,
) -> Odds:
    """Chance that each trait holds given that an owner with ``hand_before`` cards (drawn from ``pool``) chose to
    make ``declaration`` out of ``legal`` (or copied it, when ``copy``). Exact for a single card, otherwise over
    hands sampled with a generator seeded by the question itself (so the answer is a pure function)."""
    total = pool_size(pool)
    draws = min(hand_before, total)
    if draws <= 0 or declaration not in legal:
        return Odds(FLOOR, FLOOR, FLOOR)
    if copy:
        exact = sum(copies for card, copies in pool if declaration in honest_declarations(card, turn_it_up))
        held = chance_any(total, exact, draws)
        both = held / (held + (1.0 - held) * COPY_BLUFF) if held > 0 else FLOOR
        return Odds(_clip(both), _clip(both), _clip(both))
    kinds = _kinds(pool, legal, turn_it_up)
    target = legal.index(declaration)
    numbers = tuple(option[1] for option in legal)
    declared = spice = number = both = 0.0
    if draws == 1:
        weighted = [(kind.copies, [kind]) for kind in kinds]
    else:
        deck = [kind for kind in kinds for _copy in range(kind.copies)]
        rng = random.Random(zlib.crc32(repr((pool, declaration, legal, draws, turn_it_up)).encode()))
        weighted = [(1, rng.sample(deck, draws)) for _sample in range(SAMPLES)]
    for weight, hand in weighted:
        chance, with_spice, with_number, honest = _choice(hand, target, numbers, pass_rate)
        declared += weight * chance
        spice += weight * with_spice
        number += weight * with_number
        both += weight * honest
    if declared <= 0:
        return Odds(FLOOR, FLOOR, FLOOR)
    return Odds(_clip(spice / declared), _clip(number / declared), _clip(both / declared))
