"""What a Perudo bot knows, and the probability of a bid: the model behind ``games/perudo/bots.py``.

Everything here is a function of one seat's view and legal actions, never of the full state.

Dice in play
============

The total number of dice in play (N) drives every probability. :func:`dice_in_play` takes it from
``view["dice_in_play"]`` when the table plays with ``lostDiceVisible``. Otherwise the bot, which keeps no notes
between decisions, estimates it from the round number, as a player who does not keep count would: every finished
round moved one die (a lost die; a Calza gain is rare), so N is about ``startingDice × players − (round − 1)``,
clamped to what the seat's own dice and the seats still in play allow (each of them has between 1 and the most
dice a player can hold). It never reads N from the legal bids: with lost dice hidden, the bid limit comes from the
dice the table started with, precisely so that it gives nothing away.

The dice of each other seat are ``view["dice_counts"]`` when visible; otherwise the N − (own dice) unknown dice
are spread evenly over the other seats still in play, except that a Palifico player (who just dropped to one
die) holds exactly one.

Bid probability
===============

A bid (q, f) counts the dice showing f, plus the Pacos when they are wild (not in a Palifico round, not for a
Paco bid). The seat knows its own matching dice k; each unknown die of seat j matches with probability
p_j(f). With no information p = 1/3 (face or Paco) or 1/6 (Pacos, Palifico). :class:`Beliefs` keeps, per face,
the distribution of the matching count among the other seats' dice: a convolution of binomials, one per group
of seats sharing the same p. P(bid true) = P(others ≥ q − k), P(bid exact) = P(others = q − k).

The "medium" bot gives each seat its own face weights (:func:`read_bids`): every bid a seat made this round
multiplies the weights of the faces that bid counts, which tilts that seat's p towards the faces it claimed.
The "hard" bot builds the per-face distributions from a posterior instead (``bots_reading.py``); :class:`Beliefs`
takes either.
"""

from __future__ import annotations

import math
from functools import lru_cache
from typing import Any

from games.perudo.bidding import FACES, PACO

View = dict[str, Any]
Action = dict[str, Any]
Weights = tuple[float, ...]  # indexed by face, index 0 unused

UNIFORM: Weights = (0.0, 1.0, 1.0, 1.0, 1.0, 1.0, 1.0)
CUP = 5  # the dice of a full cup, the reference for how much one bid says about a seat's dice


def matching_faces(face: int, palifico: bool) -> tuple[int, ...]:
    """The faces a bid on ``face`` counts: the face itself, plus the wild Pacos outside Palifico."""
    return (face,) if palifico or face == PACO else (face, PACO)


def own_matches(dice: list[int], face: int, palifico: bool) -> int:
    faces = matching_faces(face, palifico)
    return sum(1 for die in dice if die in faces)


# --- dice in play -------------------------------------------------------------------------------------------


def dice_in_play(view: View) -> int:
    """The total dice in play: shown, or estimated from the round number (module docs)."""
    if view.get("dice_in_play") is not None:
        return view["dice_in_play"]
    return estimate_dice_in_play(view)


def estimate_dice_in_play(view: View) -> int:
    """N from public round information alone: one die lost per finished round, clamped to what is possible."""
    options = view["options"]
    mine = view["my_dice_count"] or 0
    others = sum(1 for seat in view["in_game"] if seat != view["seat"])
    guess = options["startingDice"] * view["num_players"] - max(view["round"] - 1, 0)
    low = mine + others
    high = mine + others * max(options["startingDice"], options["maxDice"])
    return max(low, min(high, guess))


def other_dice_counts(view: View, total: int) -> dict[int, int]:
    """Dice per other seat still in play: shown, or the unknown dice spread evenly (module docs)."""
    seat = view["seat"]
    others = [other for other in view["in_game"] if other != seat]
    if view.get("dice_counts") is not None:
        return {other: view["dice_counts"][other] for other in others}
    counts: dict[int, int] = {}
    unknown = max(total - (view["my_dice_count"] or 0), len(others))
    palifico_player = view["palifico_player"] if view["palifico"] else None
    if palifico_player in others:
        counts[palifico_player] = 1  # a Palifico player has just dropped to one die (in a duel too)
        unknown -= 1
    spread = [other for other in others if other not in counts]
    for index, other in enumerate(spread):
        counts[other] = max(1, unknown // len(spread) + (1 if index < unknown % len(spread) else 0))
    return counts


# --- reading the other seats' bids --------------------------------------------------------------------------


def read_bids(
    view: View, others: dict[int, int], opening_weight: float, raise_weight: float
) -> dict[int, Weights]:
    """Face weights per other seat from this round's bids: a seat that names a face (opening or switching face)
    multiplies the weights of the faces that bid counts by ``opening_weight``; raising the quantity on the face
    already bid multiplies them by ``raise_weight``. The factors are for a cup of :data:`CUP` dice; a seat with
    c dice raises them to the power CUP / c, since its claim rests on fewer dice (a one-die player who names a
    face almost surely shows it). Seats that have not bid keep :data:`UNIFORM`."""
    palifico = view["palifico"]
    weights: dict[int, list[float]] = {}
    previous_face: int | None = None
    for entry in view["history"]:
        face, seat = entry["face"], entry["seat"]
        if seat != view["seat"] and seat in others:
            factor = (raise_weight if face == previous_face else opening_weight) ** (CUP / others[seat])
            seat_weights = weights.setdefault(seat, list(UNIFORM))
            for counted in matching_faces(face, palifico):
                seat_weights[counted] *= factor
        previous_face = face
    return {seat: tuple(values) for seat, values in weights.items()}


# --- probabilities ------------------------------------------------------------------------------------------


@lru_cache(maxsize=4096)
def binomial(n: int, p: float) -> tuple[float, ...]:
    """P(X = k) for k = 0..n, X ~ Binomial(n, p)."""
    return tuple(math.comb(n, k) * p**k * (1.0 - p) ** (n - k) for k in range(n + 1))


def convolve(left: tuple[float, ...], right: tuple[float, ...]) -> tuple[float, ...]:
    out = [0.0] * (len(left) + len(right) - 1)
    for i, a in enumerate(left):
        if a:
            for j, b in enumerate(right):
                out[i + j] += a * b
    return tuple(out)


def tails_of(pmf: tuple[float, ...]) -> tuple[float, ...]:
    """P(X ≥ k) for k = 0..len(pmf), from P(X = k)."""
    tails = [0.0] * (len(pmf) + 1)
    for k in range(len(pmf) - 1, -1, -1):
        tails[k] = tails[k + 1] + pmf[k]
    return tuple(tails)


def tail_at(tails: tuple[float, ...], needed: int) -> float:
    """P(X ≥ needed), 1 when nothing is needed, 0 beyond the table."""
    if needed <= 0:
        return 1.0
    return tails[needed] if needed < len(tails) else 0.0


def match_probability(weights: Weights, face: int, palifico: bool) -> float:
    return sum(weights[counted] for counted in matching_faces(face, palifico)) / sum(weights[1:])


Pmfs = dict[int, tuple[float, ...]]  # face -> distribution of the other seats' matching dice


def binomial_pmfs(others: dict[int, int], palifico: bool, weights: dict[int, Weights] | None = None) -> Pmfs:
    """Per face, the other seats' matching count: one binomial per group of seats sharing a match probability."""
    weights = weights or {}
    pmfs: Pmfs = {}
    for face in FACES:
        groups: dict[float, int] = {}
        for seat, count in others.items():
            p = round(match_probability(weights.get(seat, UNIFORM), face, palifico), 12)
            groups[p] = groups.get(p, 0) + count
        pmf: tuple[float, ...] = (1.0,)
        for p, count in groups.items():
            pmf = convolve(pmf, binomial(count, p))
        pmfs[face] = pmf
    return pmfs


class Beliefs:
    """Per face, the distribution of the other seats' matching dice, and the seat's own matching dice."""

    def __init__(self, my_dice: list[int], palifico: bool, pmfs: Pmfs) -> None:
        self.palifico = palifico
        self.mine = {face: own_matches(my_dice, face, palifico) for face in FACES}
        self.total = len(my_dice) + len(pmfs[PACO]) - 1  # dice in play (as the model counts them)
        self._pmfs = pmfs
        self._tails = {face: tails_of(pmf) for face, pmf in pmfs.items()}

    def at_least(self, quantity: int, face: int) -> float:
        """P(the bid "quantity × face" is true)."""
        return tail_at(self._tails[face], quantity - self.mine[face])

    def exactly(self, quantity: int, face: int) -> float:
        """P(the count is exactly ``quantity``): a Calza's chance."""
        needed = quantity - self.mine[face]
        pmf = self._pmfs[face]
        return pmf[needed] if 0 <= needed < len(pmf) else 0.0

    def expected(self, face: int) -> float:
        """The expected count of a bid on ``face``."""
        return self.mine[face] + sum(k * p for k, p in enumerate(self._pmfs[face]))


def base_probability(face: int, palifico: bool) -> float:
    """The chance that one unknown die counts for a bid on ``face``."""
    return 1 / 6 if palifico or face == PACO else 1 / 3


@lru_cache(maxsize=4096)
def binomial_tails(n: int, p: float) -> tuple[float, ...]:
    """P(X ≥ k) for k = 0..n + 1, X ~ Binomial(n, p)."""
    return tails_of(binomial(n, p))


def binomial_tail(n: int, p: float, needed: int) -> float:
    """P(X ≥ needed), X ~ Binomial(n, p)."""
    return tail_at(binomial_tails(n, p), needed)


def credited_tail(n: int, p: float, needed: int, credit: float) -> float:
    """P(at least ``needed`` of ``n`` unseen dice match) for a player who believes the standing bid's bidder:
    with chance ``credit`` they take one of those dice (the bidder's) to match, the rest binomial; otherwise all
    ``n`` are binomial. A player who credits nobody (0) judges every bid as a random claim."""
    plain = binomial_tail(n, p, needed)
    if credit <= 0.0 or n <= 0:
        return plain
    return (1.0 - credit) * plain + credit * binomial_tail(n - 1, p, needed - 1)
