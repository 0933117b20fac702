"""The vectorised duel solver (bench/perudo_duel_solver.py) against the pure one (games/perudo/solver.py) and the
known values, and the shipped three- and four-dice strategies' exploitability."""

from __future__ import annotations

import numpy as np
import pytest

from bench.perudo_duel_solver import PublicTree, Solver, duel_positions, quantized, table_strategies
from games.perudo import bots_solved
from games.perudo.solver import Round, quantize

ONE_DIE_DUEL = (1, 1, False, False, False)
TWO_DICE_BOUND = (
    0.005  # NashConv of the shipped three- and four-dice strategies, quantized (bench/RESULTS.md)
)


def shipped_values(name: str) -> dict:
    values = {}
    for key, figure in bots_solved.figures(name).items():
        dice_a, dice_b, flags = key.split("-")
        values[(int(dice_a), int(dice_b), *(flag == "1" for flag in flags))] = figure[0]
    return values


def test_the_public_tree_solves_the_one_die_duel_to_17_in_36():
    tree = PublicTree({}, ONE_DIE_DUEL, {})
    assert tree.nodes == len(Round({}, ONE_DIE_DUEL, {}).nodes)
    solver = Solver(tree)
    solver.iterate(150)
    value, best_opener, best_other = solver.nash_conv()
    assert value == pytest.approx(17 / 36, abs=2e-3)
    assert best_opener + best_other - 1.0 < 0.002


def test_its_evaluations_are_the_pure_solvers():
    """A Palifico round of one die against two under the defaults: the same values (the next positions', from
    the shipped figures), the same best responses to the same (uniform) strategy, to float32 precision."""
    position = (1, 2, True, False, False)
    values = shipped_values("default")
    tree, game = PublicTree({}, position, values), Round({}, position, values)
    assert tree.nodes == len(game.nodes)
    uniform = [
        tree.normalize(d, np.zeros((len(level.edge_parent), 1))) for d, level in enumerate(tree.levels)
    ]
    uniform = [
        np.repeat(strategy, len(tree.hands[level.actor]), axis=1)
        for strategy, level in zip(uniform, tree.levels, strict=True)
    ]

    def flat(round_, index, hand):
        return [1.0 / len(round_.nodes[index].actions)] * len(round_.nodes[index].actions)

    for player in (0, 1):
        assert tree.evaluate(player, None, uniform) == pytest.approx(
            game.evaluate(player, None, flat), abs=1e-5
        )
        assert tree.evaluate(player, uniform, uniform) == pytest.approx(
            game.evaluate(player, flat, flat), abs=1e-5
        )


def test_quantizing_is_the_pure_solvers_rounding():
    tree = PublicTree({}, ONE_DIE_DUEL, {})
    solver = Solver(tree)
    solver.iterate(20)
    average, shipped = solver.average(), quantized(tree, solver.average())
    level = tree.levels[2]
    for node in range(5):
        first, last = int(level.starts[node]), int(level.starts[node + 1])
        for hand in range(6):
            expected = quantize(average[2][first:last, hand].tolist())
            assert np.rint(shipped[2][first:last, hand] * 255).astype(int).tolist() == expected


def test_two_dice_against_one_converges():
    """The round of two dice against a one-die player who has used their Palifico: 27,773 public nodes grown
    from the engine; a hundred CFR+ iterations bring the NashConv under 0.005."""
    position = (2, 1, False, False, True)
    tree = PublicTree({}, position, shipped_values("default"))
    assert tree.nodes == 27_773
    solver = Solver(tree)
    solver.iterate(100)
    value, best_opener, best_other = solver.nash_conv()
    assert best_opener + best_other - 1.0 < 0.005
    assert value == pytest.approx(bots_solved.figures("default")["2-1-001"][0], abs=5e-3)


SHIPPED = [
    (name, position)
    for name in bots_solved.OPTION_SETS
    for position in duel_positions(bots_solved.reference_options(name))
]


@pytest.mark.parametrize(
    ("name", "position"),
    SHIPPED,
    ids=[f"{name}-{bots_solved.position_key(position)}" for name, position in SHIPPED],
)
def test_the_shipped_two_dice_strategies_are_nearly_unexploitable(name, position):
    """Every option set's three- and four-dice tables, as shipped (quantized, uniform where they have nothing),
    on the tree grown again from the engine with that set's options (Calza's call included)."""
    key = bots_solved.position_key(position)
    table = bots_solved.position_table(name, key)
    assert table, key
    tree = PublicTree(bots_solved.OPTION_SETS[name], position, shipped_values(name))
    strategies = table_strategies(tree, table)
    value = tree.evaluate(0, strategies, strategies)
    best_opener, best_other = tree.evaluate(0, None, strategies), tree.evaluate(1, None, strategies)
    assert best_opener + best_other - 1.0 < TWO_DICE_BOUND
    figure = bots_solved.figures(name)[key]
    assert figure[0] == pytest.approx(value, abs=1e-4)
    assert figure[1] < TWO_DICE_BOUND


def test_palifico_every_time_changes_nothing_in_a_duel_of_two_dice():
    """Without Calza nobody can drop to one die twice, so the every-time set's values are the defaults'."""
    default, every_time = bots_solved.figures("default"), bots_solved.figures("palifico-every-time")
    for ours, theirs in (("2-1-000", "2-1-001"), ("1-2-000", "1-2-010"), ("2-2-000", "2-2-000")):
        assert every_time[ours][0] == pytest.approx(default[theirs][0], abs=2e-3)
