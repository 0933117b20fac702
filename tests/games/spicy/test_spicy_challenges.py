"""Challenges (docs/rules/spicy.md §4): who, what, the named trait, wilds, the winner's stack and the loser's
draw and lead."""

from __future__ import annotations

import pytest
from spicy_scenarios import act, challenge, play, start, step, types
from tapete_sdk.plugin import IllegalAction

from games.spicy.rules import RULES

HANDS = [
    ["chili-1", "chili-7", "wild-number", "wild-spice", "pepper-2", "wasabi-5"],
    ["wasabi-2", "pepper-10", "chili-3", "chili-4", "chili-10", "wasabi-7"],
    ["pepper-1", "pepper-5", "wasabi-1", "chili-2", "chili-8", "wasabi-3"],
]
PENALTY = ["pepper-6", "pepper-7", "pepper-8"]


def _illegal(state, seat, action):
    with pytest.raises(IllegalAction) as error:
        RULES.apply_action(state, seat, action)
    return error.value.code


@pytest.mark.parametrize(
    ("card", "trait", "challenger_wins"),
    [
        ("wild-number", "number", False),  # a wild number shows every number
        ("wild-number", "spice", True),  # ... and no spice
        ("wild-spice", "spice", False),  # a wild spice shows every spice
        ("wild-spice", "number", True),  # ... and no number
    ],
)
def test_wilds_pass_one_trait_and_fail_the_other(card, trait, challenger_wins):
    state = play(start(HANDS), 0, card, "chili", 2)
    state = challenge(state, 1, trait)
    assert state["last_challenge"]["challenger_won"] is challenger_wins
    assert state["last_challenge"]["card"] == card
    winner = 1 if challenger_wins else 0
    assert state["won"][winner] == [card]


def test_only_the_named_trait_is_checked_so_a_lie_on_the_other_trait_survives():
    state = play(start(HANDS), 0, "chili-7", "chili", 1)  # right spice, wrong number
    state = challenge(state, 1, "spice")
    assert state["last_challenge"]["challenger_won"] is False
    assert state["won"][0] == ["chili-7"]


def test_a_wrong_number_challenge_on_a_number_lie_wins():
    state = play(start(HANDS), 0, "chili-7", "chili", 1)
    state = challenge(state, 2, "number")
    assert state["last_challenge"]["challenger_won"] is True
    assert state["won"][2] == ["chili-7"]


def test_an_honest_card_beats_both_challenges():
    for trait in ("spice", "number"):
        state = challenge(play(start(HANDS), 0, "chili-1", "chili", 1), 1, trait)
        assert state["last_challenge"]["winner"] == 0


def test_the_winner_takes_the_whole_stack_and_the_loser_draws_two_and_leads():
    state = start(HANDS, PENALTY)
    state = play(state, 0, "chili-1", "chili", 1)
    state = play(state, 1, "wasabi-2", "chili", 2)
    state = play(state, 2, "chili-2", "chili", 3)  # honest, but the spice is challenged
    state, events = act(state, 0, {"type": "challenge", "trait": "spice"})
    assert state["won"] == [[], [], ["chili-1", "wasabi-2", "chili-2"]]
    assert state["stack"] == []
    assert state["hands"][0] == [
        "chili-7",
        "wild-number",
        "wild-spice",
        "pepper-2",
        "wasabi-5",
        "pepper-6",
        "pepper-7",
    ]
    assert state["current"] == 0
    assert state["must_lead"] is True
    assert types(events) == ["challenge", "stack_won", "draw", "drew"]
    assert events[0] == {
        "type": "challenge",
        "visible_to": None,
        "seat": 0,
        "owner": 2,
        "trait": "spice",
        "card": "chili-2",
        "spice": "chili",
        "number": 3,
        "copy": False,
        "challenger_won": False,
    }
    assert events[1] == {"type": "stack_won", "visible_to": None, "seat": 2, "count": 3}
    assert events[2] == {"type": "draw", "visible_to": None, "seat": 0, "count": 2, "reason": "penalty"}


def test_a_caught_bluffer_draws_two_and_leads_the_new_stack():
    state = start(HANDS, PENALTY, first=1)
    state = play(state, 1, "pepper-10", "wasabi", 2)
    state = challenge(state, 0, "spice")
    assert state["won"][0] == ["pepper-10"]
    assert state["hands"][1][-2:] == ["pepper-6", "pepper-7"]
    assert state["current"] == 1 and state["must_lead"] is True


def test_the_challenge_loser_must_lead_and_may_not_pass():
    state = challenge(play(start(HANDS), 0, "chili-1", "chili", 1), 1, "number")
    assert _illegal(state, 1, {"type": "pass"}) == "must_lead"
    assert {"type": "pass"} not in RULES.legal_actions(state, 1)
    assert RULES.to_act(state) == frozenset({1})
    state = play(state, 1, "chili-10", "pepper", 1)
    assert state["must_lead"] is False


def test_without_challenge_loser_must_lead_the_loser_may_pass():
    state = start(HANDS, challengeLoserMustLead=False)
    state = challenge(play(state, 0, "chili-1", "chili", 1), 1, "number")
    assert state["current"] == 1 and state["must_lead"] is False
    state = step(state, 1, {"type": "pass"})
    assert state["current"] == 2


def test_the_penalty_draw_follows_the_option():
    state = start(HANDS, penaltyDraw=3)
    state = challenge(play(state, 0, "chili-1", "chili", 1), 1, "number")
    assert len(state["hands"][1]) == 9


def test_any_other_player_may_challenge_not_only_the_next_one():
    state = play(start(HANDS), 0, "chili-7", "chili", 1)
    assert RULES.to_act(state) == frozenset({1, 2})
    assert RULES.awaited(state) == frozenset({1})
    assert {"type": "challenge", "trait": "spice"} in RULES.legal_actions(state, 2)
    assert RULES.legal_actions(state, 2) == [
        {"type": "challenge", "trait": "spice"},
        {"type": "challenge", "trait": "number"},
    ]


def test_passes_do_not_close_the_challenge_window():
    state = play(start(HANDS), 0, "chili-7", "chili", 1)
    state = step(state, 1, {"type": "pass"})
    state = step(state, 2, {"type": "pass"})
    assert state["current"] == 0
    assert RULES.to_act(state) == frozenset({0, 1, 2})
    state = challenge(state, 1, "number")
    assert state["won"][1] == ["chili-7"]


def test_only_the_top_card_is_checked_once_another_card_lands():
    state = play(start(HANDS), 0, "chili-7", "chili", 1)  # a lie, now buried
    state = play(state, 1, "chili-3", "chili", 3)  # honest
    state = challenge(state, 2, "number")
    assert state["last_challenge"]["card"] == "chili-3"
    assert state["last_challenge"]["challenger_won"] is False
    assert state["won"][1] == ["chili-7", "chili-3"]


def test_challenging_your_own_card_is_refused():
    state = play(start(HANDS), 0, "chili-7", "chili", 1)
    assert _illegal(state, 0, {"type": "challenge", "trait": "number"}) == "own_card"
    assert [action for action in RULES.legal_actions(state, 1) if action["type"] == "challenge"]


def test_a_challenge_needs_a_card_on_the_stack():
    state = start(HANDS)
    assert _illegal(state, 1, {"type": "challenge", "trait": "spice"}) == "nothing_to_challenge"
    state = challenge(play(state, 0, "chili-7", "chili", 1), 1, "number")
    assert _illegal(state, 2, {"type": "challenge", "trait": "spice"}) == "nothing_to_challenge"


def test_a_challenge_on_an_ordinary_card_must_name_one_trait():
    state = play(start(HANDS), 0, "chili-7", "chili", 1)
    assert _illegal(state, 1, {"type": "challenge"}) == "trait_required"
    assert _illegal(state, 1, {"type": "challenge", "trait": "both"}) == "trait_required"


def test_the_revealed_card_is_public_in_every_view():
    state = challenge(play(start(HANDS), 0, "wild-spice", "pepper", 3), 2, "number")
    for seat in (0, 1, 2, None):
        shown = RULES.view(state, seat)["last_challenge"]
        assert shown["card"] == "wild-spice"
        assert (
            shown["challenger"] == 2 and shown["owner"] == 0 and shown["winner"] == 2 and shown["loser"] == 0
        )
