"""The Spicy bots (games/spicy/bots.py): legal moves only, no peeking at hidden cards, finished games, sensible
choices in telling situations, and each level beating the one below it."""

from __future__ import annotations

import random

import pytest
from spicy_scenarios import give_won_cards, play, start
from tapete_sdk.plugin import CHANCE

from games.spicy.bots import LEVELS
from games.spicy.cards import claim_holds
from games.spicy.rules import RULES

MAX_STEPS = 20_000
OPTION_SETS = [
    {"challengeGraceMs": 0},
    {"spiceItUp": ["copy_cat", "spice_raider"]},
    {"spiceItUp": ["change_your_luck", "turn_it_up"], "penaltyDraw": 3},
    {"spiceItUp": ["we_love_chili", "start_it_up"], "wildFour": True, "chiliReverses": True},
    {"spiceItUp": ["random2"], "lastCardDeclineRequired": False, "challengeLoserMustLead": False},
    {"worldsEnd": False, "handSize": 4, "trophyRefill": 3},
]


def _new_state(options: dict, num_players: int, rng: random.Random) -> dict:
    state = RULES.initial_state(RULES.normalize_options(options, num_players), num_players)
    return RULES.apply_action(state, CHANCE, RULES.sample_chance(state, rng))[0]


def _step(state: dict, bots: list, rng: random.Random, check: bool = True) -> dict:
    """One harness step (as bench/bots_tournament.py): out-of-turn seats are asked first, then the awaited ones."""
    acting, awaited = RULES.to_act(state), RULES.awaited(state)
    for seat in sorted(acting, key=lambda seat: (seat in awaited, rng.random())):
        legal = RULES.legal_actions(state, seat)
        action = bots[seat](RULES.view(state, seat), legal, rng)
        if check:
            assert action is None or action in legal, (seat, action)
            assert action is not None or seat not in awaited, f"awaited seat {seat} declined to act"
        if action is not None:
            return RULES.apply_action(state, seat, action)[0]
    raise AssertionError("every awaited bot declined to act")


def _play_game(options: dict, bots: list, rng: random.Random) -> dict:
    state = _new_state(options, len(bots), rng)
    for _ in range(MAX_STEPS):
        if not RULES.to_act(state):
            return state
        state = _step(state, bots, rng)
    raise AssertionError("the game did not end")


def _winner_share(strong: str, weak: str, games: int, num_players: int, seed: int) -> float:
    rng = random.Random(seed)
    wins = 0.0
    for game in range(games):
        lineup = [strong if (seat + game) % 2 == 0 else weak for seat in range(num_players)]
        state = _play_game({"challengeGraceMs": 0}, [LEVELS[name] for name in lineup], rng)
        winners = RULES.outcome(state).ranking[0]
        wins += sum(lineup[seat] == strong for seat in winners) / len(winners)
    return wins / games


# -- the interface ------------------------------------------------------------------------------------------------


def test_levels_go_from_weakest_to_strongest():
    assert list(LEVELS) == ["easy", "medium", "hard"]


@pytest.mark.parametrize("num_players", [2, 3, 4, 5, 6])
def test_every_level_makes_only_legal_moves_and_finishes_games(num_players):
    rng = random.Random(num_players)
    names = list(LEVELS)
    for index, options in enumerate(OPTION_SETS):
        lineup = [names[(seat + index) % len(names)] for seat in range(num_players)]
        state = _play_game(options, [LEVELS[name] for name in lineup], rng)
        outcome = RULES.outcome(state)
        assert sorted(seat for group in outcome.ranking for seat in group) == list(range(num_players))


@pytest.mark.parametrize("level", list(LEVELS))
def test_each_level_alone_finishes_games(level):
    rng = random.Random(3)
    for num_players in (2, 4):
        for options in OPTION_SETS[:3]:
            assert RULES.outcome(_play_game(options, [LEVELS[level]] * num_players, rng)) is not None


def test_a_bot_decides_the_same_when_everything_it_cannot_see_is_dealt_again():
    rng = random.Random(17)
    bots = [LEVELS[name] for name in ("hard", "medium", "easy")]
    checked = 0
    for options in OPTION_SETS:
        state = _new_state(options, 3, rng)
        for _ in range(60):
            if not RULES.to_act(state):
                break
            for seat in sorted(RULES.to_act(state) - {CHANCE}):
                other = RULES.determinize(state, seat, random.Random(checked))
                for level, choose in LEVELS.items():
                    seed = rng.random()
                    mine = choose(
                        RULES.view(state, seat), RULES.legal_actions(state, seat), random.Random(seed)
                    )
                    theirs = choose(
                        RULES.view(other, seat), RULES.legal_actions(other, seat), random.Random(seed)
                    )
                    assert mine == theirs, (level, seat)
                checked += 1
            state = _step(state, bots, rng, check=False)
    assert checked > 200


# -- telling situations -------------------------------------------------------------------------------------------


def _choice(level: str, state: dict, seat: int, seed: int = 0) -> dict | None:
    return LEVELS[level](RULES.view(state, seat), RULES.legal_actions(state, seat), random.Random(seed))


@pytest.mark.parametrize("level", ["medium", "hard"])
def test_a_last_card_that_would_win_outright_is_always_challenged(level):
    state = start([["chili-1"], ["wasabi-5"]])
    state = {**state, "trophies": [1, 0], "trophies_left": 2}
    state = play(state, 0, "chili-1", "chili", 1)  # honest, but seat 1 cannot know: declining loses the game
    assert state["phase"] == "last_card"
    assert _choice(level, state, 1)["type"] == "challenge"


@pytest.mark.parametrize("level", ["medium", "hard"])
def test_a_decisive_card_on_a_stack_is_challenged_on_its_spice_the_trait_bluffers_lie_about(level):
    """A card that must follow the stack's spice is a spice bluff far more often than a number bluff (a bluffer
    keeps a number it holds): the naive count, for which a given number is rarer than a spice, named the number."""
    state = start([["chili-1", "wasabi-7"], ["chili-4", "pepper-2"]])
    state = {**state, "trophies": [1, 0], "trophies_left": 2}
    state = play(play(state, 0, "chili-1", "chili", 1), 1, "chili-4", "chili", 4)
    state = play(state, 0, "wasabi-7", "chili", 7)  # seat 0's last card: a second trophy would win outright
    assert state["phase"] == "last_card"
    assert _choice(level, state, 1) == {"type": "challenge", "trait": "spice"}


@pytest.mark.parametrize("level", ["medium", "hard"])
def test_the_last_trophy_is_let_go_by_whoever_it_leaves_in_front_and_challenged_by_the_others(level):
    state = start([["chili-1"], ["wasabi-5"], ["pepper-7"]])
    state = give_won_cards({**state, "trophies": [0, 1, 1], "trophies_left": 1}, 1, 5)
    state = play(state, 0, "chili-1", "chili", 1)  # the third trophy would end the game: 10, 14 and 9 points
    assert RULES.view(state, 1)["scores"] == [0, 14, 9]
    assert _choice(level, state, 1) == {"type": "decline"}
    assert _choice(level, state, 2)["type"] == "challenge"


@pytest.mark.parametrize("level", ["medium", "hard"])
def test_an_honest_card_is_played_when_there_is_one(level):
    hands = [
        ["chili-3", "pepper-2", "wasabi-9", "pepper-6", "wasabi-1", "chili-8"],
        ["chili-4", "pepper-8", "wasabi-2", "pepper-10", "wasabi-7", "chili-10"],
    ]
    state = play(start(hands), 0, "chili-3", "chili", 3)
    action = _choice(level, state, 1)
    assert action["type"] == "play"
    declared = (action["declare"]["spice"], action["declare"]["number"])
    assert claim_holds(action["card"], "both", declared, turn_it_up=False)


@pytest.mark.parametrize("level", ["medium", "hard"])
def test_a_believable_card_is_not_challenged_out_of_turn(level):
    hands = [
        ["chili-1", "pepper-2", "wasabi-9", "pepper-6", "wasabi-1", "chili-8"],
        ["chili-4", "pepper-8", "wasabi-2", "pepper-10", "wasabi-7", "chili-10"],
        ["wasabi-3", "pepper-9", "chili-5", "pepper-4", "wasabi-8", "chili-7"],
    ]
    state = play(start(hands), 0, "chili-1", "chili", 1)
    assert 2 not in RULES.awaited(state)
    assert _choice(level, state, 2) is None


@pytest.mark.parametrize("level", ["medium", "hard"])
def test_a_copy_cat_copy_is_made_out_of_turn_with_the_exact_card(level):
    hands = [
        ["wasabi-1", "pepper-2", "wasabi-9", "pepper-6", "chili-3", "chili-8"],
        ["chili-4", "pepper-8", "wasabi-2", "pepper-10", "wasabi-7", "chili-10"],
        ["wasabi-1", "pepper-9", "chili-5", "pepper-4", "wasabi-8", "chili-7"],
    ]
    state = play(start(hands, spiceItUp=["copy_cat"]), 0, "wasabi-1", "wasabi", 1)
    assert 2 not in RULES.awaited(state)
    assert _choice(level, state, 2) == {"type": "copy", "card": "wasabi-1"}


def test_easy_never_copies_or_tucks_and_rarely_challenges():
    rng = random.Random(5)
    counts = {"challenge": 0, "play": 0}
    state = None
    for _game in range(20):
        state = _new_state({"spiceItUp": ["copy_cat", "change_your_luck"]}, 3, rng)
        while RULES.to_act(state):
            acting, awaited = RULES.to_act(state), RULES.awaited(state)
            for seat in sorted(acting, key=lambda seat: (seat in awaited, rng.random())):
                action = LEVELS["easy"](RULES.view(state, seat), RULES.legal_actions(state, seat), rng)
                if action is None:
                    continue
                assert action["type"] != "copy" and not action.get("tuck")
                if action["type"] in counts:
                    counts[action["type"]] += 1
                state = RULES.apply_action(state, seat, action)[0]
                break
    assert counts["challenge"] < 0.2 * counts["play"]


# -- strength -----------------------------------------------------------------------------------------------------


def test_hard_beats_medium():
    assert _winner_share("hard", "medium", 150, 2, seed=1) > 0.6


def test_medium_beats_easy():
    assert _winner_share("medium", "easy", 100, 2, seed=2) > 0.7
