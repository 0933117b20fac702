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
above 50%).

The normal rounds with three or four dice in play (two dice against one, two each) are solved by
``bench/perudo_duel_solver.py`` and measured here the same way on its public tree (``--two-dice``), vectorised
over the hands. Their trees are large (317,945 public nodes for two each), so a level is asked only where its own
play reaches with probability at least ``--reach`` for that hand (its other information sets weigh less than that
in every figure, and play uniformly), and ``--two-dice-samples`` times. Results: ``bench/RESULTS.md``.
"""

from __future__ import annotations

import argparse
import random
from collections import Counter
from dataclasses import replace
from functools import partial

import numpy as np

from bench.perudo_duel_solver import PublicTree, duel_positions, table_strategies
from games.perudo import bots_solved
from games.perudo.bots import HARD, LEVELS, MEDIUM, Profile, play_easy, play_profile
from games.perudo.rules import RULES
from games.perudo.solver import Policy, Round, roll, round_state, shipped_policy, shipped_rounds

PROFILES: dict[str, Profile] = {"medium": MEDIUM, "hard": HARD}


def level_answer(level: str, samples: int, seed: int):
    """``answer(view, legal, keys)``: the level's probabilities over the actions ``keys`` at a decision, read
    from its answers (a choice outside them counts as a Dudo)."""
    profile = PROFILES.get(level)
    own_way = (
        play_easy if profile is None else partial(play_profile, profile=replace(profile, solved_share=0.0))
    )
    share = 0.0 if profile is None else profile.solved_share

    def answer(view, legal, keys: list[str]) -> list[float]:
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
        return strategy

    return answer


def level_policy(level: str, samples: int, seed: int) -> Policy:
    """The level's strategy at a node, read from its answers (cached per round, node and hand)."""
    cache: dict[tuple[int, int, int], list[float]] = {}
    answer = level_answer(level, samples, seed)

    def policy(game: Round, index: int, hand: int) -> list[float]:
        key = (id(game), index, hand)
        if key not in cache:
            view, legal = game.view(index, hand)
            cache[key] = answer(view, legal, [bots_solved.action_key(a) for a in game.nodes[index].actions])
        return cache[key]

    return policy


def level_strategies(tree: PublicTree, seat: int, answer, reach_floor: float) -> tuple[list[np.ndarray], int]:
    """A level's strategy as ``seat`` on a public tree, per depth (the other seat's depths uniform, unread),
    asked where its own play reaches a hand with probability at least ``reach_floor``; and how many
    (node, hand) decisions were asked."""
    root = roll(round_state(tree.options, tree.position), (tree.hands[0][0], tree.hands[1][0]))
    states = {0: root}  # the engine's state per node of the current depth that the level reaches
    reach = np.ones((1, len(tree.hands[seat])))
    asked = 0
    out = []
    for d, level in enumerate(tree.levels):
        strategy = tree.normalize(d, np.zeros((len(level.edge_parent), len(tree.hands[level.actor]))))
        bounds = np.append(level.starts, len(level.edge_parent))
        if level.actor == seat:
            for node in np.flatnonzero((reach >= reach_floor).any(axis=1)).tolist():
                first, last = int(bounds[node]), int(bounds[node + 1])
                keys = [level.edge_action[e] for e in range(first, last)]
                for h in np.flatnonzero(reach[node] >= reach_floor).tolist():
                    state = dict(states[node])
                    dice = [list(d_) for d_ in state["dice"]]
                    dice[seat] = list(tree.hands[seat][h])
                    state["dice"] = dice
                    view, legal = RULES.view(state, seat), RULES.legal_actions(state, seat)
                    strategy[first:last, h] = answer(view, legal, keys)
                    asked += 1
            along = reach[level.edge_parent] * strategy
        else:
            along = reach[level.edge_parent]
        out.append(strategy)
        if d + 1 == len(tree.levels):
            break
        reach = along[level.bid_edges]
        children = {}
        for child in np.flatnonzero((reach >= reach_floor).any(axis=1)).tolist():
            edge = int(level.bid_edges[child])
            parent = int(level.edge_parent[edge])
            move = level.edge_action[edge]
            quantity, face = move.split(".")
            action = {"type": "bid", "quantity": int(quantity), "face": int(face)}
            children[child] = RULES.apply_action(states[parent], level.actor, action)[0]
        states = children
    return out, asked


def two_dice_rows(name: str, levels: list[str], samples: int, seed: int, reach_floor: float):
    """(position, entrant, vs equilibrium, exploiter, decisions asked) for the shipped three- and four-dice
    rounds of an option set."""
    options = RULES.normalize_options(bots_solved.OPTION_SETS[name], 2)
    values = {}
    for key, figure in bots_solved.figures(name).items():
        dice_a, dice_b, flags = key.split("-")
        values[(int(dice_a), int(dice_b), *(flag == "1" for flag in flags))] = figure[0]
    for position in duel_positions(options):
        key = bots_solved.position_key(position)
        table = bots_solved.position_table(name, key)
        if table is None:
            continue
        tree = PublicTree(options, position, values)
        equilibrium = table_strategies(tree, table)
        entrants = {"equilibrium": None, **{level: level_answer(level, samples, seed) for level in levels}}
        for entrant, answer in entrants.items():
            versus = exploiter = 0.0
            asked = 0
            for seat in (0, 1):
                if answer is None:
                    strategies = equilibrium
                else:
                    strategies, count = level_strategies(tree, seat, answer, reach_floor)
                    asked += count
                versus += tree.evaluate(seat, strategies, equilibrium) / 2
                exploiter += tree.evaluate(1 - seat, None, strategies) / 2
            yield key, entrant, versus, exploiter, asked


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
    parser.add_argument("--two-dice", action="store_true", help="the three- and four-dice rounds only")
    parser.add_argument("--two-dice-samples", type=int, default=8)
    parser.add_argument(
        "--reach", type=float, default=1e-3, help="two dice: ask a level where it reaches this"
    )
    parser.add_argument("--levels", nargs="*", default=list(LEVELS))
    args = parser.parse_args()
    if args.two_dice:
        print("| option set | position | entrant | vs equilibrium | exploiter | decisions asked |")
        print("| --- | --- | --- | ---: | ---: | ---: |")
        for name in args.sets:
            for key, entrant, versus, exploiter, asked in two_dice_rows(
                name, args.levels, args.two_dice_samples, args.seed, args.reach
            ):
                print(
                    f"| {name} | {key} | {entrant} | {versus:.1%} | {exploiter:.1%} | {asked} |", flush=True
                )
        return
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
            entrants.update({level: level_policy(level, args.samples, args.seed) for level in args.levels})
            for entrant, policy in entrants.items():
                versus, exploiter = figures(game, policy, equilibrium)
                key = bots_solved.position_key(position)
                print(f"| {name} | {key} | {entrant} | {versus:.1%} | {exploiter:.1%} |", flush=True)


if __name__ == "__main__":
    main()
