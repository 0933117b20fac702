"""Spicy components, options, the shuffle and the deal (docs/rules/spicy.md §1, §2, §9)."""

from __future__ import annotations

import random
from collections import Counter

import pytest
from spicy_scenarios import deck_order, new_game, shuffle_action, start, step
from tapete_sdk.plugin import CHANCE, IllegalAction, InvalidOptions, MalformedAction

from games.spicy.cards import DECK, SPICE_IT_UP_CARDS
from games.spicy.rules import RULES

HANDS_2P = [["chili-1", "chili-5", "wild-number"], ["wasabi-2", "pepper-10", "wild-spice"]]


# -- components ---------------------------------------------------------------------------------------------------


def test_deck_has_100_cards_three_copies_of_each_spice_number_and_five_of_each_wild():
    counts = Counter(DECK)
    assert len(DECK) == 100
    for spice in ("chili", "wasabi", "pepper"):
        for number in range(1, 11):
            assert counts[f"{spice}-{number}"] == 3
    assert counts["wild-number"] == 5
    assert counts["wild-spice"] == 5
    assert len(counts) == 32


def test_rules_identity_and_player_counts():
    assert (RULES.key, RULES.name, RULES.min_players, RULES.max_players) == ("spicy", "Spicy", 2, 6)


# -- options ------------------------------------------------------------------------------------------------------


def test_default_options():
    assert RULES.normalize_options({}, 4) == {
        "spiceItUp": [],
        "wildFour": False,
        "chiliReverses": False,
        "firstPlayer": "random",
        "handSize": 6,
        "trophyRefill": 6,
        "penaltyDraw": 2,
        "worldsEnd": True,
        "worldsEndBelow": None,
        "worldsEndJitter": 2,
        "challengeGraceMs": 3000,
        "challengeLoserMustLead": True,
        "lastCardDeclineRequired": True,
    }


def test_house_rules_are_marked_as_such():
    house = {option.name for option in RULES.options if option.house_rule}
    assert house == {"wildFour", "chiliReverses"}


def test_spice_it_up_offers_the_six_cards_and_two_random_draws():
    option = next(option for option in RULES.options if option.name == "spiceItUp")
    assert set(option.choice_values) == {*SPICE_IT_UP_CARDS, "random1", "random2"}
    assert option.max_selected == 2
    assert RULES.normalize_options({"spiceItUp": ["copy_cat", "spice_raider"]}, 3)["spiceItUp"] == [
        "copy_cat",
        "spice_raider",
    ]


@pytest.mark.parametrize(
    ("options", "num_players", "code"),
    [
        ({"spiceItUp": ["random1", "copy_cat"]}, 3, "spice_it_up_random_alone"),
        ({"spiceItUp": ["random1", "random2"]}, 3, "spice_it_up_random_alone"),
        ({"spiceItUp": ["copy_cat", "turn_it_up", "spice_raider"]}, 3, "option_range"),
        ({"spiceItUp": ["salsa"]}, 3, "option_choice"),
        ({"handSize": True}, 3, "option_type"),
        ({"handSize": 0}, 3, "option_range"),
        ({"worldsEndBelow": 88}, 2, "worlds_end_too_deep"),  # 2 x 6 dealt: 88 left, at least one above
        ({"handSize": 12, "worldsEndBelow": 28}, 6, "worlds_end_too_deep"),
        ({"colour": "red"}, 3, "option_unknown"),
        ({}, 7, "player_count"),
        ({}, 1, "player_count"),
    ],
)
def test_invalid_options_are_refused(options, num_players, code):
    with pytest.raises(InvalidOptions) as error:
        RULES.normalize_options(options, num_players)
    assert error.value.code == code


def test_world_end_depth_is_not_checked_when_world_end_is_off():
    assert RULES.normalize_options({"worldsEnd": False, "worldsEndBelow": 95}, 2)["worldsEndBelow"] == 95


# -- the chance step ----------------------------------------------------------------------------------------------


def test_a_new_game_waits_for_the_shuffle_only():
    state = new_game(3)
    assert RULES.to_act(state) == frozenset({CHANCE})
    assert RULES.awaited(state) == frozenset()
    assert all(RULES.legal_actions(state, seat) == [] for seat in range(3))
    with pytest.raises(IllegalAction) as error:
        RULES.apply_action(state, 0, {"type": "pass"})
    assert error.value.code == "chance_pending"


def test_sample_chance_is_a_valid_shuffle_drawn_from_the_rng_only():
    state = new_game(4, spiceItUp=["random2"])
    first = RULES.sample_chance(state, random.Random(7))
    assert first == RULES.sample_chance(state, random.Random(7))
    assert sorted(first["deck"]) == list(DECK)
    assert 0 <= first["first_player"] < 4
    assert -2 <= first["worlds_end_offset"] <= 2
    assert len(first["spice_it_up"]) == 2 and set(first["spice_it_up"]) <= set(SPICE_IT_UP_CARDS)
    dealt, _events = RULES.apply_action(state, CHANCE, first)
    assert dealt["spice_it_up"] == first["spice_it_up"]


def test_deal_is_one_card_at_a_time_from_seat_zero_and_the_rest_is_the_draw_pile():
    state = new_game(2, handSize=3)
    action = shuffle_action(state, HANDS_2P, ["pepper-3", "pepper-4"])
    assert action["deck"][:6] == ["chili-1", "wasabi-2", "chili-5", "pepper-10", "wild-number", "wild-spice"]
    state, events = RULES.apply_action(state, CHANCE, action)
    assert state["hands"] == HANDS_2P
    assert len(state["draw"]) == 94
    assert (
        state["draw"][-1] == "pepper-3" and state["draw"][-2] == "pepper-4"
    )  # the end of the list is the top
    assert state["phase"] == "turn"
    assert state["current"] == 0
    public = [event for event in events if event["visible_to"] is None]
    assert public == [
        {
            "type": "shuffle",
            "visible_to": None,
            "first_player": 0,
            "spice_it_up": [],
            "hand_sizes": [3, 3],
            "draw_pile": 94,
        }
    ]
    private = {event["seat"]: event for event in events if event["type"] == "deal"}
    assert private[1] == {"type": "deal", "visible_to": [1], "seat": 1, "cards": HANDS_2P[1]}


def test_first_player_comes_from_the_shuffle():
    state = start(HANDS_2P, first=1)
    assert state["current"] == 1
    assert RULES.awaited(state) == frozenset({1})


@pytest.mark.parametrize(
    ("below", "offset", "expected"),
    [(40, 0, 40), (40, 2, 42), (40, -2, 38), (93, 2, 93), (0, -2, 0)],
)
def test_worlds_end_is_placed_at_its_mark_plus_the_jitter_with_one_card_above_it_at_least(
    below, offset, expected
):
    state = start(HANDS_2P, offset=offset, worldsEndBelow=below)
    assert state["worlds_end_below"] == expected


@pytest.mark.parametrize(("num_players", "below"), [(2, 40), (3, 30), (4, 20), (5, 10), (6, 5)])
def test_worlds_end_mark_depends_on_the_player_count(num_players, below):
    state = new_game(num_players)
    action = RULES.sample_chance(state, random.Random(1))
    action["worlds_end_offset"] = 0
    state, _events = RULES.apply_action(state, CHANCE, action)
    assert state["worlds_end_below"] == below
    assert len(state["draw"]) == 100 - 6 * num_players


def test_without_worlds_end_the_shuffle_places_nothing():
    state = new_game(2, worldsEnd=False)
    action = RULES.sample_chance(state, random.Random(3))
    assert "worlds_end_offset" not in action
    state = step(state, CHANCE, action)
    assert state["worlds_end_below"] is None
    with pytest.raises(IllegalAction) as error:
        RULES.apply_action(new_game(2, worldsEnd=False), CHANCE, {**action, "worlds_end_offset": 0})
    assert error.value.code == "worlds_end_off"


def test_random_spice_it_up_cards_come_from_the_shuffle():
    state = new_game(3, spiceItUp=["random1"])
    action = {**RULES.sample_chance(state, random.Random(0)), "spice_it_up": ["turn_it_up"]}
    assert step(state, CHANCE, action)["spice_it_up"] == ["turn_it_up"]


def test_chosen_spice_it_up_cards_are_in_play_from_the_start():
    state = start(HANDS_2P, spiceItUp=["turn_it_up", "we_love_chili"])
    assert state["spice_it_up"] == ["we_love_chili", "turn_it_up"]


def _shuffle_error(state, action):
    with pytest.raises((IllegalAction, MalformedAction)) as error:
        RULES.apply_action(state, CHANCE, action)
    return error.value.code


def test_shuffle_must_be_a_permutation_of_the_deck():
    state = new_game(2)
    good = shuffle_action(state, HANDS_2P)
    assert _shuffle_error(state, {**good, "deck": good["deck"][:-1]}) == "bad_deck"
    assert _shuffle_error(state, {**good, "deck": ["wasabi-9", *good["deck"][1:]]}) == "bad_deck"
    assert _shuffle_error(state, {**good, "deck": "chili-1"}) == "bad_deck"
    assert _shuffle_error(state, {**good, "deck": [1] * 100}) == "bad_deck"


def test_shuffle_fields_are_validated():
    state = new_game(2)
    good = shuffle_action(state, HANDS_2P)
    assert _shuffle_error(state, {**good, "first_player": 2}) == "bad_first_player"
    assert _shuffle_error(state, {**good, "first_player": True}) == "bad_first_player"
    assert _shuffle_error(state, {**good, "worlds_end_offset": 3}) == "bad_worlds_end_offset"
    assert _shuffle_error(state, {**good, "worlds_end_offset": "1"}) == "bad_worlds_end_offset"
    missing = {key: value for key, value in good.items() if key != "worlds_end_offset"}
    assert _shuffle_error(state, missing) == "missing_worlds_end_offset"
    assert _shuffle_error(state, {**good, "spice_it_up": ["copy_cat"]}) == "spice_it_up_fixed"


def test_random_spice_it_up_draw_is_validated():
    state = new_game(2, spiceItUp=["random2"])
    good = shuffle_action(state, HANDS_2P, spice_it_up=["copy_cat", "turn_it_up"])
    assert RULES.apply_action(state, CHANCE, good)[0]["spice_it_up"] == ["turn_it_up", "copy_cat"]
    for wrong in (["copy_cat"], ["copy_cat", "copy_cat"], ["copy_cat", "salsa"], None):
        action = {**good, "spice_it_up": wrong} if wrong is not None else {**good}
        if wrong is None:
            del action["spice_it_up"]
        assert _shuffle_error(state, action) == "bad_spice_it_up"


def test_only_chance_shuffles_and_only_once():
    state = new_game(2)
    action = shuffle_action(state, HANDS_2P)
    assert _shuffle_error_from(state, 0, action) == "chance_only"
    dealt = step(state, CHANCE, action)
    assert _shuffle_error_from(dealt, CHANCE, action) == "no_chance_pending"
    assert _shuffle_error_from(dealt, CHANCE, {"type": "pass"}) == "not_a_player"


def _shuffle_error_from(state, seat, action):
    with pytest.raises(IllegalAction) as error:
        RULES.apply_action(state, seat, action)
    return error.value.code


def test_deck_order_helper_deals_what_it_promises():
    order = deck_order(HANDS_2P, ["pepper-3"])
    assert sorted(order) == list(DECK) and order[6] == "pepper-3"
