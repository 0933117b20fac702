"""Speed of the Chinese Checkers move generator (not a test: timings never go in tests).

Run from the repository root::

    PYTHONPATH=platform:. .venv/bin/python bench/chinesecheckers_movegen.py

It builds crowded 6-player middle-game positions by random play (60 plies from the start, several seeds) and
reports how many full legal-move generations (``board.generate_moves``: every destination of every marble of the
seat to move) run per second on one core, best of several rounds; then the same through the plugin's
``legal_actions`` (which also builds the action dicts) and the speed of random playouts.
"""

from __future__ import annotations

import random
import time

from tapete_sdk.plugin import play_random

from games.chinesecheckers import board as geometry
from games.chinesecheckers.rules import RULES

POSITIONS = 20
PLIES = 60
ROUNDS = 7


def crowded_positions(count: int = POSITIONS, plies: int = PLIES) -> list[tuple[str, int, int]]:
    """(board, seat to move, its start point) after ``plies`` random moves of a 6-player game, one per seed."""
    positions = []
    points = geometry.SEAT_POINTS[6]
    for seed in range(count):
        rng = random.Random(seed)
        board = geometry.initial_board(points)
        for ply in range(plies):
            seat = ply % 6
            moves = [
                (origin, destination)
                for origin, destinations in geometry.generate_moves(board, seat, points[seat])
                for destination in sorted(destinations)
            ]
            origin, destination = rng.choice(moves)
            board = geometry.place(geometry.place(board, origin, geometry.EMPTY), destination, str(seat))
        positions.append((board, plies % 6, points[plies % 6]))
    return positions


def best_rate(run_once, calls_per_round: int) -> float:
    best = 0.0
    for _ in range(ROUNDS):
        start = time.perf_counter()
        run_once()
        best = max(best, calls_per_round / (time.perf_counter() - start))
    return best


def main() -> None:
    positions = crowded_positions()
    repeats = 100
    moves = sum(
        len(d) for board, seat, point in positions for _o, d in geometry.generate_moves(board, seat, point)
    )
    print(f"{len(positions)} positions, {moves / len(positions):.1f} legal moves on average")

    def generate() -> None:
        for _ in range(repeats):
            for board, seat, point in positions:
                geometry.generate_moves(board, seat, point)

    rate = best_rate(generate, repeats * len(positions))
    print(f"generate_moves: {rate:,.0f} full generations/s ({1e6 / rate:.1f} µs each)")

    states = []
    for board, seat, _point in positions:
        state = RULES.initial_state({"firstPlayer": "seat0"}, 6)
        states.append({**state, "board": board, "turn": seat})

    def legal() -> None:
        for _ in range(repeats // 10):
            for state in states:
                RULES.legal_actions(state, state["turn"])

    rate = best_rate(legal, repeats // 10 * len(states))
    print(f"legal_actions:  {rate:,.0f} calls/s ({1e6 / rate:.1f} µs each)")

    start = time.perf_counter()
    plies = 0
    for seed in range(10):
        playout = play_random(RULES, RULES.normalize_options({}, 6), 6, random.Random(seed))
        plies += len(playout.log)
    elapsed = time.perf_counter() - start
    print(
        f"random playouts (6 players, default options): {plies / elapsed:,.0f} plies/s, {elapsed / 10:.2f} s each"
    )


if __name__ == "__main__":
    main()
