"""Reading the other seats' bids (the "hard" Perudo bot): a Bayesian posterior over each seat's hidden dice.

A seat's dice are a multiset: with c dice there are C(c + 5, 5) of them (252 for five dice), each with its
multinomial prior. Every bid the seat made this round is evidence, weighed by a model of how a sensible player
bids given their own dice (they see their c dice and know N, the dice in play):

* **plausibility**: a player bids "q × f" when, from their seat, it is not too unlikely. The likelihood of a hand
  is ``floor + P_hand(q × f true)``, the probability from that seat (their matching dice plus a binomial over
  the N − c dice they do not see; for a raise on the face of the bid it raised, one of those dice, the previous
  bidder's, is taken to match: the raiser believed that bid, ``Reading.follow_credit``);
  A bid made out of turn (Salsa: not by the left neighbour of the previous bidder) was not forced: its
  plausibility counts to the power ``eager_power``;
* **face choice**: when the bid named a face among several allowed ones (an opening, or a switch of face), the
  player picked it with a softmax over each allowed face's *surplus* (their expected count of the face minus the
  lowest quantity they could bid on it), mixed with a uniform bluff: ``bluff + (1 − bluff) × softmax``.

The posterior of each seat gives, per face, the distribution of that seat's matching dice; the seats are then
convolved, as for the binomial model. A seat that has not bid keeps the plain binomial. Per-seat dice counts are
those of ``bots_model.other_dice_counts`` (shown or estimated). The posteriors are cached: out-of-turn seats and
repeated views of one position reuse them.

The hard bot also sets apart the seat that will answer its raise (:class:`NextSeat`, the next seat clockwise):
its own distribution per face, and the others' convolved without it, so the bot can weigh that seat's answer
against the truth of the raise for each count that seat may hold (``bots.answered_value``).
"""

from __future__ import annotations

import itertools
import math
from dataclasses import dataclass
from functools import cache, lru_cache

from games.perudo.bidding import (
    FACES,
    PACO,
    normal_raise_minimums,
    opening_minimums,
    quantity_limit,
)
from games.perudo.bots_model import (
    Pmfs,
    View,
    base_probability,
    binomial,
    convolve,
    credited_tail,
    tail_at,
    tails_of,
)

Counts = tuple[int, ...]  # dice per face, indexed by face (index 0 unused)


@dataclass(frozen=True)
class Reading:
    """The bidder model's knobs."""

    # How much the others are expected to bluff (0.1, 1.0 and 0.3 until 2026-12-05): the levels bluff on at most
    # one raise or opening in ten, and at four players against the reference (before it read the standing bid)
    # this reading won 84% of the games where the looser one won 75% (bench/RESULTS.md).
    plausibility_floor: float = 0.03  # a bid the bidder thinks false still happens (bluffs, forced raises)
    choice_sharpness: float = 2.0  # softmax β over the allowed faces' surplus
    choice_bluff: float = 0.1  # share of face choices made at random
    eager_power: float = 4.0  # an out-of-turn (Salsa) bid is made only when sure: plausibility ** this
    # A raise on the face of the bid it raises is judged by a bidder who believes that bid (one die of its
    # bidder's counted, ``bots_model.credited_tail``), so it says less about the raiser's own dice: without
    # this the reading took a raise that leaned on the standing bid for a raiser holding the face.
    follow_credit: float = 1.0


@dataclass(frozen=True)
class SeatBid:
    """One bid of another seat, with what they could have bid instead."""

    quantity: int
    face: int
    choices: tuple[tuple[int, int], ...]  # (face, lowest quantity) they could name; empty: no choice of face
    eager: bool = False  # made out of turn (Salsa): nobody had to speak, so the bidder felt sure
    follows: bool = False  # on the face of the bid it raised: the bidder credits that bid's bidder


@cache
def hands(dice: int) -> tuple[tuple[Counts, float], ...]:
    """Every multiset of ``dice`` dice as face counts, with its multinomial probability."""
    factorials = [math.factorial(n) for n in range(dice + 1)]
    scale = factorials[dice] / 6**dice
    out = []
    for combination in itertools.combinations_with_replacement(FACES, dice):
        counts = (0, *map(combination.count, FACES))
        out.append((counts, scale / math.prod([factorials[count] for count in counts[1:]])))
    return tuple(out)


@cache
def match_columns(dice: int, palifico: bool) -> dict[int, tuple[int, ...]]:
    """Per face, the dice a bid on it counts in each hand of :func:`hands` (one column per face)."""
    faces = {face: tuple(counts[face] for counts, _ in hands(dice)) for face in FACES}
    if palifico:
        return faces
    pacos = faces[PACO]
    wild = {face: tuple(map(int.__add__, faces[face], pacos)) for face in FACES if face != PACO}
    return {PACO: pacos, **wild}


def matches(counts: Counts, face: int, palifico: bool) -> int:
    if palifico or face == PACO:
        return counts[face]
    return counts[face] + counts[PACO]


def seat_bids(view: View, total: int) -> dict[int, list[SeatBid]]:
    """This round's bids per other seat, each with the faces that were open to the bidder."""
    options = view["options"]
    palifico = view["palifico"]
    limit = quantity_limit(total, options["capBidAtDiceInPlay"])
    any_face = options["raiseMode"] == "anyFaceOnHigherQty"
    out: dict[int, list[SeatBid]] = {}
    previous: dict | None = None
    for entry in view["history"]:
        if entry["seat"] != view["seat"]:
            choices: tuple[tuple[int, int], ...] = ()
            if previous is None:
                pacos = options["allowPacoOpeningInPalifico"] if palifico else options["allowPacoOpening"]
                if palifico and options["palificoPacoBids"] == "forbidden":
                    pacos = False
                minimums = opening_minimums(pacos)
            elif palifico:
                minimums = None  # the face is locked: the bid says nothing about a choice of face
            else:
                minimums = normal_raise_minimums(previous["quantity"], previous["face"], any_face)
            if minimums is not None:
                choices = tuple(
                    (face, minimums[face])
                    for face in FACES
                    if minimums[face] is not None and minimums[face] <= limit
                )
            if len(choices) < 2:
                choices = ()
            eager = previous is not None and entry["seat"] != left_of(view["in_game"], previous["seat"])
            follows = previous is not None and previous["face"] == entry["face"]
            out.setdefault(entry["seat"], []).append(
                SeatBid(entry["quantity"], entry["face"], choices, eager, follows)
            )
        previous = entry
    return out


def bid_factors(
    bid: SeatBid, dice: int, unseen: int, palifico: bool, reading: Reading
) -> tuple[list[float], dict[int, float], list[float]]:
    """What a bid's likelihood needs, per count of matching dice m rather than per hand: the plausibility
    factor ``floor + P(true | m)``; and, for a choice of face, the softmax's weight of each allowed face split as
    ``exp(β × (p × unseen − lowest))`` (per face) times ``exp(β × m)`` (per count)."""
    p_face = base_probability(bid.face, palifico)
    credit = reading.follow_credit if bid.follows else 0.0
    plausible = [credited_tail(unseen, p_face, bid.quantity - own, credit) for own in range(dice + 1)]
    if bid.eager:
        plausible = [value**reading.eager_power for value in plausible]
    factor = [reading.plausibility_floor + value for value in plausible]
    beta = reading.choice_sharpness
    base = {
        face: math.exp(beta * (base_probability(face, palifico) * unseen - lowest))
        for face, lowest in bid.choices
    }
    grow = [math.exp(beta * count) for count in range(dice + 1)]
    return factor, base, grow


@lru_cache(maxsize=1024)
def seat_pmfs(dice: int, bids: tuple[SeatBid, ...], total: int, palifico: bool, reading: Reading) -> Pmfs:
    """Per face, the posterior distribution of one seat's matching dice given its bids.

    The likelihood of a hand is the product over its bids of ``floor + P_hand(bid true)`` and, where the bid
    named a face among several, ``bluff / choices + (1 − bluff) × softmax(surplus)[face]`` (module docs); both
    depend on the hand only through its matching counts, so they are tabulated per count first and applied
    column by column (a list per face over the hands: thousands of hands for a full cup).
    """
    unseen = max(total - dice, 0)
    weights = [prior for _, prior in hands(dice)]
    columns = match_columns(dice, palifico)
    for bid in bids:
        factor, base, grow = bid_factors(bid, dice, unseen, palifico, reading)
        named = columns[bid.face]
        weights = [weight * factor[m] for weight, m in zip(weights, named, strict=True)]
        if base:
            parts = [[value * grow[m] for m in columns[face]] for face, value in base.items()]
            scale = base.get(bid.face, 0.0)
            bluff = reading.choice_bluff / len(base)
            keep = 1.0 - reading.choice_bluff
            denominators = map(sum, zip(*parts, strict=True))
            weights = [
                weight * (bluff + keep * scale * grow[m] / denominator)
                for weight, m, denominator in zip(weights, named, denominators, strict=True)
            ]
    pmfs = {}
    for face in FACES:
        values = [0.0] * (dice + 1)
        for weight, m in zip(weights, columns[face], strict=True):
            values[m] += weight
        norm = sum(values)
        pmfs[face] = tuple(value / norm for value in values)
    return pmfs


def posterior_seat_pmfs(view: View, others: dict[int, int], total: int, reading: Reading) -> dict[int, Pmfs]:
    """Per other seat and face, the distribution of that seat's matching dice, its bids read."""
    palifico = view["palifico"]
    bids = seat_bids(view, total)
    out = {}
    for seat, count in others.items():
        if seat in bids:
            out[seat] = seat_pmfs(count, tuple(bids[seat]), total, palifico, reading)
        else:
            out[seat] = {face: binomial(count, round(base_probability(face, palifico), 12)) for face in FACES}
    return out


def combine(seats: list[Pmfs]) -> Pmfs:
    """The distribution of the sum over several seats, face by face."""
    combined: Pmfs = {face: (1.0,) for face in FACES}
    for pmfs in seats:
        combined = {face: convolve(combined[face], pmfs[face]) for face in FACES}
    return combined


@dataclass(frozen=True)
class NextSeat:
    """The seat that answers the bot's raise: its matching dice per face, and everyone else's but the bot's."""

    dice: int
    pmfs: Pmfs
    rest_tails: dict[int, tuple[float, ...]]  # face -> P(the other seats match at least k), k = 0..

    def rest_at_least(self, face: int, needed: int) -> float:
        return tail_at(self.rest_tails[face], needed)


def left_of(in_game: list[int], seat: int) -> int | None:
    """The next seat clockwise still in play (no one leaves the game during a round)."""
    later = [other for other in in_game if other > seat]
    candidates = later or [other for other in in_game if other != seat]
    return candidates[0] if candidates else None


def next_seat_of(view: View) -> int | None:
    """The seat to the bot's left still in play: the one its raise will wait for."""
    return left_of(view["in_game"], view["seat"])


def split_next(per_seat: dict[int, Pmfs], next_seat: int) -> NextSeat:
    """Set the next seat apart from the other seats (whose distributions are convolved)."""
    rest = combine([pmfs for seat, pmfs in per_seat.items() if seat != next_seat])
    next_pmfs = per_seat[next_seat]
    return NextSeat(
        dice=len(next_pmfs[PACO]) - 1,
        pmfs=next_pmfs,
        rest_tails={face: tails_of(pmf) for face, pmf in rest.items()},
    )
