"""Options and the choice of the first player (docs/rules/perudo.md §1, §8)."""

import random

import pytest
from perudo_scenario import act, apply
from tapete_sdk.plugin import CHANCE, IllegalAction, InvalidOptions

from games.perudo.rules import RULES

DEFAULTS = {
    "firstPlayer": "random",
    "startingDice": 5,
    "maxDice": 5,
    "allowPacoOpening": False,
    "allowPacoOpeningInPalifico": True,
    "raiseMode": "strict",
    "capBidAtDiceInPlay": True,
    "palificoOncePerPlayer": True,
    "palificoOneDieMayChangeFace": False,
    "palificoPacoBids": "allowed",
    "palificoMode": "automatic",
    "calza": False,
    "calzaCaller": "anyoneButLastBidder",
    "calzaRequiresMissingDie": False,
    "calzaSuccessEffect": "gainOne",
    "afterCalzaStarter": "caller",
    "lostDiceVisible": False,
    "salsa": False,
}


def test_every_option_has_the_default_of_the_rules_spec():
    assert RULES.normalize_options({}, 4) == DEFAULTS


@pytest.mark.parametrize(
    ("options", "players", "code"),
    [
        ({"noSuchOption": True}, 3, "option_unknown"),
        ({"startingDice": 11}, 3, "option_range"),
        ({"startingDice": 0}, 3, "option_range"),
        ({"calza": 1}, 3, "option_type"),
        ({"maxDice": True}, 3, "option_type"),
        ({"raiseMode": "loose"}, 3, "option_choice"),
        ({}, 1, "player_count"),
        ({}, 7, "player_count"),
    ],
)
def test_invalid_options_are_refused(options, players, code):
    with pytest.raises(InvalidOptions) as error:
        RULES.normalize_options(options, players)
    assert error.value.code == code


def test_initial_state_waits_for_chance_and_holds_no_randomness():
    options = RULES.normalize_options({}, 3)
    state = RULES.initial_state(options, 3)
    assert state == RULES.initial_state(options, 3)
    assert RULES.to_act(state) == frozenset({CHANCE})
    assert RULES.awaited(state) == frozenset()
    assert all(RULES.legal_actions(state, seat) == [] for seat in range(3))


def test_random_first_player_is_one_chance_action():
    state = RULES.initial_state(RULES.normalize_options({}, 4), 4)
    action = RULES.sample_chance(state, random.Random(3))
    assert action["type"] == "first_player" and 0 <= action["seat"] < 4
    state, events = act(state, CHANCE, {"type": "first_player", "seat": 2})
    assert (state["phase"], state["turn"]) == ("roll", 2)
    assert events == [{"type": "first_player", "visible_to": None, "seat": 2, "method": "random"}]
    state = apply(state, CHANCE, RULES.sample_chance(state, random.Random(4)))
    assert (state["starter"], RULES.to_act(state)) == (2, frozenset({2}))


def test_first_player_seat_must_exist():
    state = RULES.initial_state(RULES.normalize_options({}, 3), 3)
    with pytest.raises(IllegalAction) as error:
        RULES.apply_action(state, CHANCE, {"type": "first_player", "seat": 3})
    assert error.value.code == "no_such_seat"


def test_roll_one_roll_off_rerolls_only_the_tied_leaders():
    state = RULES.initial_state(RULES.normalize_options({"firstPlayer": "rollOne"}, 3), 3)
    assert RULES.sample_chance(state, random.Random(1))["type"] == "roll_off"
    state, events = act(state, CHANCE, {"type": "roll_off", "dice": [[5], [5], [2]]})
    assert state["phase"] == "first_player"
    assert (events[0]["leaders"], events[0]["winner"]) == ([0, 1], None)
    assert [len(hand) for hand in RULES.sample_chance(state, random.Random(1))["dice"]] == [1, 1, 0]
    with pytest.raises(IllegalAction) as error:
        RULES.apply_action(state, CHANCE, {"type": "roll_off", "dice": [[5], [5], [6]]})
    assert error.value.code == "wrong_dice_count"
    state, events = act(state, CHANCE, {"type": "roll_off", "dice": [[3], [6], []]})
    assert (state["phase"], state["turn"]) == ("roll", 1)
    assert events[-1] == {"type": "first_player", "visible_to": None, "seat": 1, "method": "rollOne"}
    assert RULES.view(state, None)["roll_off"] == {"contenders": [1], "dice": [[3], [6], []], "winner": 1}


def test_roll_two_sum_compares_the_sums_of_two_dice():
    state = RULES.initial_state(RULES.normalize_options({"firstPlayer": "rollTwoSum"}, 3), 3)
    assert [len(hand) for hand in RULES.sample_chance(state, random.Random(1))["dice"]] == [2, 2, 2]
    tied = apply(state, CHANCE, {"type": "roll_off", "dice": [[6, 1], [3, 4], [1, 1]]})
    assert tied["roll_off"]["contenders"] == [0, 1]
    won = apply(state, CHANCE, {"type": "roll_off", "dice": [[6, 1], [3, 3], [2, 2]]})
    assert (won["phase"], won["turn"]) == ("roll", 0)


def test_a_chance_action_of_the_wrong_kind_is_refused():
    state = RULES.initial_state(RULES.normalize_options({"firstPlayer": "rollOne"}, 3), 3)
    with pytest.raises(IllegalAction) as error:
        RULES.apply_action(state, CHANCE, {"type": "first_player", "seat": 0})
    assert error.value.code == "wrong_chance_action"
