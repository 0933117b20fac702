"""The Perudo reference player: a binomial player that never bluffs.

From its own dice and the number of dice it does not see, it takes every other die to show each face with the
chance the rules give (a third for a face, counting the wild Pacos; a sixth for Pacos, or for any face in a
Palifico round) and so knows, for any bid, the probability that it is true and that it is exact. It reads one
thing from the bidding: whoever made the standing bid holds one die of its face (so, for the standing bid and any
bid on the same face, one of the unseen dice is taken to match and the rest follow the binomial law). A player
names a face because they hold some of it; without that reading this player took every bid for a random claim,
and the issue's independent binomial player (which the levels' figures are quoted against) was clearly stronger:
with the default options heads-up medium beat this one 61% and that one 53%. Then, on its turn:

* opening: the face it holds most of (Pacos only where the opening may name them and then at double value), at the
  highest quantity that is very likely true (85%: a bolder opening is doubted too often heads-up, which made an
  opening at even odds lose to the easy level);
* answering: whichever is most likely right among Dudo (the standing bid is false), the most probable legal raise
  (the cheapest one among equals) and Calza (the count is exact), Calza only when a correct one would gain it
  something (a die below its starting count, or the others' dice under that house rule);
* a one-die player declares Palifico whenever the table lets it choose.

It never bluffs: each bid is the most probable one it may make, judged from its own dice and that one read die.
Out of turn (Salsa, Calza by anyone) it speaks only on a standing bid it knows to be impossible. With lost dice
hidden it counts the dice in play the way a player who keeps no notes would: one die lost per finished round.
"""

from __future__ import annotations

import math
import random
from typing import Any

PACO = 1
OPEN_CONFIDENCE = 0.85  # it opens at the highest quantity at least this likely true
Action = dict[str, Any]


def face_chance(face: int, palifico: bool) -> float:
    return 1 / 6 if palifico or face == PACO else 1 / 3


def own_count(dice: list[int], face: int, palifico: bool) -> int:
    wild = not palifico and face != PACO
    return sum(1 for die in dice if die == face or (wild and die == PACO))


def unseen_dice(view: dict) -> int:
    """The dice of the other players: shown, or the table's start minus one die per finished round."""
    mine = view["my_dice_count"]
    others = len(view["in_game"]) - 1
    if view["dice_in_play"] is not None:
        return view["dice_in_play"] - mine
    options = view["options"]
    guess = options["startingDice"] * view["num_players"] - (view["round"] - 1) - mine
    return max(others, min(others * options["maxDice"], guess))


def at_least(n: int, p: float, needed: int) -> float:
    """P(Binomial(n, p) ≥ needed)."""
    if needed <= 0:
        return 1.0
    return sum(math.comb(n, k) * p**k * (1 - p) ** (n - k) for k in range(needed, n + 1))


def exactly(n: int, p: float, needed: int) -> float:
    return math.comb(n, needed) * p**needed * (1 - p) ** (n - needed) if 0 <= needed <= n else 0.0


def read_dice(view: dict, unseen: int, quantity: int, face: int) -> tuple[int, int]:
    """The unseen dice left to the binomial law and how many of them must match for ``quantity`` of ``face``:
    the bidder of the standing bid is taken to hold one die of its face (module docs)."""
    needed = quantity - own_count(view["my_dice"], face, view["palifico"])
    bid = view["bid"]
    if bid is not None and bid["face"] == face and bid.get("bidder") != view["seat"] and unseen > 0:
        return unseen - 1, needed - 1
    return unseen, needed


def chance_true(view: dict, unseen: int, quantity: int, face: int) -> float:
    n, needed = read_dice(view, unseen, quantity, face)
    return at_least(n, face_chance(face, view["palifico"]), needed)


def chance_exact(view: dict, unseen: int, quantity: int, face: int) -> float:
    n, needed = read_dice(view, unseen, quantity, face)
    return exactly(n, face_chance(face, view["palifico"]), needed)


def calza_gains(view: dict) -> bool:
    options = view["options"]
    if options["calzaSuccessEffect"] == "othersLoseOne":
        return True
    return view["my_dice_count"] < min(options["startingDice"], options["maxDice"])


def opening(view: dict, bids: list[Action], unseen: int) -> Action:
    """The face held most of (a Paco counts for two bids' worth), at the highest quantity likely true."""
    palifico = view["palifico"]

    def held(face: int) -> float:
        count = own_count(view["my_dice"], face, palifico)
        return 2 * count if face == PACO and not palifico else count

    faces = sorted({bid["face"] for bid in bids}, key=lambda face: (held(face), face))
    face = faces[-1]
    on_face = [bid for bid in bids if bid["face"] == face]
    likely = [bid for bid in on_face if chance_true(view, unseen, bid["quantity"], face) >= OPEN_CONFIDENCE]
    return max(likely, key=lambda bid: bid["quantity"]) if likely else on_face[0]


def choose(view: dict, legal: list[Action], rng: random.Random) -> Action | None:
    if not legal:
        return None
    unseen = unseen_dice(view)
    bid = view["bid"]
    awaited = view["seat"] in view["awaited"]
    dudo = next((action for action in legal if action["type"] == "dudo"), None)
    calza = next((action for action in legal if action["type"] == "calza"), None)
    bids = [action for action in legal if action["type"] == "bid"]
    if not awaited:
        if dudo is not None and chance_true(view, unseen, bid["quantity"], bid["face"]) == 0.0:
            return dudo
        return None
    declare = next((action for action in legal if action["type"] == "declare_palifico"), None)
    if declare is not None:
        return declare
    if bid is None:
        return opening(view, bids, unseen)
    # (probability of being right, preference among equals, action)
    choices: list[tuple[float, int, Action]] = []
    if dudo is not None:
        choices.append((1.0 - chance_true(view, unseen, bid["quantity"], bid["face"]), 1, dudo))
    if bids:
        best = max(bids, key=lambda action: chance_true(view, unseen, action["quantity"], action["face"]))
        choices.append((chance_true(view, unseen, best["quantity"], best["face"]), 2, best))
    if calza is not None and calza_gains(view):
        choices.append((chance_exact(view, unseen, bid["quantity"], bid["face"]), 0, calza))
    if not choices:
        return legal[0]
    return max(choices, key=lambda choice: choice[:2])[2]
