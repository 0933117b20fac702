"""The solved duel endgames as a policy: what the equilibrium of ``games/perudo/solver.py`` plays in a position.

``games/perudo/solved/<option set>.json.gz`` holds, per solved option set, the average CFR+ strategy at every
information set the equilibrium player reaches (whatever the other player does), with probabilities quantized to
integers out of 255: ``{"strategies": {position: {history: {hand: {action: weight}}}}}``. A position is
``<opener's dice>-<other's dice>-<flags>`` (flags: the opener's Palifico candidacy, the opener's and the other's
Palifico used before the round; both used flags 0 without ``palificoOncePerPlayer``, where nothing reads them), a
history the round's bids ``q.f`` joined by spaces, a hand the seat's dice sorted, an action ``q.f``, ``D`` (Dudo)
or ``C`` (Calza). The rounds with three or four dice in play (``bench/perudo_duel_solver.py``) are larger and have
a file each, ``<option set>.<position>.json.gz`` holding ``{"strategy": {history: "hand:action=weight,…;…"}}``
(:func:`entries`); their figures are in the main file. The files are read on first use only, and kept.

:func:`solved_strategy` maps a seat's view to that table: two players left, the table's options in one of the
solved sets (:data:`OPTION_SETS`, compared on the options that change a duel: :data:`ROUND_OPTIONS`), a position
and a history that the file covers, and every weighted action legal. Otherwise it returns None and the bot plays
its own way. The other seat's dice are those of ``bots_model.other_dice_counts``: exact when the count is shown,
for a Palifico player, and in a duel without Calza, where every round takes one die; with Calza and the count
hidden a regained die makes them uncertain, and the solved strategies are not used.
"""

from __future__ import annotations

import gzip
import json
import random
from functools import cache
from pathlib import Path
from typing import Any

from games.perudo.bots_model import Action, View, dice_in_play, other_dice_counts, own_matches
from games.perudo.options import normalize_options

SOLVED_DIR = Path(__file__).resolve().parent / "solved"

# The options that change a duel's endgame; the others (Salsa, the first player, the dice shown, the bid cap)
# change nothing once two players are left with the dice in play known.
ROUND_OPTIONS = (
    "allowPacoOpening",
    "allowPacoOpeningInPalifico",
    "raiseMode",
    "palificoOncePerPlayer",
    "palificoOneDieMayChangeFace",
    "palificoPacoBids",
    "palificoMode",
    "calza",
    "calzaCaller",
    "calzaRequiresMissingDie",
    "calzaSuccessEffect",
)

OPTION_SETS: dict[str, dict[str, Any]] = {
    "default": {},
    "palifico-face-change": {"palificoOneDieMayChangeFace": True},
    "palifico-no-pacos": {"palificoPacoBids": "forbidden"},
    "palifico-every-time": {"palificoOncePerPlayer": False},
    # The dice count shown: with Calza and the count hidden the bots do not use the solved strategies
    # (view_position), so that is how the solver's trees and bench/perudo_endgames.py see this set's tables.
    "calza": {"calza": True, "lostDiceVisible": True},
}

Position = tuple[
    int, int, bool, bool, bool
]  # opener dice, other dice, opener's Palifico candidacy, used, used


@cache
def reference_options(name: str) -> dict[str, Any]:
    return normalize_options(OPTION_SETS[name], 2)


def option_set_of(options: dict[str, Any]) -> str | None:
    """The solved option set a table's normalized options fall in, if any."""
    for name in OPTION_SETS:
        reference = reference_options(name)
        if all(options.get(key) == reference[key] for key in ROUND_OPTIONS):
            return name
    return None


def position_key(position: Position) -> str:
    opener_dice, other_dice, candidate, used_opener, used_other = position
    return f"{opener_dice}-{other_dice}-{int(candidate)}{int(used_opener)}{int(used_other)}"


def action_key(action: Action) -> str:
    """A short stable name of an action: ``q.f`` for a bid, ``D`` Dudo, ``C`` Calza, ``P`` declare Palifico."""
    kind = action["type"]
    if kind == "bid":
        return f"{action['quantity']}.{action['face']}"
    return {"dudo": "D", "calza": "C", "declare_palifico": "P"}[kind]


@cache
def solved_file(name: str) -> dict[str, Any]:
    """The shipped file of one option set (empty if it is missing)."""
    path = SOLVED_DIR / f"{name}.json.gz"
    if not path.exists():
        return {}
    with gzip.open(path, "rt", encoding="utf-8") as handle:
        return json.load(handle)


def strategies(name: str) -> dict[str, Any]:
    """The solved strategies of one option set's main file: ``{position: {history: {hand: {action: weight}}}}``
    (the one-die positions; the larger ones have a file each, see :func:`position_table`)."""
    return solved_file(name).get("strategies", {})


@cache
def position_table(name: str, key: str) -> dict[str, Any] | None:
    """The solved strategy of one position, ``{history: {hand: {action: weight}}}``: from its own file
    ``<option set>.<position>.json.gz`` where it has one (the rounds with three or four dice in play, read only
    when such a round is played), else from the option set's main file."""
    path = SOLVED_DIR / f"{name}.{key}.json.gz"
    if path.exists():
        with gzip.open(path, "rt", encoding="utf-8") as handle:
            return json.load(handle)["strategy"]
    return strategies(name).get(key)


def figures(name: str) -> dict[str, list]:
    """Per solved position: [the opener's value, the NashConv of the shipped strategy, information sets]."""
    return solved_file(name).get("figures", {})


def entries(value: dict[str, dict[str, int]] | str | None) -> dict[str, dict[str, int]]:
    """One history's ``{hand: {action: weight}}``. The per-position files store it as a string,
    ``hand:action=weight,action=weight;hand:…``, decoded only when that history is played: loading a file of
    tens of thousands of histories then builds no nested dictionaries (ten times faster)."""
    if value is None:
        return {}
    if isinstance(value, dict):
        return value
    out = {}
    for part in value.split(";"):
        hand, _, actions = part.partition(":")
        out[hand] = {key: int(weight) for key, _, weight in (a.partition("=") for a in actions.split(","))}
    return out


def encode(table: dict[str, dict[str, int]]) -> str:
    """:func:`entries`' string form of one history's ``{hand: {action: weight}}``."""
    return ";".join(
        f"{hand}:" + ",".join(f"{key}={weight}" for key, weight in weights.items())
        for hand, weights in table.items()
    )


def view_position(view: View) -> Position | None:
    """The duel position of the round the view shows, or None if it is not a duel or the dice are not known."""
    if len(view["in_game"]) != 2 or view["starter"] is None:
        return None
    if view["dice_in_play"] is None and view["options"]["calza"]:
        return None  # a correct Calza gives a die back: with the count hidden, the dice left are not known
    seat, starter = view["seat"], view["starter"]
    other = next(s for s in view["in_game"] if s != starter)
    mine = view["my_dice_count"]
    if not mine:
        return None
    theirs = next(iter(other_dice_counts(view, dice_in_play(view)).values()))
    opener_dice, other_dice = (mine, theirs) if seat == starter else (theirs, mine)
    candidate = bool(view["palifico"]) and view["palifico_player"] == starter
    used = view["palifico_used"]
    if not view["options"]["palificoOncePerPlayer"]:
        return opener_dice, other_dice, candidate, False, False  # who has had a Palifico changes nothing then
    return opener_dice, other_dice, candidate, used[starter] and not candidate, used[other]


def solved_strategy(
    view: View, legal: list[Action], bluff_known_false: bool = True
) -> list[tuple[Action, int]] | None:
    """The equilibrium's (action, weight) pairs at this decision, or None where no solved strategy applies.

    The equilibrium bluffs, now and then with raises its own dice prove false (the other player cannot tell);
    ``bluff_known_false`` False leaves those out (medium's way), and None is returned if nothing is left.
    """
    if view["seat"] not in view["awaited"] or not view["my_dice"]:
        return None
    name = option_set_of(view["options"])
    position = view_position(view) if name is not None else None
    if position is None:
        return None
    table = position_table(name, position_key(position))
    history = " ".join(f"{entry['quantity']}.{entry['face']}" for entry in view["history"])
    weights = entries((table or {}).get(history)).get("".join(map(str, sorted(view["my_dice"]))))
    if not weights:
        return None
    by_key = {action_key(action): action for action in legal}
    if any(key not in by_key for key in weights):
        return None
    pairs = [(by_key[key], weight) for key, weight in weights.items()]
    if not bluff_known_false:
        total = position[0] + position[1]
        pairs = [pair for pair in pairs if not known_false(pair[0], view, total)]
    return pairs or None


def known_false(action: Action, view: View, dice: int) -> bool:
    """Is ``action`` a bid the seat's own dice prove false, with ``dice`` dice in play?"""
    if action["type"] != "bid":
        return False
    own = own_matches(view["my_dice"], action["face"], view["palifico"])
    return own + dice - len(view["my_dice"]) < action["quantity"]


def solved_choice(
    view: View, legal: list[Action], rng: random.Random, bluff_known_false: bool = True
) -> Action | None:
    """An action drawn from the equilibrium's strategy, or None where it does not apply."""
    pairs = solved_strategy(view, legal, bluff_known_false)
    if pairs is None:
        return None
    actions, weights = zip(*pairs, strict=True)
    return rng.choices(actions, weights=weights)[0]
