"""Helpers shared by the Chinese Checkers tests: build positions from cube coordinates, play moves."""

from __future__ import annotations

import random

from tapete_sdk.plugin import CHANCE

from games.chinesecheckers import board as geometry
from games.chinesecheckers import bots
from games.chinesecheckers.rules import RULES

Cube = tuple[int, int, int]


def new_game(num_players: int = 2, **options) -> dict:
    """A fresh game where seat 0 starts (no chance step)."""
    return RULES.initial_state(
        RULES.normalize_options({"firstPlayer": "seat0", **options}, num_players), num_players
    )


def position(marbles: dict[int, list[Cube]], num_players: int = 2, turn: int = 0, **options) -> dict:
    """A state with exactly ``marbles`` ({seat: [cube, ...]}) on the board and ``turn`` to move."""
    holes = [geometry.EMPTY] * geometry.CELL_COUNT
    for seat, cubes in marbles.items():
        for cube in cubes:
            holes[geometry.INDEX[cube]] = str(seat)
    return {**new_game(num_players, **options), "board": "".join(holes), "turn": turn}


def with_marbles(
    state: dict, moves: dict[Cube, Cube | None], additions: dict[Cube, int] | None = None
) -> dict:
    """``state`` with marbles moved (``{from: to}``, ``to`` None removes) and ``additions`` ({cube: seat}) put."""
    holes = list(state["board"])
    for origin, destination in moves.items():
        seat = holes[geometry.INDEX[origin]]
        assert seat != geometry.EMPTY, origin
        holes[geometry.INDEX[origin]] = geometry.EMPTY
        if destination is not None:
            holes[geometry.INDEX[destination]] = seat
    for cube, seat in (additions or {}).items():
        holes[geometry.INDEX[cube]] = str(seat)
    return {**state, "board": "".join(holes)}


def destinations(state: dict, cube: Cube) -> set[Cube]:
    """The legal destinations of the marble at ``cube`` for the seat to move, according to legal_actions."""
    actions = RULES.legal_actions(state, state["turn"])
    return {tuple(a["to"]) for a in actions if a["type"] == "move" and tuple(a["from"]) == cube}


def move(state: dict, origin: Cube, destination: Cube) -> tuple[dict, list[dict]]:
    return RULES.apply_action(
        state, state["turn"], {"type": "move", "from": list(origin), "to": list(destination)}
    )


def cubes_of_point(point: int) -> list[Cube]:
    return sorted(geometry.CELLS[cell] for cell in geometry.POINT_CELLS[point])


def add(cube: Cube, direction: Cube, times: int = 1) -> Cube:
    return (cube[0] + times * direction[0], cube[1] + times * direction[1], cube[2] + times * direction[2])


def play(seat_bots, seed: int, options: dict) -> dict:
    """A whole game between ``seat_bots`` (one choose function per seat), seeded; the final state."""
    rng = random.Random(seed)
    state = RULES.initial_state(RULES.normalize_options(options, len(seat_bots)), len(seat_bots))
    while RULES.to_act(state):
        if CHANCE in RULES.to_act(state):
            state, _ = RULES.apply_action(state, CHANCE, RULES.sample_chance(state, rng))
            continue
        seat = state["turn"]
        action = seat_bots[seat](RULES.view(state, seat), RULES.legal_actions(state, seat), rng)
        state, _ = RULES.apply_action(state, seat, action)
    return state


def play_levels(levels: tuple[str, ...], seed: int, options: dict) -> dict:
    """:func:`play` between bot levels given by name, so that a process pool can run it."""
    return play([bots.LEVELS[level] for level in levels], seed, options)
