"""The tournament's arithmetic (bench/bots_tournament.py): fair shares, seatings, Wilson intervals, option draws,
the reference players' legality, and what the Perudo reference player reads from the standing bid."""

from __future__ import annotations

import math
import random

import pytest
from tapete_sdk import registry
from tapete_sdk.plugin import player_counts_of

from bench.bots_tournament import (
    FIXED_OPTIONS,
    REFERENCE,
    entrants_of,
    fair_share,
    head_to_head,
    reference_player,
    sample_options,
    seatings,
    wilson_interval,
)
from bench.reference_players import perudo as perudo_reference


def test_fair_share_is_the_seats_held_over_the_seats_at_three_players():
    assert fair_share(("hard", "easy", "hard"), "hard") == pytest.approx(2 / 3)
    assert fair_share(("hard", "easy", "hard"), "easy") == pytest.approx(1 / 3)


def test_all_seatings_at_three_players_give_each_entrant_half_of_the_games():
    lineups = seatings("hard", "easy", 3)
    assert len(lineups) == 6 and len(set(lineups)) == 6  # 2^3 lineups less the two with one entrant only
    assert sum(fair_share(lineup, "hard") for lineup in lineups) / len(lineups) == pytest.approx(0.5)
    assert all("hard" in lineup and "easy" in lineup for lineup in lineups)
    assert len(seatings("hard", "easy", 4)) == 14
    assert seatings("hard", "easy", 2) == [("hard", "easy"), ("easy", "hard")]


def test_wilson_interval_on_numbers_worked_by_hand():
    # 8 wins in 10 games, z = 1.96: p = 0.8, z²/n = 0.38416, centre = (0.8 + 0.19208) / 1.38416 = 0.716797,
    # half-width = 1.96 / 1.38416 × √(0.8 × 0.2 / 10 + 3.8416 / 400) = 1.416021 × √0.025604 = 0.226583.
    low, high = wilson_interval(8, 10, z=1.96)
    assert low == pytest.approx(0.4902, abs=1e-4)
    assert high == pytest.approx(0.9434, abs=1e-4)
    # 50 of 100: centre 0.5, half-width 1.96 / 1.038416 × √(0.0025 + 0.0000960) = 0.096170.
    low, high = wilson_interval(50, 100, z=1.96)
    assert (low, high) == pytest.approx((0.40383, 0.59617), abs=1e-5)
    # none won: the interval still reaches above zero, to z² / (n + z²)
    assert wilson_interval(0, 20, z=1.96) == pytest.approx((0.0, 3.8416 / 23.8416), abs=1e-9)


def test_wilson_interval_default_is_ninety_five_percent():
    assert wilson_interval(8, 10) == pytest.approx(wilson_interval(8, 10, z=1.959964), abs=1e-6)
    assert math.isclose(sum(wilson_interval(30, 60)) / 2, 0.5)


@pytest.mark.parametrize("key", [rules.key for rules in registry.all_games() if 4 in player_counts_of(rules)])
def test_option_draws_vary_and_the_rules_accept_them(key):
    rules = registry.get(key)
    rng = random.Random(3)
    draws = [sample_options(rules, 4, rng) for _ in range(40)]
    assert all(rules.normalize_options(options, 4) == options for options in draws)
    drawn = {option.name for option in rules.options if option.kind == "bool" or len(option.choices) > 1}
    changing = {name for name in drawn if len({repr(options[name]) for options in draws}) > 1}
    assert changing == drawn - {"challengeGraceMs"}


@pytest.mark.parametrize(
    ("key", "players"),
    [
        (rules.key, players)
        for rules in registry.all_games()
        if reference_player(rules.key) is not None
        for players in (2, 4)
        if players in player_counts_of(rules)
    ],
)
def test_reference_players_finish_games_with_varied_options(key, players):
    """play() raises if a bot hands back an action the rules refuse, or if every acting bot declines."""
    rules = registry.get(key)
    entrants = entrants_of(key)
    assert REFERENCE in entrants
    games = len(seatings(REFERENCE, "easy", players))  # every seating once
    result = head_to_head(rules, entrants, REFERENCE, "easy", games, players, seed=5)
    assert result.games == games and 0 <= result.wins <= games
    assert result.fair_share == pytest.approx(0.5)


def test_games_stopped_by_a_turn_limit_are_counted(monkeypatch):
    """Ten moves each cannot bring ten marbles home: every game ends on Chinese Checkers' turn limit."""
    monkeypatch.setitem(FIXED_OPTIONS, "chinesecheckers", {"maxTurns": 10})
    rules = registry.get("chinesecheckers")
    result = head_to_head(rules, entrants_of("chinesecheckers"), "medium", "easy", 4, 2, seed=1)
    assert result.games == 4 and result.turn_limit == 4


def test_the_perudo_reference_counts_one_die_of_the_standing_bids_face_for_its_bidder():
    """Four 5s standing, the player holding one: three more among the nine unseen dice, one of them the bidder's
    5; a bid on another face, or its own bid, is judged from the binomial law alone."""
    view = {
        "seat": 0,
        "my_dice": [5, 2, 3, 4, 6],
        "palifico": False,
        "bid": {"quantity": 4, "face": 5, "bidder": 1},
    }
    assert perudo_reference.chance_true(view, 10, 4, 5) == pytest.approx(
        perudo_reference.at_least(9, 1 / 3, 2)
    )
    assert perudo_reference.chance_true(view, 10, 4, 6) == pytest.approx(
        perudo_reference.at_least(10, 1 / 3, 3)
    )
    own = {**view, "bid": {"quantity": 4, "face": 5, "bidder": 0}}
    assert perudo_reference.chance_true(own, 10, 4, 5) == pytest.approx(
        perudo_reference.at_least(10, 1 / 3, 3)
    )
