"""Scripted Spicy games for the tests: a deck order that deals chosen hands, and checked steps."""

from __future__ import annotations

import copy
import json
from collections import Counter
from typing import Any

from tapete_sdk.plugin import CHANCE

from games.spicy.cards import DECK
from games.spicy.rules import RULES

State = dict[str, Any]


def deck_order(hands: list[list[str]], draw_top: list[str] = ()) -> list[str]:
    """A 100-card order that deals ``hands`` (one card at a time from seat 0) and puts ``draw_top`` on top of the
    draw pile (``draw_top[0]`` drawn first); the other cards follow in sorted order."""
    size = len(hands[0])
    assert all(len(hand) == size for hand in hands), "every hand is dealt the same number of cards"
    dealt = [hands[k % len(hands)][k // len(hands)] for k in range(len(hands) * size)]
    remaining = list(DECK)
    for card in [*dealt, *draw_top]:
        remaining.remove(card)
    return dealt + list(draw_top) + remaining


def shuffle_action(
    state: State,
    hands: list[list[str]],
    draw_top: list[str] = (),
    first: int = 0,
    offset: int = 0,
    spice_it_up: list[str] | None = None,
) -> dict[str, Any]:
    action: dict[str, Any] = {"type": "shuffle", "deck": deck_order(hands, draw_top), "first_player": first}
    if state["options"]["worldsEnd"]:
        action["worlds_end_offset"] = offset
    if spice_it_up is not None:
        action["spice_it_up"] = spice_it_up
    return action


def new_game(num_players: int, **options: Any) -> State:
    return RULES.initial_state(RULES.normalize_options(options, num_players), num_players)


def start(
    hands: list[list[str]],
    draw_top: list[str] = (),
    *,
    first: int = 0,
    offset: int = 0,
    spice_it_up: list[str] | None = None,
    **options: Any,
) -> State:
    """A game dealt as scripted; ``handSize`` follows the hands."""
    state = new_game(len(hands), handSize=len(hands[0]), **options)
    state, _events = act(state, CHANCE, shuffle_action(state, hands, draw_top, first, offset, spice_it_up))
    return state


def act(state: State, seat: int, action: dict[str, Any]) -> tuple[State, list[dict[str, Any]]]:
    """Apply an action, checking that the input is untouched and the result is plain JSON."""
    before, action_before = copy.deepcopy(state), copy.deepcopy(action)
    new_state, events = RULES.apply_action(state, seat, action)
    assert state == before and action == action_before, "apply_action mutated its input"
    assert json.loads(json.dumps(new_state)) == new_state
    assert json.loads(json.dumps(events)) == events
    if new_state["phase"] != "setup":
        assert_all_cards_accounted_for(new_state)
    return new_state, events


def step(state: State, seat: int, action: dict[str, Any]) -> State:
    return act(state, seat, action)[0]


def play(state: State, seat: int, card: str, spice: str, number: int, **extra: Any) -> State:
    return step(
        state, seat, {"type": "play", "card": card, "declare": {"spice": spice, "number": number}, **extra}
    )


def challenge(state: State, seat: int, trait: str | None) -> State:
    action: dict[str, Any] = {"type": "challenge"}
    if trait is not None:
        action["trait"] = trait
    return step(state, seat, action)


def all_cards(state: State) -> list[str]:
    cards = [card for hand in state["hands"] for card in hand] + list(state["draw"])
    for entry in state["stack"]:
        cards += [entry["card"], *entry["tucked"]]
    return cards + [card for pile in state["won"] for card in pile]


def assert_all_cards_accounted_for(state: State) -> None:
    assert Counter(all_cards(state)) == Counter(DECK)


def types(events: list[dict[str, Any]]) -> list[str]:
    return [event["type"] for event in events]


def give_won_cards(state: State, seat: int, count: int) -> State:
    """Test surgery: move ``count`` cards from just above World's End into ``seat``'s won pile."""
    state = copy.deepcopy(state)
    below = state["worlds_end_below"] or 0
    moved = state["draw"][below : below + count]
    del state["draw"][below : below + count]
    state["won"][seat] += moved
    return state
