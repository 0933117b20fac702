"""Speed of the pure rules libraries: random playouts per second and legal-move generations per second.

Run: ``PYTHONPATH=platform:. .venv/bin/python bench/rules_bench.py [--seconds 2]``. Prints one table; nothing here
is asserted (timings never belong in tests). Targets: 100 complete random 6-player Perudo games a
second, and 50,000 full legal-move generations a second on crowded 6-player Chinese Checkers positions, on one core.
"""

from __future__ import annotations

import argparse
import random
import time

from tapete_sdk import registry
from tapete_sdk.plugin import CHANCE, play_random


def playouts_per_second(rules, num_players: int, seconds: float, seed: int = 1) -> tuple[float, float]:
    """(games per second, actions per second) of uniformly random play with default options."""
    rng = random.Random(seed)
    games = actions = 0
    start = time.perf_counter()
    while time.perf_counter() - start < seconds:
        playout = play_random(rules, {}, num_players, rng)
        games += 1
        actions += len(playout.log)
    elapsed = time.perf_counter() - start
    return games / elapsed, actions / elapsed


def sample_positions(
    rules, num_players: int, plies: int, count: int, seed: int = 2
) -> list[tuple[dict, int]]:
    """Positions reached by random play after about ``plies`` actions, each with a seat that may act there."""
    rng = random.Random(seed)
    positions = []
    while len(positions) < count:
        options = rules.normalize_options({}, num_players)
        state = rules.initial_state(options, num_players)
        for _ in range(plies):
            acting = rules.to_act(state)
            if not acting:
                break
            if CHANCE in acting:
                state, _ = rules.apply_action(state, CHANCE, rules.sample_chance(state, rng))
                continue
            seat = rng.choice(sorted(acting))
            state, _ = rules.apply_action(state, seat, rng.choice(rules.legal_actions(state, seat)))
        acting = rules.to_act(state) - {CHANCE}
        if acting:
            positions.append((state, min(acting)))
    return positions


def generations_per_second(rules, positions: list[tuple[dict, int]], seconds: float) -> tuple[float, float]:
    """(legal-move generations per second, average number of legal actions per position)."""
    calls = moves = 0
    start = time.perf_counter()
    while time.perf_counter() - start < seconds:
        for state, seat in positions:
            moves += len(rules.legal_actions(state, seat))
            calls += 1
    return calls / (time.perf_counter() - start), moves / calls


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--seconds", type=float, default=2.0, help="time spent on each measurement")
    args = parser.parse_args()
    games = registry.discover()
    print(f"{'game':<16}{'players':>8}{'games/s':>12}{'actions/s':>12}{'legal gen/s':>14}{'avg legal':>11}")
    for rules in games:
        for num_players in range(rules.min_players, rules.max_players + 1):
            try:
                rules.normalize_options({}, num_players)
            except Exception:  # noqa: BLE001 - a player count the game does not support
                continue
            per_game, per_action = playouts_per_second(rules, num_players, args.seconds)
            plies = 60 if rules.key == "chinesecheckers" else 10
            positions = sample_positions(rules, num_players, plies, count=50)
            per_generation, average = generations_per_second(rules, positions, args.seconds)
            print(
                f"{rules.key:<16}{num_players:>8}{per_game:>12.1f}{per_action:>12.0f}"
                f"{per_generation:>14.0f}{average:>11.1f}"
            )


if __name__ == "__main__":
    main()
