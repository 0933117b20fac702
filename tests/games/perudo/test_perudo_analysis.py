"""Perudo's post-game analysis (games/perudo/analysis.py): the numbers of scripted games against values worked out
by hand."""

from __future__ import annotations

import pytest
from tapete_sdk.plugin import CHANCE

from games.perudo import analysis
from games.perudo.rules import RULES as PERUDO


def scripted(options: dict, num_players: int, actions: list[tuple[int, dict]]):
    """Apply ``actions`` (chance ones included) and return the analysis of that log."""
    options = PERUDO.normalize_options(options, num_players)
    state = PERUDO.initial_state(options, num_players)
    log = []
    for step, (seat, action) in enumerate(actions, start=1):
        state, _events = PERUDO.apply_action(state, seat, action)
        log.append((step, step, seat, action))
    return analysis.analyse(PERUDO, options, num_players, log)


def test_bid_and_dudo_probabilities_are_binomial():
    data = scripted(
        {"startingDice": 2, "firstPlayer": "random"},
        2,
        [
            (CHANCE, {"type": "first_player", "seat": 0}),
            (CHANCE, {"type": "roll", "dice": [[2, 2], [1, 2]]}),
            (0, {"type": "bid", "quantity": 3, "face": 2}),
            (1, {"type": "dudo"}),
        ],
    )
    bid, dudo = data["moves"]
    # Seat 0 holds two 2s: the bid needs one more among the 2 unknown dice, each a 2 or a Paco with p = 1/3:
    # P(at least one) = 1 - (2/3)^2 = 5/9.
    assert bid["p_true_own"] == pytest.approx(5 / 9)
    assert bid["count"] == 4 and bid["true"] is True  # 2, 2, 2 and the Paco
    # Seat 1 holds a Paco and a 2 (two of three): Dudo is right if seat 0's 2 unknown dice hold none: (2/3)^2.
    assert dudo["p_right_own"] == pytest.approx(4 / 9)
    assert dudo["right"] is False
    # Knowing every die, seat 1 keeps its die with a true raise instead: 4 × 2 (there are four).
    (saving,) = data["saving"]
    assert saving["seat"] == 1 and saving["round"] == 1 and saving["version"] == 4
    assert saving["alternative"]["type"] == "bid"
    assert saving["alternative"]["quantity"] <= 4 and saving["alternative"]["face"] in {1, 2}
    luck = {player["seat"]: player for player in data["players"]}
    assert luck[0]["pacos"] == 0 and luck[0]["pacos_expected"] == pytest.approx(2 / 6)
    assert luck[1]["pacos"] == 1 and luck[1]["luck"] == pytest.approx(1 - 2 / 6)
    assert luck[0]["mean_p_true_own"] == pytest.approx(5 / 9) and luck[1]["calls"] == 1
    assert luck[1]["calls_right"] == 0


def test_palifico_counts_no_pacos_and_calza_is_an_exact_binomial():
    assert analysis.binomial_exactly(4, 1, 1 / 3) == pytest.approx(4 * (1 / 3) * (2 / 3) ** 3)
    assert analysis.binomial_at_least(3, 2, 1 / 6) == pytest.approx(3 * (1 / 6) ** 2 * (5 / 6) + (1 / 6) ** 3)
    data = scripted(
        {"startingDice": 1, "calza": True, "firstPlayer": "random"},
        3,
        [
            (CHANCE, {"type": "first_player", "seat": 0}),
            (CHANCE, {"type": "roll", "dice": [[5], [1], [5]]}),
            (0, {"type": "bid", "quantity": 2, "face": 5}),
            (1, {"type": "calza"}),
        ],
    )
    bid, calza = data["moves"]
    # Seat 0's own 5 leaves one to find among 2 unknown dice (p = 1/3): 1 - (2/3)^2.
    assert bid["p_true_own"] == pytest.approx(5 / 9)
    # Seat 1's Paco counts: exactly one more 5 or Paco among the 2 others: 2 × 1/3 × 2/3 = 4/9. It was 3: wrong.
    assert calza["p_right_own"] == pytest.approx(4 / 9) and calza["right"] is False and calza["count"] == 3
