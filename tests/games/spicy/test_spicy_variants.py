"""Spice It Up! cards (docs/rules/spicy.md §7), their two-card interactions, and the house rules (§8)."""

from __future__ import annotations

import pytest
from spicy_scenarios import act, challenge, play, start, step, types
from tapete_sdk.plugin import IllegalAction

from games.spicy.cards import legal_declarations
from games.spicy.rules import RULES

BASE = {"start_it_up": False, "we_love_chili": False}
DECLINE = {"type": "decline"}


def _illegal(state, seat, action):
    with pytest.raises(IllegalAction) as error:
        RULES.apply_action(state, seat, action)
    return error.value.code


def _play(card, spice, number, **extra):
    return {"type": "play", "card": card, "declare": {"spice": spice, "number": number}, **extra}


def _declared(state, seat):
    return [
        (action["declare"]["spice"], action["declare"]["number"])
        for action in RULES.legal_actions(state, seat)
        if action["type"] == "play" and action["card"] == state["hands"][seat][0]
    ]


def _copy(card, **extra):
    return {"type": "copy", "card": card, **extra}


# -- We Love Chili! and Start It Up! ------------------------------------------------------------------------------

WASABI_HANDS = [
    ["wasabi-3", "chili-6", "pepper-2"],
    ["wasabi-10", "wasabi-8", "pepper-5"],
    ["pepper-1", "wasabi-7", "chili-9"],
]


def test_we_love_chili_lets_a_restart_after_a_10_switch_to_chili():
    state = start(WASABI_HANDS, spiceItUp=["we_love_chili"])
    state = play(state, 0, "wasabi-3", "wasabi", 3)
    state = play(state, 1, "wasabi-10", "wasabi", 10)
    assert _declared(state, 2) == [
        ("wasabi", 1),
        ("wasabi", 2),
        ("wasabi", 3),
        ("chili", 1),
        ("chili", 2),
        ("chili", 3),
    ]
    state = play(state, 2, "pepper-1", "chili", 2)
    assert state["stack"][-1]["spice"] == "chili"
    assert _declared(state, 0) == [("chili", number) for number in range(3, 11)]


def test_we_love_chili_does_not_switch_spices_outside_a_restart():
    state = start(WASABI_HANDS, spiceItUp=["we_love_chili"])
    state = play(state, 0, "wasabi-3", "wasabi", 1)
    assert _illegal(state, 1, _play("wasabi-8", "chili", 2)) == "illegal_declaration"
    assert legal_declarations(("wasabi", 9), **{**BASE, "we_love_chili": True}) == [("wasabi", 10)]
    on_chili = legal_declarations(("chili", 10), **{**BASE, "we_love_chili": True})
    assert on_chili == [("chili", 1), ("chili", 2), ("chili", 3)]  # no duplicates on a chili stack


def test_without_we_love_chili_a_restart_keeps_the_spice():
    state = start(WASABI_HANDS)
    state = play(play(state, 0, "wasabi-3", "wasabi", 3), 1, "wasabi-10", "wasabi", 10)
    assert _illegal(state, 2, _play("pepper-1", "chili", 1)) == "illegal_declaration"


@pytest.mark.parametrize("previous", [8, 9, 10])
def test_start_it_up_allows_1_to_3_after_an_8_9_or_10(previous):
    declarations = legal_declarations(("pepper", previous), **{**BASE, "start_it_up": True})
    assert declarations == [("pepper", n) for n in (1, 2, 3, *range(previous + 1, 11))]


def test_start_it_up_does_not_restart_after_a_7():
    assert legal_declarations(("pepper", 7), **{**BASE, "start_it_up": True}) == [
        ("pepper", 8),
        ("pepper", 9),
        ("pepper", 10),
    ]


def test_start_it_up_in_play():
    state = start(WASABI_HANDS, spiceItUp=["start_it_up"])
    state = play(state, 0, "wasabi-3", "wasabi", 3)
    state = play(state, 1, "wasabi-8", "wasabi", 8)
    state = play(state, 2, "pepper-1", "wasabi", 1)
    assert (state["stack"][-1]["spice"], state["stack"][-1]["number"]) == ("wasabi", 1)


def test_we_love_chili_with_start_it_up_allows_chili_1_to_3_after_an_8():
    flags = {**BASE, "start_it_up": True, "we_love_chili": True}
    assert legal_declarations(("wasabi", 8), **flags) == [
        ("wasabi", 1),
        ("wasabi", 2),
        ("wasabi", 3),
        ("wasabi", 9),
        ("wasabi", 10),
        ("chili", 1),
        ("chili", 2),
        ("chili", 3),
    ]
    state = start(WASABI_HANDS, spiceItUp=["we_love_chili", "start_it_up"])
    state = play(play(state, 0, "wasabi-3", "wasabi", 3), 1, "wasabi-8", "wasabi", 8)
    assert play(state, 2, "chili-9", "chili", 3)["stack"][-1]["spice"] == "chili"


# -- Spice Raider -------------------------------------------------------------------------------------------------

RAID_HANDS = [
    ["chili-1", "chili-6", "pepper-2"],
    ["wasabi-4", "chili-4", "pepper-5"],
    ["pepper-1", "wasabi-7", "wasabi-9"],
]


def test_spice_raider_wins_everything_under_the_paw_when_the_next_card_lands():
    state = start(RAID_HANDS, spiceItUp=["spice_raider"])
    state = play(state, 0, "chili-1", "chili", 2)
    state = play(state, 1, "wasabi-4", "chili", 4)  # the paw
    state = step(state, 2, {"type": "pass"})  # a pass does not trigger the raid
    assert len(state["stack"]) == 2
    state, events = act(state, 0, _play("chili-6", "chili", 6))
    assert state["won"][1] == ["chili-1", "wasabi-4"]
    assert [entry["card"] for entry in state["stack"]] == ["chili-6"]
    assert {"type": "raid", "visible_to": None, "seat": 1, "count": 2} in events
    assert types(events).index("raid") < types(events).index("play")
    assert RULES.legal_actions(state, 2) == [
        {"type": "challenge", "trait": "spice"},
        {"type": "challenge", "trait": "number"},
    ]


def test_a_challenged_4_voids_the_raid():
    state = start(RAID_HANDS, spiceItUp=["spice_raider"])
    state = play(state, 0, "chili-1", "chili", 2)
    state = play(state, 1, "wasabi-4", "chili", 4)
    state = challenge(state, 2, "spice")
    assert state["won"] == [[], [], ["chili-1", "wasabi-4"]]
    state = play(state, 1, "chili-4", "pepper", 1)
    assert state["won"][1] == []


def test_the_raider_may_collect_with_their_own_next_card():
    state = start(RAID_HANDS, spiceItUp=["spice_raider"])
    state = play(state, 0, "pepper-2", "pepper", 2)
    state = play(state, 1, "chili-4", "pepper", 4)
    state = step(step(state, 2, {"type": "pass"}), 0, {"type": "pass"})
    state = play(state, 1, "pepper-5", "pepper", 5)
    assert state["won"][1] == ["pepper-2", "chili-4"]
    assert [entry["card"] for entry in state["stack"]] == ["pepper-5"]


def test_without_spice_raider_a_4_is_an_ordinary_card():
    state = start(RAID_HANDS)
    state = play(play(state, 0, "chili-1", "chili", 2), 1, "wasabi-4", "chili", 4)
    state = play(state, 2, "wasabi-9", "chili", 9)
    assert len(state["stack"]) == 3 and state["won"] == [[], [], []]


# -- Change Your Luck ---------------------------------------------------------------------------------------------

LUCK_HANDS = [
    ["chili-1", "chili-6", "pepper-2", "wild-spice"],
    ["wasabi-2", "chili-5", "pepper-9", "wasabi-7"],
]
LUCK_DRAW = ["pepper-6", "pepper-7", "pepper-8"]


def test_change_your_luck_tucks_up_to_two_cards_under_a_5_and_draws_as_many():
    state = start(LUCK_HANDS, LUCK_DRAW, spiceItUp=["change_your_luck"])
    state = play(state, 0, "chili-1", "chili", 3)
    state, events = act(state, 1, _play("chili-5", "chili", 5, tuck=["wasabi-2", "wasabi-7"]))
    assert state["hands"][1] == ["pepper-9", "pepper-6", "pepper-7"]
    assert state["stack"][-1]["tucked"] == ["wasabi-2", "wasabi-7"]
    assert events[0]["tucked"] == 2
    assert {"type": "draw", "visible_to": None, "seat": 1, "count": 2, "reason": "tuck"} in events
    assert {
        "type": "played_card",
        "visible_to": [1],
        "seat": 1,
        "card": "chili-5",
        "tucked_cards": ["wasabi-2", "wasabi-7"],
    } in events
    assert RULES.view(state, 0)["stack"][-1] == {
        "owner": 1,
        "spice": "chili",
        "number": 5,
        "copy": False,
        "tucked": 2,
    }
    assert RULES.view(state, 0)["stack_size"] == 4


def test_tucked_cards_are_never_checked_but_go_to_the_challenge_winner():
    state = start(LUCK_HANDS, LUCK_DRAW, spiceItUp=["change_your_luck"])
    state = play(state, 0, "chili-1", "chili", 3)
    state = play(state, 1, "chili-5", "chili", 5, tuck=["wasabi-2", "pepper-9"])
    state = challenge(state, 0, "spice")
    assert state["last_challenge"]["challenger_won"] is False
    assert sorted(state["won"][1]) == sorted(["chili-1", "chili-5", "wasabi-2", "pepper-9"])


def test_tuck_choices_are_offered_for_a_declared_5():
    state = start(LUCK_HANDS, LUCK_DRAW, spiceItUp=["change_your_luck"])
    state = play(state, 0, "chili-1", "chili", 3)
    fives = [
        a
        for a in RULES.legal_actions(state, 1)
        if a["type"] == "play" and a["card"] == "chili-5" and a["declare"]["number"] == 5
    ]
    assert [a.get("tuck", []) for a in fives] == [
        [],
        ["pepper-9"],
        ["wasabi-2"],
        ["wasabi-7"],
        ["pepper-9", "wasabi-2"],
        ["pepper-9", "wasabi-7"],
        ["wasabi-2", "wasabi-7"],
    ]


@pytest.mark.parametrize(
    ("action", "code"),
    [
        (_play("chili-5", "chili", 5, tuck=["wasabi-2", "wasabi-7", "pepper-9"]), "tuck_too_many"),
        (_play("chili-5", "chili", 5, tuck=["chili-5"]), "tuck_not_in_hand"),
        (_play("chili-5", "chili", 5, tuck=["pepper-1"]), "tuck_not_in_hand"),
        (_play("chili-5", "chili", 6, tuck=["wasabi-2"]), "tuck_not_allowed"),
    ],
)
def test_bad_tucks_are_refused(action, code):
    state = start(LUCK_HANDS, LUCK_DRAW, spiceItUp=["change_your_luck"])
    state = play(state, 0, "chili-1", "chili", 3)
    assert _illegal(state, 1, action) == code


# -- Turn It Up! --------------------------------------------------------------------------------------------------

TURN_HANDS = [["chili-6", "chili-9", "wasabi-9"], ["pepper-1", "pepper-2", "pepper-3"]]


@pytest.mark.parametrize(("card", "declared"), [("chili-6", 9), ("chili-9", 6)])
def test_turn_it_up_makes_6_and_9_count_as_each_other(card, declared):
    for spice_it_up, challenger_wins in ((["turn_it_up"], False), ([], True)):
        state = start(TURN_HANDS, spiceItUp=spice_it_up)
        state = play(
            play(state, 0, "chili-6" if card == "chili-9" else "chili-9", "chili", 1),
            1,
            "pepper-1",
            "chili",
            2,
        )
        state = play(state, 0, card, "chili", declared)
        state = challenge(state, 1, "number")
        assert state["last_challenge"]["challenger_won"] is challenger_wins


def test_turn_it_up_still_checks_the_spice():
    state = start(TURN_HANDS, spiceItUp=["turn_it_up"])
    state = play(state, 0, "wasabi-9", "chili", 1)
    state = play(state, 1, "pepper-1", "chili", 6)
    state = challenge(state, 0, "spice")
    assert state["last_challenge"]["challenger_won"] is True


# -- Copy Cat -----------------------------------------------------------------------------------------------------

COPY_HANDS = [
    ["chili-2", "chili-3", "wasabi-5", "chili-6"],
    ["chili-2", "pepper-4", "chili-7", "wild-number"],
    ["chili-1", "pepper-8", "wasabi-9", "chili-4"],
]


def test_copy_cat_lets_another_player_copy_the_declaration_out_of_turn():
    state = play(start(COPY_HANDS, spiceItUp=["copy_cat"]), 0, "chili-2", "chili", 2)
    assert RULES.to_act(state) == frozenset({1, 2})
    assert _copy("pepper-8") in RULES.legal_actions(state, 2)
    state, events = act(state, 2, _copy("pepper-8"))
    assert state["stack"][-1] == {
        "card": "pepper-8",
        "owner": 2,
        "spice": "chili",
        "number": 2,
        "tucked": [],
        "copy": True,
    }
    assert events[0] == {
        "type": "copy",
        "visible_to": None,
        "seat": 2,
        "spice": "chili",
        "number": 2,
        "tucked": 0,
        "hand_size": 3,
    }
    assert state["current"] == 0  # play continues to the left of the copier


def test_play_continues_to_the_left_of_the_copier_skipping_the_others():
    hands = [*COPY_HANDS, ["pepper-1", "pepper-2", "pepper-3", "pepper-5"]]
    state = play(start(hands, spiceItUp=["copy_cat"]), 0, "chili-2", "chili", 2)
    assert state["current"] == 1
    state = step(state, 2, _copy("chili-1"))
    assert state["current"] == 3


def test_a_copy_may_be_copied_but_never_your_own_play():
    state = play(start(COPY_HANDS, spiceItUp=["copy_cat"]), 0, "chili-2", "chili", 2)
    assert _illegal(state, 0, _copy("chili-3")) == "own_play"
    state = step(state, 2, _copy("pepper-8"))
    assert _illegal(state, 2, _copy("chili-1")) == "own_play"
    state = step(state, 0, _copy("chili-3"))  # the original player copies the copy
    assert [entry["owner"] for entry in state["stack"]] == [0, 2, 0]
    assert state["current"] == 1


def test_the_copy_window_closes_with_a_pass():
    state = play(start(COPY_HANDS, spiceItUp=["copy_cat"]), 0, "chili-2", "chili", 2)
    state = step(state, 1, {"type": "pass"})
    assert _illegal(state, 2, _copy("chili-1")) == "copy_window_closed"
    assert all(action["type"] != "copy" for action in RULES.legal_actions(state, 2))


def test_a_challenge_on_a_copy_names_no_trait():
    state = play(start(COPY_HANDS, spiceItUp=["copy_cat"]), 0, "chili-2", "chili", 2)
    state = step(state, 2, _copy("pepper-8"))
    assert _illegal(state, 1, {"type": "challenge", "trait": "number"}) == "copy_challenge_names_no_trait"
    assert [a for a in RULES.legal_actions(state, 1) if a["type"] == "challenge"] == [
        {"type": "challenge", "trait": "both"}
    ]
    assert challenge(state, 1, None)["last_challenge"]["trait"] == "both"


@pytest.mark.parametrize(
    ("card", "copier_survives"),
    [("chili-2", True), ("chili-7", False), ("pepper-4", False), ("wild-number", False)],
)
def test_a_copier_survives_only_if_spice_and_number_both_match_and_the_winner_takes_the_whole_stack(
    card, copier_survives
):
    state = play(start(COPY_HANDS, spiceItUp=["copy_cat"]), 0, "chili-6", "chili", 2)  # the original is a lie
    state = step(state, 1, _copy(card))
    state = challenge(state, 2, "both")
    winner, loser = (1, 2) if copier_survives else (2, 1)
    assert state["last_challenge"]["winner"] == winner
    assert state["won"][winner] == ["chili-6", card]
    assert len(state["hands"][loser]) == (3 if loser == 1 else 4) + 2
    assert state["current"] == loser and state["must_lead"] is True


def test_a_last_card_cannot_be_copied():
    state = start([["chili-2"], ["chili-1"], ["pepper-8"]], spiceItUp=["copy_cat"])
    state = play(state, 0, "chili-2", "chili", 2)
    assert state["phase"] == "last_card"
    assert _illegal(state, 2, _copy("pepper-8")) == "last_card_pending"
    assert DECLINE in RULES.legal_actions(state, 2)


def test_copy_cat_with_a_last_card_a_copier_who_empties_their_hand_gets_the_trophy_check():
    hands = [["chili-2", "chili-3"], ["pepper-4", "chili-7"], ["chili-1", "pepper-8"]]
    state = start(hands, spiceItUp=["copy_cat"])
    state = step(state, 0, {"type": "pass"})
    state = play(state, 1, "pepper-4", "wasabi", 1)
    state = step(state, 2, _copy("chili-1"))
    state = play(state, 0, "chili-2", "wasabi", 5)
    state, events = act(state, 2, _copy("pepper-8"))  # seat 2's last card is a copy
    assert "last_card" in types(events)
    assert state["last_card"] == {"seat": 2, "declined": []}
    state = step(step(state, 0, DECLINE), 1, DECLINE)
    assert state["trophies"] == [0, 0, 1]


def test_copy_cat_with_spice_raider_the_first_raider_collects_then_the_copier_holds_the_paw():
    state = start(COPY_HANDS, spiceItUp=["copy_cat", "spice_raider"])
    state = play(state, 0, "chili-2", "chili", 2)
    state = play(state, 1, "pepper-4", "chili", 4)  # seat 1's paw
    state, events = act(state, 2, _copy("chili-4"))
    assert state["won"][1] == ["chili-2", "pepper-4"]
    assert [entry["card"] for entry in state["stack"]] == ["chili-4"]
    assert state["current"] == 0
    state = play(state, 0, "chili-6", "chili", 6)
    assert state["won"][2] == ["chili-4"]  # the copier's paw collects in turn
    assert [entry["card"] for entry in state["stack"]] == ["chili-6"]


def test_copy_cat_with_change_your_luck_a_copied_5_may_tuck():
    state = start(COPY_HANDS, ["pepper-6"], spiceItUp=["copy_cat", "change_your_luck"])
    state = play(state, 0, "chili-3", "wasabi", 3)
    state = play(state, 1, "pepper-4", "wasabi", 5)
    state = step(state, 2, _copy("chili-1", tuck=["wasabi-9"]))
    assert state["stack"][-1]["tucked"] == ["wasabi-9"]
    assert state["hands"][2] == ["pepper-8", "chili-4", "pepper-6"]


# -- house rules --------------------------------------------------------------------------------------------------


@pytest.mark.parametrize(("wild_four", "owner_wins"), [(True, True), (False, False)])
def test_wild_four_a_real_4_passes_a_number_challenge_whatever_number_was_declared(wild_four, owner_wins):
    state = start(RAID_HANDS, wildFour=wild_four)
    state = play(state, 0, "chili-1", "chili", 2)
    state = play(state, 1, "chili-4", "chili", 8)  # a 4 card declared as an 8
    state = challenge(state, 2, "number")
    assert state["last_challenge"]["challenger_won"] is not owner_wins
    assert state["won"][1 if owner_wins else 2] == ["chili-1", "chili-4"]


def test_wild_four_a_4_still_fails_a_spice_challenge():
    state = play(start(RAID_HANDS, wildFour=True), 0, "chili-1", "wasabi", 2)
    state = play(state, 1, "chili-4", "wasabi", 6)  # any number, but the spice is still checked
    state = challenge(state, 2, "spice")
    assert state["last_challenge"]["challenger_won"] is True


def test_wild_four_an_honest_declared_number_is_unchanged_and_a_lie_with_another_card_still_fails():
    state = play(start(RAID_HANDS, wildFour=True), 0, "chili-1", "wasabi", 2)
    state = play(state, 1, "pepper-5", "wasabi", 9)  # not a 4: a number lie
    state = challenge(state, 2, "number")
    assert state["last_challenge"]["challenger_won"] is True


@pytest.mark.parametrize(("card", "copier_wins"), [("chili-4", True), ("pepper-8", False)])
def test_wild_four_a_4_copying_a_declaration_passes_the_number_half_of_the_copy_challenge(card, copier_wins):
    state = play(start(COPY_HANDS, spiceItUp=["copy_cat"], wildFour=True), 0, "chili-2", "chili", 2)
    state = step(state, 2, _copy(card))
    state = challenge(state, 1, None)
    assert state["last_challenge"]["challenger_won"] is not copier_wins


def test_wild_four_declarations_follow_the_ordinary_rules():
    # A 4 stands for any number once revealed; it does not open new declarations.
    assert legal_declarations(("wasabi", 9), **BASE) == [("wasabi", 10)]
    assert ("pepper", 4) not in legal_declarations(None, **BASE)
    state = play(play(start(RAID_HANDS, wildFour=True), 0, "chili-6", "wasabi", 3), 1, "wasabi-4", "wasabi", 9)
    assert _illegal(state, 2, _play("wasabi-7", "wasabi", 4)) == "illegal_declaration"
    assert all(number == 10 for _spice, number in _declared(state, 2))


def test_chili_reverses_turns_the_direction_of_play_on_every_declared_chili():
    hands = [*RAID_HANDS, ["pepper-3", "pepper-6", "pepper-7"]]
    state = start(hands, chiliReverses=True)
    state, events = act(state, 0, _play("pepper-2", "chili", 1))  # a chili declaration, whatever the card
    assert state["direction"] == -1 and state["current"] == 3
    assert {"type": "reverse", "visible_to": None, "seat": 0, "direction": -1} in events
    state = step(state, 3, {"type": "pass"})
    assert state["current"] == 2
    state = play(state, 2, "wasabi-7", "chili", 3)
    assert state["direction"] == 1 and state["current"] == 3


def test_chili_reverses_ignores_other_spices_and_applies_to_copies():
    state = start(COPY_HANDS, chiliReverses=True, spiceItUp=["copy_cat"])
    state = play(state, 0, "wasabi-5", "wasabi", 1)
    assert state["direction"] == 1 and state["current"] == 1
    state = challenge(state, 1, "number")  # seat 0 loses and leads again
    state = play(state, 0, "chili-2", "chili", 2)
    assert state["direction"] == -1 and state["current"] == 2
    state = step(state, 1, _copy("chili-2"))
    assert state["direction"] == 1 and state["current"] == 2


def test_without_chili_reverses_a_chili_keeps_the_direction():
    state = play(start(RAID_HANDS), 0, "chili-1", "chili", 1)
    assert state["direction"] == 1 and state["current"] == 1
