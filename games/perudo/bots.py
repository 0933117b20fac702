"""Computer opponents for Perudo: ``LEVELS`` maps a level name to ``choose(view, legal, rng)``.

A bot sees only its seat's view and legal actions (``bench/bots_tournament.py`` defines the interface). The dice
in play, the other seats' dice counts and the bid probabilities come from ``bots_model.py`` (its docstring tells
where the total comes from when ``lostDiceVisible`` is off); the "hard" reading of bids from ``bots_reading.py``.
In a Palifico round Pacos are not wild and the face is locked: the model counts exact faces only and the legal
bids keep the face.

Levels
======

* ``easy``: simple thresholds and plenty of randomness. It compares a bid with its expected count (own matching
  dice plus a third, or a sixth, of the unknown dice): Dudo when the bid is more than about one die above it,
  otherwise the smallest raise on the face it holds most of (a random face now and then). Calza now and then
  when the bid equals the expected count, but only when a correct Calza gains something (a lost die back, or the
  others' dice under the house rule): never with a full set of dice. It never speaks out of turn.
* ``medium``: probabilities and expected values. For the standing bid it computes P(true) from its own dice and
  the binomial law of the unknown dice (each bid of another seat tilts that seat's dice a little towards the
  faces it named, ``bots_model.read_bids``), and scores each choice by its expected change in dice, counting an
  opponent's lost die at a weight (1 in a duel, less with more players):

  - Dudo: P(false) × weight − P(true);
  - a raise b: D × (P(b true) × weight − P(b false)), D = κ + (1 − κ) × P(b false) being the chance that the
    next player doubts it: at least κ, and certain for a raise the bot knows to be false (so such a raise never
    beats a Dudo);
  - Calza: P(exact) × (value of the regained die) − P(not exact), kept only when it beats the rest by a margin.

  It opens on the face it holds most of, at the highest quantity still true with probability ``open_target``.
  It bluffs at a fixed rate (a random raise among those nearly as good as the best, or an opening on another
  face). Out of turn (Salsa, or Calza by anyone): Dudo only on a bid that is very probably false, a raise only
  when it is nearly sure, Calza only when its expected value is clearly positive; otherwise None.
  Palifico: it declares it whenever it may (a one-die player chooses the face).
* ``hard``: the medium bot with two deeper models.

  - It reads the other seats' bids as evidence (``bots_reading.py``): a Bayesian posterior over each seat's
    dice given a model of how a sensible player bids (plausible bids, on the faces they hold).
  - Instead of a fixed κ it models the answer of the next player: for each count m of matching dice that player
    may hold (from the posterior), the chance that they call Dudo (their own P(true), seen from their seat,
    through a logistic) and whether the raise is then true. A raise that is true exactly when the next player
    holds few of the face, and so is tempted to doubt it, is worth more; one that only survives if they hold
    many is worth less. The next player is assumed to doubt half of the time at P(true) = 0.5
    (``doubt_center``), and half of the time (``doubt_credit``) to believe the bot holds one die of the face it
    bids, as a player who reads bids does; a raise they let pass is worth 0. It opens the same way: the opening with the best
    answered value among all legal openings (much stronger than the fixed target: it opens on bids that are true
    but that the next player is tempted to doubt). It bluffs on purpose now and then (``bluff_rate``: a raise or
    an opening nearly as good as the best, so that its bids cannot be read as a plain statement of its dice), and
    with more than two players it values an opponent's lost die less than medium does (0.3 of its own), so it
    takes fewer risks to hurt someone else.
  - Both levels value a correct Calza under the house rule where the others lose a die at that weight per
    opponent (three opponents at 0.3 are worth 0.9 of a die, not 3: hard called such Calzas right only a third
    of the time).

Solved duel endgames
====================

Where two players are left in a position the solvers cover (``solver.py``: one die each, a Palifico round of
one die against two; ``bench/perudo_duel_solver.py``: the normal rounds of two dice against one and two each;
both under each option set of ``bots_solved.OPTION_SETS``), the shipped equilibrium strategy
(``bots_solved.py``) decides: always for hard, three times in five for medium (``solved_share``), which also
leaves out the equilibrium's raises that its own dice prove false (``solved_known_false``). ``bench/perudo_endgames.py``
measures every level there against the equilibrium and against a best responder.

Every level is a pure function of the view, the legal actions and the RNG (no memory between calls; the solved
strategies are data read once). Decision
times on the hardest positions (six players with ten dice each, Calza and Salsa) and the strength of each level
against the others and the reference player are measured by ``bench/bots_tournament.py`` (``bench/RESULTS.md``:
hard about 20 ms at the median and well under a second at worst on a loaded machine). The knobs were tuned in
bot-against-bot games.
"""

from __future__ import annotations

import math
import random
from collections.abc import Callable
from dataclasses import dataclass
from functools import partial

from games.perudo.bidding import PACO
from games.perudo.bots_model import (
    Action,
    Beliefs,
    View,
    base_probability,
    binomial_pmfs,
    credited_tail,
    dice_in_play,
    other_dice_counts,
    read_bids,
)
from games.perudo.bots_reading import (
    NextSeat,
    Reading,
    combine,
    next_seat_of,
    posterior_seat_pmfs,
    split_next,
)
from games.perudo.bots_solved import solved_choice

DUDO: Action = {"type": "dudo"}
CALZA: Action = {"type": "calza"}
DECLARE_PALIFICO: Action = {"type": "declare_palifico"}


@dataclass(frozen=True)
class Profile:
    """The knobs of the probability-based levels; the defaults are the medium bot's."""

    multi_weight: float = 0.5  # value of one opponent's lost die when more than two play (1 in a duel)
    calza_margin: float = 0.05  # Calza must beat the best other choice by this much
    salsa_dudo_below: float = 0.05  # out of turn: Dudo only when P(true) is below this
    salsa_raise_above: float = 0.95  # out of turn: raise only when P(raise true) is above this
    salsa_calza_above: float = 0.3  # out of turn: Calza only when its expected value is above this
    # medium: fixed answer model and target opening, light reading of bids, bluffs
    open_target: float = 0.6  # opening: the highest quantity still true with at least this probability
    kappa: float = 0.7  # least chance that the next player doubts the bot's raise (fixed_answer_value)
    read_open: float = 2.0  # tilt for a face a seat names (1: bids are not read)
    read_raise: float = 1.3  # tilt for a seat raising the quantity on the standing face
    bluff_rate: float = 0.1  # how often a raise or an opening is a random near-best one instead of the best
    bluff_slack: float = 0.1  # how much expected value a bluff may give up
    # hard: Bayesian reading of bids (bots_reading.py) and the next player's answer (replaces the four above)
    reading: Reading | None = None
    doubt_center: float = 0.4  # the next player's P(true) at which they doubt half of the time (hard: 0.5)
    doubt_softness: float = 0.1  # how sharply their Dudo chance falls as their P(true) rises
    doubt_credit: float = 0.0  # how often the next player counts one of the bot's dice on the face it bids
    # the solved duel endgames (bots_solved.py): the share of the decisions they cover taken from them, and
    # whether the equilibrium's raises that the bot's own dice prove false are kept (medium leaves them out)
    solved_share: float = 0.0
    solved_known_false: bool = True


MEDIUM = Profile(solved_share=0.6, solved_known_false=False)
HARD = Profile(
    reading=Reading(),
    doubt_center=0.5,
    doubt_credit=0.5,
    bluff_rate=0.08,
    bluff_slack=0.05,
    multi_weight=0.3,
    solved_share=1.0,
)


@dataclass(frozen=True)
class Situation:
    """What a decision is made from: the beliefs, the value of an opponent's die, the next seat (hard)."""

    beliefs: Beliefs
    weight: float
    next_seat: NextSeat | None


# --- shared reading of the view -----------------------------------------------------------------------------


def legal_copy(legal: list[Action], action: Action) -> Action:
    """The legal action equal to ``action`` (bots hand back the very dict they were offered)."""
    return legal[legal.index(action)]


def bids_of(legal: list[Action]) -> list[Action]:
    return [action for action in legal if action["type"] == "bid"]


def is_awaited(view: View) -> bool:
    return view["seat"] in view["awaited"]


def situation(view: View, legal: list[Action], profile: Profile | None = None) -> Situation:
    """Beliefs about the dice (plain, tilted or read), and for the hard bot the seat that answers its raise."""
    total = dice_in_play(view)
    others = other_dice_counts(view, total)
    palifico = view["palifico"]
    weight = opponent_weight(view, profile)
    if profile is not None and profile.reading is not None:
        per_seat = posterior_seat_pmfs(view, others, total, profile.reading)
        beliefs = Beliefs(view["my_dice"], palifico, combine(list(per_seat.values())))
        next_seat = next_seat_of(view)
        return Situation(beliefs, weight, split_next(per_seat, next_seat) if next_seat is not None else None)
    tilt = None if profile is None else read_bids(view, others, profile.read_open, profile.read_raise)
    return Situation(Beliefs(view["my_dice"], palifico, binomial_pmfs(others, palifico, tilt)), weight, None)


def opponent_weight(view: View, profile: Profile | None) -> float:
    """How much an opponent's lost die is worth next to one of the bot's own: all of it in a duel."""
    if len(view["in_game"]) <= 2 or profile is None:
        return 1.0
    return profile.multi_weight


def regain_value(view: View, weight: float) -> float:
    """What a correct Calza is worth to the bot: a die back (if below maxDice), or every other seat's die, each
    at ``weight`` (the value of an opponent's lost die next to one of the bot's own)."""
    options = view["options"]
    if options["calzaSuccessEffect"] == "othersLoseOne":
        return (len(view["in_game"]) - 1) * weight
    return 1.0 if calza_may_regain(view) else 0.0


def calza_may_regain(view: View) -> bool:
    """Would a correct Calza give the bot anything? A die back needs a lost one: fewer dice than it started with
    (and never above ``maxDice``); the house rule takes a die from every other seat instead."""
    options = view["options"]
    if options["calzaSuccessEffect"] == "othersLoseOne":
        return True
    return view["my_dice_count"] < min(options["startingDice"], options["maxDice"])


def lowest_per_face(bids: list[Action]) -> list[Action]:
    """The cheapest legal bid on each face (the legal bids are listed face by face, quantities ascending)."""
    cheapest: dict[int, Action] = {}
    for action in bids:
        cheapest.setdefault(action["face"], action)
    return list(cheapest.values())


# --- medium and hard ----------------------------------------------------------------------------------------


def choose_opening(bids: list[Action], beliefs: Beliefs, profile: Profile, rng: random.Random) -> Action:
    """The highest quantity still true with ``open_target`` on the strongest face (a Paco counts double)."""
    by_face: dict[int, Action] = {}
    for action in bids:
        face = action["face"]
        if face not in by_face or beliefs.at_least(action["quantity"], face) >= profile.open_target:
            by_face[face] = action
    faces = list(by_face)
    if profile.bluff_rate and rng.random() < profile.bluff_rate:
        return by_face[rng.choice(faces)]

    def strength(face: int) -> tuple[float, float, int]:
        quantity = by_face[face]["quantity"]
        equivalent = 2 * quantity if face == PACO and not beliefs.palifico else quantity
        return equivalent, beliefs.at_least(quantity, face), face

    return by_face[max(faces, key=strength)]


def payoff(p_true: float, weight: float) -> float:
    """Expected dice change when the bot's bid is doubted: the doubter loses if true, the bot if false."""
    return p_true * weight - (1.0 - p_true)


def raise_values(bids: list[Action], context: Situation, profile: Profile) -> list[tuple[float, Action]]:
    """The expected value of each candidate raise, best first.

    Fixed answer model: κ × payoff, so only the cheapest raise per face matters. Joint model (hard, with a next
    seat): every legal raise, valued by :func:`answered_value`.
    """
    if context.next_seat is None:
        beliefs = context.beliefs
        values = [
            (fixed_answer_value(beliefs.at_least(a["quantity"], a["face"]), context.weight, profile), a)
            for a in lowest_per_face(bids)
        ]
    else:
        values = [(answered_value(a["quantity"], a["face"], context, profile), a) for a in bids]
    return sorted(values, key=lambda pair: -pair[0])


def fixed_answer_value(p_true: float, weight: float, profile: Profile) -> float:
    """A raise's value under the fixed answer model: the chance that it is doubted times :func:`payoff`.

    The next player doubts at least κ of the time, and the more surely the raise is false the likelier the doubt:
    ``κ + (1 − κ) × P(false)``. A raise the bot knows to be false is therefore doubted for sure and worth a whole
    lost die, never more than a Dudo (which loses at most one); with a flat κ it was worth only −κ and beat a Dudo
    that was likely but not certainly lost (the one-die Palifico round: "two 5s" without a 5, rather than Dudo
    on "one 5").
    """
    doubted = profile.kappa + (1.0 - profile.kappa) * (1.0 - p_true)
    return doubted * payoff(p_true, weight)


def answered_value(quantity: int, face: int, context: Situation, profile: Profile) -> float:
    """Σ over the next seat's matching count m: P(m) × P(they doubt | m) × payoff(P(true | m)).

    They doubt with a logistic chance of their own P(true): their m dice plus a binomial over the dice they do
    not see. A raise they let pass is worth 0 (the round goes on without the bot at risk).
    """
    beliefs, next_seat = context.beliefs, context.next_seat
    assert next_seat is not None
    p_die = base_probability(face, beliefs.palifico)
    unseen_by_next = beliefs.total - next_seat.dice
    value = 0.0
    for matching, chance in enumerate(next_seat.pmfs[face]):
        if chance < 1e-9:
            continue
        their_view = credited_tail(unseen_by_next, p_die, quantity - matching, profile.doubt_credit)
        doubt = 1.0 / (1.0 + math.exp((their_view - profile.doubt_center) / profile.doubt_softness))
        p_true = next_seat.rest_at_least(face, quantity - beliefs.mine[face] - matching)
        value += chance * doubt * payoff(p_true, context.weight)
    return value


def choose_answer(
    view: View, legal: list[Action], context: Situation, profile: Profile, rng: random.Random
) -> Action | None:
    """Dudo, Calza or a raise on the standing bid; None when out of turn and nothing is clearly good."""
    bid = view["bid"]
    quantity, face = bid["quantity"], bid["face"]
    beliefs = context.beliefs
    p_true = beliefs.at_least(quantity, face)
    raises = raise_values(bids_of(legal), context, profile)
    calza_value = None
    if CALZA in legal:
        p_exact = beliefs.exactly(quantity, face)
        calza_value = p_exact * regain_value(view, context.weight) - (1.0 - p_exact)
    if not is_awaited(view):
        return out_of_turn(legal, beliefs, profile, p_true, raises, calza_value)
    options: list[tuple[float, Action]] = []
    if DUDO in legal:
        options.append(((1.0 - p_true) * context.weight - p_true, legal_copy(legal, DUDO)))
    if raises:
        options.append(pick_raise(raises, profile, rng))
    best_value = max((value for value, _ in options), default=-math.inf)
    if calza_value is not None and (not options or calza_value > best_value + profile.calza_margin):
        return legal_copy(legal, CALZA)
    return max(options, key=lambda pair: pair[0])[1] if options else legal[0]


def pick_raise(
    raises: list[tuple[float, Action]], profile: Profile, rng: random.Random
) -> tuple[float, Action]:
    """The best raise, or now and then (bluff) a random one nearly as good."""
    best_value = raises[0][0]
    if profile.bluff_rate and rng.random() < profile.bluff_rate:
        # A raise known to be false (worth a whole die: always doubted) is no bluff, it is a lost die.
        near = [pair for pair in raises if pair[0] >= best_value - profile.bluff_slack and pair[0] > -1.0]
        if near:  # judged as the best raise: the bluff is a choice among equals
            return best_value, rng.choice(near)[1]
    return raises[0]


def out_of_turn(
    legal: list[Action],
    beliefs: Beliefs,
    profile: Profile,
    p_true: float,
    raises: list[tuple[float, Action]],
    calza_value: float | None,
) -> Action | None:
    """Salsa and out-of-turn Calza: act only when clearly good, else let the chance go by."""
    if calza_value is not None and calza_value > profile.salsa_calza_above:
        return legal_copy(legal, CALZA)
    if DUDO in legal and p_true < profile.salsa_dudo_below:
        return legal_copy(legal, DUDO)
    sure = [
        action
        for _, action in raises
        if beliefs.at_least(action["quantity"], action["face"]) > profile.salsa_raise_above
    ]
    return sure[0] if sure else None


def play_profile(view: View, legal: list[Action], rng: random.Random, profile: Profile) -> Action | None:
    """A probability-based bot (medium, hard) with the given knobs."""
    if DECLARE_PALIFICO in legal and is_awaited(view):
        return legal_copy(legal, DECLARE_PALIFICO)
    if profile.solved_share and rng.random() < profile.solved_share:
        solved = solved_choice(view, legal, rng, profile.solved_known_false)
        if solved is not None:
            return solved
    context = situation(view, legal, profile)
    if view["bid"] is None:
        if context.next_seat is not None:  # hard: the opening that the next player's answer makes best
            return pick_raise(raise_values(bids_of(legal), context, profile), profile, rng)[1]
        return choose_opening(bids_of(legal), context.beliefs, profile, rng)
    return choose_answer(view, legal, context, profile, rng)


# --- easy ---------------------------------------------------------------------------------------------------


def play_easy(view: View, legal: list[Action], rng: random.Random) -> Action | None:
    """Thresholds on the expected count, with random slack; never out of turn."""
    if not is_awaited(view):
        return None
    if DECLARE_PALIFICO in legal and rng.random() < 0.5:
        return legal_copy(legal, DECLARE_PALIFICO)
    beliefs = situation(view, legal).beliefs
    bids = bids_of(legal)
    bid = view["bid"]
    if bid is None:
        face = favourite_face(bids, beliefs, rng)
        wanted = int(beliefs.expected(face)) - rng.randint(0, 2)
        choices = [action for action in bids if action["face"] == face]
        return max(
            (a for a in choices if a["quantity"] <= wanted), key=lambda a: a["quantity"], default=choices[0]
        )
    expected = beliefs.expected(bid["face"])
    calza_worth = calza_may_regain(view) and abs(bid["quantity"] - expected) < 0.5
    if CALZA in legal and calza_worth and rng.random() < 0.3:
        return legal_copy(legal, CALZA)
    if DUDO in legal and (not bids or bid["quantity"] > expected + rng.uniform(0.0, 1.5)):
        return legal_copy(legal, DUDO)
    if not bids:
        return legal[0]
    cheapest = lowest_per_face(bids)
    if rng.random() < 0.2:
        return rng.choice(cheapest)
    face = favourite_face(cheapest, beliefs, rng)
    return next(action for action in cheapest if action["face"] == face)


def favourite_face(bids: list[Action], beliefs: Beliefs, rng: random.Random) -> int:
    """The biddable face the bot holds most of (ties broken at random)."""
    faces = sorted({action["face"] for action in bids})
    most = max(beliefs.mine[face] for face in faces)
    return rng.choice([face for face in faces if beliefs.mine[face] == most])


Bot = Callable[[View, list[Action], random.Random], Action | None]

LEVELS: dict[str, Bot] = {
    "easy": play_easy,
    "medium": partial(play_profile, profile=MEDIUM),
    "hard": partial(play_profile, profile=HARD),
}
