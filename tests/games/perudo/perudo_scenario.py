"""Scripted-dice helpers for the Perudo rules tests.

Every action goes through :func:`act`, which also checks that ``apply_action`` leaves its input untouched and that
the new state and the events survive a JSON round-trip, so each scenario test checks those promises on the way.
"""

from __future__ import annotations

import copy
import json
from typing import Any

from tapete_sdk.plugin import CHANCE

from games.perudo.rules import RULES

State = dict[str, Any]

DUDO = {"type": "dudo"}
CALZA = {"type": "calza"}
DECLARE = {"type": "declare_palifico"}


def bid(quantity: int, face: int, **extra: Any) -> dict[str, Any]:
    return {"type": "bid", "quantity": quantity, "face": face, **extra}


def act(state: State, seat: int, action: dict[str, Any]) -> tuple[State, list[dict[str, Any]]]:
    before = copy.deepcopy(state)
    action_before = copy.deepcopy(action)
    new_state, events = RULES.apply_action(state, seat, action)
    assert state == before, "apply_action mutated the state"
    assert action == action_before, "apply_action mutated the action"
    assert json.loads(json.dumps(new_state)) == new_state
    assert json.loads(json.dumps(events)) == events
    return new_state, events


def apply(state: State, seat: int, action: dict[str, Any]) -> State:
    return act(state, seat, action)[0]


def play(state: State, *moves: tuple[int, dict[str, Any]]) -> State:
    for seat, action in moves:
        state = apply(state, seat, action)
    return state


def new_game(num_players: int = 3, first: int = 0, **options: Any) -> State:
    """A game whose first player is ``first``, waiting for the first roll."""
    state = RULES.initial_state(RULES.normalize_options(options, num_players), num_players)
    return apply(state, CHANCE, {"type": "first_player", "seat": first})


def roll(state: State, hands: list[list[int]]) -> State:
    return apply(state, CHANCE, {"type": "roll", "dice": hands})


def start(hands: list[list[int]], first: int = 0, **options: Any) -> State:
    """A game in its first round, rolled with ``hands``; the options must fit the hands' sizes."""
    return roll(new_game(len(hands), first, **options), hands)


def all_sixes(state: State) -> list[list[int]]:
    return [[6] * count for count in state["counts"]]


def lose_die(state: State, loser: int) -> State:
    """Play a whole round (from the roll) in which ``loser`` loses one die: every die shows 6, so bids on 6s up
    to the dice in play are true and a bid on 5s is false."""
    state = roll(state, all_sixes(state))
    opener = state["turn"]
    if opener == loser:
        state = apply(state, opener, bid(1, 5))
        return apply(state, state["turn"], DUDO)
    state = apply(state, opener, bid(1, 6))
    while state["turn"] != loser:
        state = apply(state, state["turn"], bid(state["bid"]["quantity"] + 1, 6))
    return apply(state, loser, DUDO)


def of_type(events: list[dict[str, Any]], kind: str) -> list[dict[str, Any]]:
    return [event for event in events if event["type"] == kind]


def legal_bids(state: State, seat: int) -> list[tuple[int, int]]:
    return [(a["quantity"], a["face"]) for a in RULES.legal_actions(state, seat) if a["type"] == "bid"]
