"""Turns, declarations and passes (docs/rules/spicy.md §3), and malformed or illegal actions."""

from __future__ import annotations

import pytest
from spicy_scenarios import act, new_game, play, start, step, types
from tapete_sdk.plugin import CHANCE, IllegalAction, MalformedAction

from games.spicy.cards import legal_declarations
from games.spicy.rules import RULES

HANDS = [
    ["chili-1", "chili-5", "wild-number", "wasabi-10", "pepper-2", "chili-9"],
    ["wasabi-2", "pepper-10", "wild-spice", "chili-3", "chili-10", "wasabi-7"],
    ["pepper-1", "pepper-5", "wasabi-1", "chili-2", "chili-8", "wasabi-3"],
]
BASE = {"start_it_up": False, "we_love_chili": False}


def _illegal(state, seat, action):
    with pytest.raises(IllegalAction) as error:
        RULES.apply_action(state, seat, action)
    return error.value.code


def _malformed(state, seat, action):
    with pytest.raises(MalformedAction) as error:
        RULES.apply_action(state, seat, action)
    return error.value.code


def _play(card, spice, number, **extra):
    return {"type": "play", "card": card, "declare": {"spice": spice, "number": number}, **extra}


# -- declarations -------------------------------------------------------------------------------------------------


def test_a_new_stack_opens_with_any_spice_and_1_2_or_3():
    assert legal_declarations(None, **BASE) == [
        (spice, number) for spice in ("chili", "wasabi", "pepper") for number in (1, 2, 3)
    ]


def test_a_declaration_follows_with_the_same_spice_strictly_higher():
    assert legal_declarations(("wasabi", 4), **BASE) == [("wasabi", number) for number in range(5, 11)]


def test_after_a_10_only_1_2_or_3_of_the_same_spice_follow():
    assert legal_declarations(("pepper", 10), **BASE) == [("pepper", 1), ("pepper", 2), ("pepper", 3)]


def test_after_a_9_only_the_10_follows():
    assert legal_declarations(("chili", 9), **BASE) == [("chili", 10)]


def test_declarations_follow_the_declared_value_not_the_real_card():
    state = start(HANDS)
    state = play(state, 0, "chili-1", "wasabi", 3)  # a lie: the card is a chili 1
    actions = RULES.legal_actions(state, 1)
    declared = {(a["declare"]["spice"], a["declare"]["number"]) for a in actions if a["type"] == "play"}
    assert declared == {("wasabi", number) for number in range(4, 11)}


@pytest.mark.parametrize(
    ("declare_spice", "declare_number"),
    [("wasabi", 3), ("chili", 3), ("chili", 2), ("pepper", 9)],
)
def test_illegal_declarations_are_refused(declare_spice, declare_number):
    state = play(start(HANDS), 0, "chili-1", "chili", 3)
    assert _illegal(state, 1, _play("wasabi-2", declare_spice, declare_number)) == "illegal_declaration"


def test_a_new_stack_may_not_open_above_3():
    assert _illegal(start(HANDS), 0, _play("chili-5", "chili", 4)) == "illegal_declaration"


def test_a_10_restarts_the_same_spice_at_1_to_3_only():
    state = play(start(HANDS), 0, "wasabi-10", "wasabi", 3)
    state = play(state, 1, "pepper-10", "wasabi", 10)
    assert _illegal(state, 2, _play("pepper-1", "pepper", 1)) == "illegal_declaration"
    assert _illegal(state, 2, _play("pepper-1", "wasabi", 4)) == "illegal_declaration"
    state = play(state, 2, "wasabi-1", "wasabi", 1)
    assert state["stack"][-1]["number"] == 1


# -- turns and passes ---------------------------------------------------------------------------------------------


def test_play_puts_the_card_face_down_and_passes_the_turn_clockwise():
    state, events = act(start(HANDS), 0, _play("chili-9", "pepper", 2))
    assert state["hands"][0] == ["chili-1", "chili-5", "wild-number", "wasabi-10", "pepper-2"]
    assert state["stack"] == [
        {"card": "chili-9", "owner": 0, "spice": "pepper", "number": 2, "tucked": [], "copy": False}
    ]
    assert state["current"] == 1
    public = [event for event in events if event["visible_to"] is None]
    assert public == [
        {
            "type": "play",
            "visible_to": None,
            "seat": 0,
            "spice": "pepper",
            "number": 2,
            "tucked": 0,
            "hand_size": 5,
        }
    ]
    assert {
        "type": "played_card",
        "visible_to": [0],
        "seat": 0,
        "card": "chili-9",
        "tucked_cards": [],
    } in events


def test_pass_draws_one_card_and_ends_the_turn():
    state, events = act(start(HANDS, ["pepper-4"]), 0, {"type": "pass"})
    assert state["hands"][0][-1] == "pepper-4"
    assert state["current"] == 1
    assert types(events) == ["pass", "draw", "drew"]
    assert events[1] == {"type": "draw", "visible_to": None, "seat": 0, "count": 1, "reason": "pass"}
    assert events[2] == {
        "type": "drew",
        "visible_to": [0],
        "seat": 0,
        "cards": ["pepper-4"],
        "reason": "pass",
    }


def test_the_first_player_may_pass_on_the_empty_stack():
    assert {"type": "pass"} in RULES.legal_actions(start(HANDS), 0)


def test_turn_order_wraps_round_the_table():
    state = start(HANDS, first=2)
    state = step(state, 2, {"type": "pass"})
    assert state["current"] == 0


def test_only_the_current_player_plays_or_passes():
    state = start(HANDS)
    assert _illegal(state, 1, _play("wasabi-2", "wasabi", 2)) == "not_your_turn"
    assert _illegal(state, 2, {"type": "pass"}) == "not_your_turn"


def test_a_card_not_in_hand_is_refused():
    assert _illegal(start(HANDS), 0, _play("pepper-7", "pepper", 1)) == "card_not_in_hand"


def test_legal_actions_offer_every_distinct_card_with_every_legal_declaration_then_pass():
    actions = RULES.legal_actions(start(HANDS), 0)
    assert len(actions) == 6 * 9 + 1
    assert actions[0] == _play("chili-1", "chili", 1)
    assert actions[-1] == {"type": "pass"}
    assert RULES.legal_actions(start(HANDS), 1) == []  # nothing to challenge yet


def test_to_act_and_awaited_on_an_empty_stack_are_the_current_player():
    state = start(HANDS)
    assert RULES.to_act(state) == frozenset({0})
    assert RULES.awaited(state) == frozenset({0})


# -- malformed and illegal actions --------------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("action", "code"),
    [
        (["play"], "not_a_dict"),
        ("pass", "not_a_dict"),
        ({}, "unknown_type"),
        ({"type": "bid"}, "unknown_type"),
        ({"type": 3}, "unknown_type"),
        ({"type": "play", "declare": {"spice": "chili", "number": 1}}, "bad_card"),
        (_play("chili-11", "chili", 1), "bad_card"),
        (_play(7, "chili", 1), "bad_card"),
        ({"type": "play", "card": "chili-1"}, "bad_declare"),
        ({"type": "play", "card": "chili-1", "declare": ["chili", 1]}, "bad_declare"),
        (_play("chili-1", "salt", 1), "bad_spice"),
        (_play("chili-1", "chili", True), "bad_number"),
        (_play("chili-1", "chili", 11), "bad_number"),
        (_play("chili-1", "chili", 0), "bad_number"),
        (_play("chili-1", "chili", "1"), "bad_number"),
        (_play("chili-1", "chili", 1.0), "bad_number"),
        (_play("chili-5", "chili", 5, tuck="chili-1"), "bad_tuck"),
        (_play("chili-5", "chili", 5, tuck=["joker"]), "bad_card"),
        ({"type": "challenge", "trait": "colour"}, "bad_trait"),
        ({"type": "copy"}, "bad_card"),
        ({"type": "shuffle", "deck": "abc", "first_player": 0}, "bad_deck"),
        ({"type": "shuffle", "deck": [], "first_player": None}, "bad_first_player"),
        ({"type": "shuffle", "deck": [], "first_player": 0, "spice_it_up": "copy_cat"}, "bad_spice_it_up"),
    ],
)
def test_malformed_actions_are_refused(action, code):
    assert _malformed(start(HANDS), 0, action) == code


def test_shape_is_checked_before_whose_turn_it_is():
    assert _malformed(start(HANDS), 2, _play("chili-1", "chili", 99)) == "bad_number"


def test_a_seat_outside_the_table_is_refused():
    assert _illegal(start(HANDS), 3, {"type": "pass"}) == "bad_seat"
    assert _illegal(start(HANDS), True, {"type": "pass"}) == "bad_seat"


def test_the_dealer_seat_cannot_play():
    assert _illegal(start(HANDS), CHANCE, {"type": "pass"}) == "not_a_player"


def test_decline_needs_a_last_card():
    state = play(start(HANDS), 0, "chili-1", "chili", 1)
    assert _illegal(state, 1, {"type": "decline"}) == "nothing_to_decline"


def test_copy_needs_copy_cat():
    state = play(start(HANDS), 0, "chili-1", "chili", 1)
    assert _illegal(state, 2, {"type": "copy", "card": "chili-2"}) == "copy_cat_not_in_play"


def test_tuck_needs_change_your_luck():
    state = start(HANDS)
    state = play(state, 0, "chili-1", "chili", 3)
    action = _play("chili-3", "chili", 5, tuck=["wasabi-7"])
    assert _illegal(state, 1, action) == "tuck_not_allowed"


def test_player_actions_before_the_deal_are_refused():
    assert _illegal(new_game(2), 0, {"type": "decline"}) == "chance_pending"
