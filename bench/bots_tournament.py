"""Bot tournaments: thousands of headless bot-vs-bot games per title; prints win rates between levels and speed.

Run: ``PYTHONPATH=platform:. .venv/bin/python bench/bots_tournament.py [--games 1000] [--game perudo]``.

Each ``games/<key>/bots.py`` exposes ``LEVELS``: level name -> ``choose(view, legal, rng)``, a function of what
the seat's view shows and its legal actions only, returning an action from ``legal``, or None to let an
out-of-turn opportunity go by (only allowed when the seat is not awaited). Every pairing plays with seats
alternating so that neither level profits from the seat order.
"""

from __future__ import annotations

import argparse
import importlib
import itertools
import random
import time

from turnengine import registry
from turnengine.plugin import CHANCE

MAX_STEPS = 20_000


def play(rules, options: dict, seat_bots: list, rng: random.Random):
    """One game; each seat's bot sees only ``rules.view(state, seat)`` and its legal actions."""
    num_players = len(seat_bots)
    state = rules.initial_state(rules.normalize_options(options, num_players), num_players)
    for _ in range(MAX_STEPS):
        acting = rules.to_act(state)
        if not acting:
            return rules.outcome(state)
        if CHANCE in acting:
            state, _ = rules.apply_action(state, CHANCE, rules.sample_chance(state, rng))
            continue
        awaited = rules.awaited(state)
        seats = sorted(acting, key=lambda seat: (seat in awaited, rng.random()))  # out-of-turn chances first
        for seat in seats:
            action = seat_bots[seat](rules.view(state, seat), rules.legal_actions(state, seat), rng)
            if action is not None:
                state, _ = rules.apply_action(state, seat, action)
                break
        else:
            raise RuntimeError(f"{rules.key}: every awaited bot declined to act")
    raise RuntimeError(f"{rules.key}: no end after {MAX_STEPS} steps")


def head_to_head(
    rules, levels: dict, strong: str, weak: str, games: int, num_players: int, options: dict, seed: int
) -> tuple[float, float]:
    """Share of games won by ``strong`` (a tie at the top counts as a share) and games per second."""
    rng = random.Random(seed)
    wins = 0.0
    start = time.perf_counter()
    for game in range(games):
        lineup = [strong if (seat + game) % 2 == 0 else weak for seat in range(num_players)]
        outcome = play(rules, options, [levels[name] for name in lineup], rng)
        winners = outcome.ranking[0]
        wins += sum(lineup[seat] == strong for seat in winners) / len(winners)
    elapsed = time.perf_counter() - start
    strong_seats = sum(1 for seat in range(num_players) if seat % 2 == 0) / num_players
    return wins / games, games / elapsed, strong_seats


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--games", type=int, default=1000, help="games per pairing")
    parser.add_argument("--game", help="only this title")
    parser.add_argument("--players", type=int, default=2)
    args = parser.parse_args()
    print(
        f"{'game':<16}{'strong':>8}{'weak':>8}{'players':>8}{'strong wins':>13}{'fair share':>11}{'games/s':>10}"
    )
    for rules in registry.discover():
        if args.game and rules.key != args.game:
            continue
        try:
            levels = importlib.import_module(f"games.{rules.key}.bots").LEVELS
        except ModuleNotFoundError:
            continue
        options = {"challengeGraceMs": 0} if rules.key == "spicy" else {}
        for strong, weak in itertools.combinations(reversed(list(levels)), 2):
            share, speed, fair = head_to_head(
                rules, levels, strong, weak, args.games, args.players, options, 1
            )
            print(
                f"{rules.key:<16}{strong:>8}{weak:>8}{args.players:>8}{share:>12.1%}{fair:>11.0%}{speed:>10.1f}"
            )


if __name__ == "__main__":
    main()
