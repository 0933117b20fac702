"""Each Perudo level against the solved duel endgames: its chance against the equilibrium, and a best responder's.

Run (nice it: the machine is shared)::

    PYTHONPATH=platform:sdk:. nice -n 19 .venv/bin/python bench/perudo_endgames.py --samples 24

For every option set and position the solver covers (``games/perudo/solver.py``, the shipped strategies of
``games/perudo/solved/``), the round's tree is grown again from the engine and each level's strategy is read at
every information set its own play reaches: the level is asked for its choice from the very view the engine gives
that seat (own hand, the round's bids), ``--samples`` times with different seeds, and the answers' frequencies
are its strategy there. Where a level follows the shipped strategy (``Profile.solved_share``), that share of its
strategy is the shipped one exactly and only the rest is sampled, so that sampling noise is not mistaken for a
weakness. A choice outside the tree (a bid above the dice in play, certainly false) is counted as a Dudo: both
lose the round at least as surely.

Two figures per level, exact expectations over the deals (no playouts), averaged over the two seats (opener and
other), each round valued with the equilibrium's values of the positions it leads to:

* **vs equilibrium**: the level's chance of winning against the shipped equilibrium strategy (50% is perfect);
* **exploiter**: the chance of a best responder, who knows the level's strategy, against the level (50% for an
  unexploitable level).

The equilibrium's own row is the shipped strategy read the same way (its exploiter figure is its NashConv / 2
above 50%). Results: ``bench/RESULTS.md``.
"""

from __future__ import annotations

import argparse
import random
from collections import Counter
from dataclasses import replace
from functools import partial

from games.perudo import bots_solved
from games.perudo.bots import HARD, LEVELS, MEDIUM, Profile, play_easy, play_profile
from games.perudo.solver import Policy, Round, shipped_policy, shipped_rounds

PROFILES: dict[str, Profile] = {"medium": MEDIUM, "hard": HARD}


def level_policy(level: str, samples: int, seed: int) -> Policy:
    """The level's strategy at a node, read from its answers (cached per round, node and hand)."""
    cache: dict[tuple[int, int, int], list[float]] = {}
    profile = PROFILES.get(level)
    own_way = (
        play_easy if profile is None else partial(play_profile, profile=replace(profile, solved_share=0.0))
    )
    share = 0.0 if profile is None else profile.solved_share

    def policy(game: Round, index: int, hand: int) -> list[float]:
        key = (id(game), index, hand)
        if key not in cache:
            node = game.nodes[index]
            view, legal = game.view(index, hand)
            keys = [bots_solved.action_key(action) for action in node.actions]
            solved = bots_solved.solved_strategy(view, legal, profile.solved_known_false) if share else None
            mix = share if solved is not None else 0.0
            counts: Counter[str] = Counter()
            if mix < 1.0:
                for sample in range(samples):
                    action = own_way(view, legal, random.Random(seed * 100_003 + sample))
                    name = bots_solved.action_key(action)
                    counts[name if name in keys else "D"] += 1
            strategy = [(1.0 - mix) * counts[name] / samples if mix < 1.0 else 0.0 for name in keys]
            if solved is not None:
                total = sum(weight for _, weight in solved)
                for action, weight in solved:
                    strategy[keys.index(bots_solved.action_key(action))] += mix * weight / total
            cache[key] = strategy
        return cache[key]

    return policy


def figures(game: Round, policy: Policy, equilibrium: Policy) -> tuple[float, float]:
    """(vs equilibrium, exploiter), averaged over the two seats."""
    versus = (game.evaluate(0, policy, equilibrium) + game.evaluate(1, policy, equilibrium)) / 2
    exploiter = (game.evaluate(0, None, policy) + game.evaluate(1, None, policy)) / 2
    return versus, exploiter


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n", 1)[0])
    parser.add_argument(
        "--samples", type=int, default=24, help="answers asked of a level per information set"
    )
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--sets", nargs="*", default=list(bots_solved.OPTION_SETS))
    args = parser.parse_args()
    print("| option set | position | entrant | vs equilibrium | exploiter |")
    print("| --- | --- | --- | ---: | ---: |")
    for name in args.sets:
        table = bots_solved.strategies(name)
        seen: set[tuple] = set()
        for position, game in shipped_rounds(name).items():
            same = (position[:3], tuple(tuple(terminal.value) for terminal in game.terminals))
            if same in seen:
                continue  # the same round as one above (flags its reveals ignore)
            seen.add(same)
            equilibrium = shipped_policy(table[bots_solved.position_key(position)])
            entrants = {"equilibrium": equilibrium}
            entrants.update({level: level_policy(level, args.samples, args.seed) for level in LEVELS})
            for entrant, policy in entrants.items():
                versus, exploiter = figures(game, policy, equilibrium)
                key = bots_solved.position_key(position)
                print(f"| {name} | {key} | {entrant} | {versus:.1%} | {exploiter:.1%} |", flush=True)


if __name__ == "__main__":
    main()
