"""The duel-endgame solver (games/perudo/solver.py) and the shipped strategies the bots play (bots_solved.py):
the known values, the engine's showdown, the exploitability bound, and the bots following them."""

from __future__ import annotations

import random
from collections import Counter

import pytest
from perudo_scenario import apply, bid, new_game, roll
from tapete_sdk.plugin import CHANCE

from games.perudo import bots_solved
from games.perudo.bots import LEVELS
from games.perudo.rules import RULES
from games.perudo.solver import Round, shipped_policy, shipped_rounds

ONE_DIE_DUEL = (1, 1, False, False, False)  # a normal round, one die each (nobody's Palifico)
ONE_DIE_PALIFICO = (1, 1, True, False, False)
SHIPPED_BOUND = 0.005  # NashConv of every shipped strategy, quantized, is below this (bench/RESULTS.md)


def test_the_opener_of_the_one_die_duel_wins_17_in_36():
    game = Round({}, ONE_DIE_DUEL, {})
    game.solve(60)
    assert game.game_value(0) == pytest.approx(17 / 36, abs=2e-3)
    best_opener, best_other = game.exploitability()
    assert best_opener + best_other - 1.0 < 0.01


def test_the_one_die_palifico_opener_wins_whenever_the_other_die_differs():
    """Pacos are not wild and the face is locked: "one x" on the opener's own face is true, and only a second x
    under the other cup beats it, so the opener wins 5/6."""
    game = Round({}, ONE_DIE_PALIFICO, {})
    game.solve(60)
    assert game.game_value(0) == pytest.approx(5 / 6, abs=1e-3)


def test_the_showdown_is_the_engines():
    """Every reveal's value comes from the engine: a Dudo on "two 5s" in the one-die duel is won by the bidder
    exactly when both dice count (a 5 or a wild Paco)."""
    game = Round({}, ONE_DIE_DUEL, {})
    root = game.nodes[0]
    two_fives = game.nodes[root.children[root.actions.index(bid(2, 5))]]
    dudo = game.terminals[-1 - two_fives.children[two_fives.actions.index({"type": "dudo"})]]
    assert dudo.value == [0.0, 0.0, 1.0]  # the opener bid: they win the game with a count of 2
    assert game.own_matches(0, 5, False) == [1, 0, 0, 0, 1, 0]  # a Paco and a 5 count, nothing else


@pytest.mark.parametrize("name", list(bots_solved.OPTION_SETS))
def test_the_shipped_strategies_are_nearly_unexploitable(name):
    table = bots_solved.strategies(name)
    for position, game in shipped_rounds(name).items():
        policy = shipped_policy(table[bots_solved.position_key(position)])
        best_opener, best_other = game.exploitability(policy)
        assert best_opener + best_other - 1.0 < SHIPPED_BOUND, position


def one_die_palifico_round(hands: list[list[int]]) -> dict:
    """Seat 0's Palifico round of a duel down to one die each (eight rounds played: the dice lost so far)."""
    state = new_game(2, 0)
    state["counts"] = [1, 1]
    state["round"] = 8
    state["palifico_candidate"] = 0
    return roll(state, hands)


def test_the_view_names_the_solved_position():
    state = one_die_palifico_round([[4], [2]])
    view = RULES.view(state, 0)
    assert bots_solved.view_position(view) == ONE_DIE_PALIFICO
    assert bots_solved.view_position(RULES.view(apply(state, 0, bid(1, 4)), 1)) == ONE_DIE_PALIFICO


def test_hard_plays_the_solved_strategy():
    """Answering "one 3" in the one-die Palifico round holding a 3: the equilibrium raises to "two 3s" (true,
    and the opener can only doubt it), and hard always does."""
    state = apply(one_die_palifico_round([[3], [3]]), 0, bid(1, 3))
    view, legal = RULES.view(state, 1), RULES.legal_actions(state, 1)
    assert bots_solved.solved_strategy(view, legal) == [(bid(2, 3), 255)]
    hard = Counter(str(LEVELS["hard"](view, legal, random.Random(seed))) for seed in range(50))
    assert hard == {str(bid(2, 3)): 50}


def test_no_solved_strategy_outside_the_duel_or_the_solved_options():
    state = one_die_palifico_round([[3], [5]])
    view, legal = RULES.view(state, 0), RULES.legal_actions(state, 0)
    assert bots_solved.solved_strategy(view, legal) is not None
    unsolved = dict(view, options={**view["options"], "raiseMode": "anyFaceOnHigherQty"})
    assert bots_solved.solved_strategy(unsolved, legal) is None
    three = new_game(3, 0)
    three["counts"] = [1, 1, 1]
    three["round"] = 12
    three = roll(three, [[3], [5], [2]])
    assert bots_solved.solved_strategy(RULES.view(three, 0), RULES.legal_actions(three, 0)) is None


@pytest.mark.parametrize(
    "options",
    [{"startingDice": 1}]
    + [{**options, "startingDice": 2} for options in bots_solved.OPTION_SETS.values()],
    ids=["one-die"] + list(bots_solved.OPTION_SETS),
)
def test_in_real_duels_every_covered_decision_finds_its_solved_strategy(options):
    """Played through the engine (the dice count hidden where no Calza can give a die back), every decision of a
    duel of at most two dice each finds its position, history and hand in the shipped tables, under every solved
    option set (with Calza, a correct call can lead to a position nobody solved: a player who had their
    Palifico back at two dice, say)."""
    rng = random.Random(3)
    covered = 0
    name = bots_solved.option_set_of(RULES.normalize_options(options, 2))
    for _ in range(20):
        state = RULES.initial_state(RULES.normalize_options(options, 2), 2)
        while RULES.to_act(state):
            if CHANCE in RULES.to_act(state):
                state, _ = RULES.apply_action(state, CHANCE, RULES.sample_chance(state, rng))
                continue
            seat = state["turn"]
            view, legal = RULES.view(state, seat), RULES.legal_actions(state, seat)
            position = bots_solved.view_position(view)
            once = state["options"]["palificoOncePerPlayer"]  # otherwise nobody's Palifico is "used up"
            assert position == (
                state["counts"][state["starter"]],
                state["counts"][1 - state["starter"]],
                state["palifico"],
                once and state["palifico_used"][state["starter"]] and not state["palifico"],
                once and state["palifico_used"][1 - state["starter"]],
            )
            solved = bots_solved.position_key(position) in bots_solved.figures(name)
            if not options.get("calza"):
                assert solved, position
            if solved:
                covered += 1
                assert bots_solved.solved_strategy(view, legal) is not None, view
            state, _ = RULES.apply_action(state, seat, LEVELS["hard"](view, legal, rng))
    assert covered > 40


def test_with_calza_and_the_dice_count_hidden_the_duel_position_is_not_guessed():
    """A correct Calza gives a die back, so the round number no longer tells the dice left: no solved strategy."""
    state = new_game(2, 0, calza=True)
    state["counts"] = [1, 1]
    state["round"] = 8
    state = roll(state, [[3], [5]])
    assert bots_solved.view_position(RULES.view(state, 0)) is None
    state["options"] = {**state["options"], "lostDiceVisible": True}
    assert bots_solved.view_position(RULES.view(state, 0)) == ONE_DIE_DUEL
