"""Last cards and trophies (docs/rules/spicy.md §5), the game's end and its score (§6)."""

from __future__ import annotations

import pytest
from spicy_scenarios import act, challenge, give_won_cards, play, start, step, types
from tapete_sdk.plugin import IllegalAction, Outcome

from games.spicy.rules import RULES

REFILL = ["pepper-6", "pepper-7", "pepper-8", "pepper-9", "wasabi-8", "wasabi-9", "wasabi-6", "wasabi-4"]
DECLINE = {"type": "decline"}


def _illegal(state, seat, action):
    with pytest.raises(IllegalAction) as error:
        RULES.apply_action(state, seat, action)
    return error.value.code


# -- the last card ------------------------------------------------------------------------------------------------


def test_playing_the_last_card_opens_the_last_card_phase_for_every_opponent():
    state, events = act(start([["chili-1"], ["wasabi-3"], ["pepper-2"]]), 0, _play("chili-1", "chili", 1))
    assert state["phase"] == "last_card"
    assert state["last_card"] == {"seat": 0, "declined": []}
    assert "last_card" in types(events)
    assert RULES.to_act(state) == frozenset({1, 2})
    assert RULES.awaited(state) == frozenset({1, 2})
    assert RULES.legal_actions(state, 1) == [
        {"type": "challenge", "trait": "spice"},
        {"type": "challenge", "trait": "number"},
        DECLINE,
    ]
    assert RULES.legal_actions(state, 0) == []


def test_the_next_card_waits_until_every_opponent_declined():
    state = play(start([["chili-1"], ["wasabi-3"], ["pepper-2"]]), 0, "chili-1", "chili", 1)
    assert _illegal(state, 1, _play("wasabi-3", "chili", 3)) == "last_card_pending"
    assert _illegal(state, 1, {"type": "pass"}) == "last_card_pending"
    state = step(state, 1, DECLINE)
    assert RULES.awaited(state) == frozenset({2})
    assert RULES.legal_actions(state, 1) == []
    assert _illegal(state, 1, DECLINE) == "already_declined"
    assert _illegal(state, 1, {"type": "challenge", "trait": "number"}) == "already_declined"
    assert _illegal(state, 0, DECLINE) == "own_card"


def test_an_unchallenged_last_card_earns_a_trophy_and_six_new_cards():
    state = play(start([["chili-1"], ["wasabi-3"], ["pepper-2"]], REFILL), 0, "chili-1", "chili", 1)
    state = step(state, 1, DECLINE)
    state, events = act(state, 2, DECLINE)
    assert state["trophies"] == [1, 0, 0] and state["trophies_left"] == 2
    assert state["hands"][0] == REFILL[:6]
    assert types(events) == ["decline", "trophy", "draw", "drew"]
    assert events[1] == {"type": "trophy", "visible_to": None, "seat": 0, "trophies": 1, "trophies_left": 2}
    # The stack stays; the next player plays on it and the trophied card can no longer be challenged.
    assert state["phase"] == "turn" and state["current"] == 1
    assert len(state["stack"]) == 1
    assert RULES.to_act(state) == frozenset({1})
    assert _illegal(state, 2, {"type": "challenge", "trait": "number"}) == "nothing_to_challenge"
    state = play(state, 1, "wasabi-3", "chili", 3)
    assert len(state["stack"]) == 2


def test_a_last_card_that_survives_a_challenge_earns_the_trophy_and_the_stack():
    state = play(start([["chili-1"], ["wasabi-3"], ["pepper-2"]], REFILL), 0, "chili-1", "chili", 1)
    state, events = act(state, 2, {"type": "challenge", "trait": "number"})
    assert types(events) == ["challenge", "stack_won", "trophy", "draw", "drew", "draw", "drew"]
    assert state["trophies"] == [1, 0, 0]
    assert state["won"][0] == ["chili-1"]
    assert state["hands"][2] == ["pepper-2", "pepper-6", "pepper-7"]  # the challenger draws 2 first ...
    assert state["hands"][0] == [
        "pepper-8",
        "pepper-9",
        "wasabi-8",
        "wasabi-9",
        "wasabi-6",
        "wasabi-4",
    ]  # ... then 6
    assert state["current"] == 2 and state["must_lead"] is True
    assert state["phase"] == "turn" and state["last_card"] is None


def test_a_last_card_that_loses_its_challenge_earns_nothing_and_its_owner_draws_two_and_leads():
    state = play(start([["chili-1"], ["wasabi-3"], ["pepper-2"]], REFILL), 0, "chili-1", "chili", 2)
    state = challenge(state, 1, "number")
    assert state["trophies"] == [0, 0, 0]
    assert state["won"][1] == ["chili-1"]
    assert state["hands"][0] == ["pepper-6", "pepper-7"]
    assert state["current"] == 0 and state["must_lead"] is True
    assert state["phase"] == "turn"


def test_the_trophy_refill_follows_the_option():
    state = play(start([["chili-1"], ["wasabi-3"]], trophyRefill=3), 0, "chili-1", "chili", 1)
    state = step(state, 1, DECLINE)
    assert len(state["hands"][0]) == 3


def test_a_trophy_in_a_two_player_game_needs_only_the_other_player():
    state = play(start([["chili-1"], ["wasabi-3"]]), 0, "chili-1", "chili", 1)
    assert RULES.awaited(state) == frozenset({1})
    state = step(state, 1, DECLINE)
    assert state["trophies"] == [1, 0]


# -- lastCardDeclineRequired off ----------------------------------------------------------------------------------


def test_without_required_declines_the_next_players_move_gives_the_trophy_first():
    hands = [["chili-1", "chili-2"], ["wasabi-3", "wasabi-4"], ["pepper-2", "pepper-5"]]
    state = start(hands, REFILL, lastCardDeclineRequired=False)
    state = play(state, 0, "chili-2", "chili", 1)
    state = step(state, 1, {"type": "pass"})  # draws pepper-6
    state = play(state, 2, "pepper-5", "chili", 3)
    state = play(state, 0, "chili-1", "chili", 4)
    assert state["phase"] == "last_card"
    assert RULES.to_act(state) == frozenset({1, 2})
    assert RULES.awaited(state) == frozenset({1})
    assert RULES.timeout_action(state, 1) == {"type": "pass"}
    assert _play("wasabi-3", "chili", 5) in RULES.legal_actions(state, 1)
    assert DECLINE in RULES.legal_actions(state, 2)
    state, events = act(state, 1, _play("wasabi-3", "chili", 5))
    assert types(events)[:4] == ["trophy", "draw", "drew", "play"]
    assert state["trophies"] == [1, 0, 0]
    assert state["hands"][0] == REFILL[1:7]
    assert [entry["card"] for entry in state["stack"]] == ["chili-2", "pepper-5", "chili-1", "wasabi-3"]
    assert state["phase"] == "turn" and state["current"] == 2


def test_without_required_declines_others_may_still_challenge_the_last_card():
    state = start([["chili-1"], ["wasabi-3"], ["pepper-2"]], lastCardDeclineRequired=False)
    state = play(state, 0, "chili-1", "chili", 2)  # a lie: the card is a 1
    state = challenge(state, 2, "number")
    assert state["trophies"] == [0, 0, 0] and state["won"][2] == ["chili-1"]


def test_without_required_declines_a_move_that_ends_the_game_by_trophy_is_not_made():
    hands = [["chili-1", "chili-2"], ["wasabi-3", "wasabi-4"]]
    state = start(hands, REFILL, lastCardDeclineRequired=False)
    state = {**state, "trophies": [1, 0], "trophies_left": 2}  # seat 0 already holds a trophy
    state = play(state, 0, "chili-2", "chili", 1)
    state = step(state, 1, {"type": "pass"})  # draws pepper-6
    state = play(state, 0, "chili-1", "chili", 2)
    state, events = act(state, 1, {"type": "pass"})
    assert state["phase"] == "over"
    assert state["result"]["reason"] == "second_trophy"
    assert state["hands"][1] == ["wasabi-3", "wasabi-4", "pepper-6"]  # the pass drew nothing
    assert "pass" not in types(events)


# -- game ends ----------------------------------------------------------------------------------------------------


def test_a_second_trophy_wins_outright_whatever_the_points():
    hands = [["chili-1"], ["wasabi-3"]]
    state = start(hands, ["chili-2", "pepper-7"], trophyRefill=1)
    state = step(play(state, 0, "chili-1", "chili", 1), 1, DECLINE)  # trophy 1 for seat 0, draws chili-2
    state = step(play(state, 1, "wasabi-3", "chili", 3), 0, DECLINE)  # trophy for seat 1, draws pepper-7
    state = give_won_cards(state, 1, 30)  # seat 1 is far ahead on points
    state = play(state, 0, "chili-2", "chili", 4)
    state, events = act(state, 1, DECLINE)
    assert state["phase"] == "over"
    assert types(events)[-2:] == ["trophy", "game_over"]
    outcome = RULES.outcome(state)
    assert outcome == Outcome(ranking=[[0], [1]], reason="second_trophy", scores={0: 20, 1: 39})
    assert RULES.to_act(state) == frozenset() and RULES.awaited(state) == frozenset()
    assert all(RULES.legal_actions(state, seat) == [] for seat in (0, 1))
    assert _illegal(state, 0, {"type": "pass"}) == "game_over"


def test_the_third_trophy_ends_the_game_and_tied_players_share_their_rank():
    state = start([["chili-1"], ["wasabi-3"], ["pepper-2"]], ["chili-2", "pepper-7"], trophyRefill=1)
    state = step(step(play(state, 0, "chili-1", "chili", 1), 1, DECLINE), 2, DECLINE)
    state = step(step(play(state, 1, "wasabi-3", "chili", 2), 0, DECLINE), 2, DECLINE)
    state = play(state, 2, "pepper-2", "chili", 3)
    state = step(step(state, 0, DECLINE), 1, DECLINE)
    assert state["trophies"] == [1, 1, 1] and state["trophies_left"] == 0
    outcome = RULES.outcome(state)
    assert outcome.reason == "last_trophy"
    assert outcome.scores == {0: 9, 1: 9, 2: 10}  # seat 2 draws no refill: the game ended at once
    assert outcome.ranking == [[2], [0, 1]]
    assert outcome.winners == [2]


def test_the_third_trophy_that_is_also_a_second_wins_outright():
    state = start([["chili-1"], ["wasabi-3"], ["pepper-2"]], trophyRefill=1)
    state = {**state, "trophies": [1, 1, 0], "trophies_left": 1}
    state = step(step(play(state, 0, "chili-1", "chili", 1), 1, DECLINE), 2, DECLINE)
    assert RULES.outcome(state).reason == "second_trophy"


def test_worlds_end_reaching_the_top_stops_a_penalty_draw_midway_and_ends_the_game():
    # 2 players x 3 cards: 94 in the draw pile, 93 below World's End, so exactly one card above it.
    hands = [["chili-1", "chili-5", "wild-number"], ["wasabi-2", "pepper-10", "wild-spice"]]
    state = start(hands, ["pepper-3", "pepper-4"], worldsEndBelow=93)
    assert len(state["draw"]) - state["worlds_end_below"] == 1
    state = play(state, 0, "chili-1", "chili", 1)
    state, events = act(state, 1, {"type": "challenge", "trait": "number"})
    assert state["hands"][1] == ["wasabi-2", "pepper-10", "wild-spice", "pepper-3"]  # one of the two cards
    assert types(events)[-5:] == ["stack_won", "draw", "drew", "worlds_end", "game_over"]
    assert events[-4]["count"] == 1
    outcome = RULES.outcome(state)
    assert outcome.reason == "worlds_end"
    assert outcome.scores == {0: 1 - 2, 1: -4}
    assert outcome.ranking == [[0], [1]]
    assert state["current"] is None


def test_worlds_end_can_end_the_game_during_a_trophy_refill():
    state = start([["chili-1"], ["wasabi-3"]], worldsEndBelow=96)  # 98 left, 2 above World's End
    state = step(play(state, 0, "chili-1", "chili", 1), 1, DECLINE)
    assert state["trophies"] == [1, 0]
    assert len(state["hands"][0]) == 2
    assert RULES.outcome(state).reason == "worlds_end"
    assert RULES.outcome(state).scores == {0: 8, 1: -1}


def test_worlds_end_is_reached_by_a_pass_and_is_never_drawn():
    state = start([["chili-1"], ["wasabi-3"]], ["pepper-3"], worldsEndBelow=97)
    state, events = act(state, 0, {"type": "pass"})
    assert state["hands"][0] == ["chili-1", "pepper-3"]
    assert len(state["draw"]) == 97
    assert types(events) == ["pass", "draw", "drew", "worlds_end", "game_over"]


def test_without_worlds_end_the_game_ends_when_a_card_must_be_drawn_from_an_empty_pile():
    state = start([["chili-1"], ["wasabi-3"]], worldsEnd=False)
    state = {**state, "draw": state["draw"][-1:], "won": [state["draw"][:-1], []]}
    state = step(state, 0, {"type": "pass"})  # takes the last card: the game goes on
    assert state["draw"] == [] and state["phase"] == "turn"
    state, events = act(state, 1, {"type": "pass"})
    assert types(events)[-3:] == ["drew", "deck_empty", "game_over"]
    assert events[-4]["count"] == 0
    outcome = RULES.outcome(state)
    assert outcome.reason == "deck_empty"
    assert outcome.scores == {0: 97 - 2, 1: -1}


def test_scores_count_won_cards_trophies_and_cards_in_hand_and_ties_share_a_rank():
    hands = [["chili-1", "chili-2"], ["wasabi-3", "wasabi-4"], ["pepper-2", "pepper-3"]]
    state = start(hands, worldsEndBelow=93)  # 94 left: one card above World's End
    state = step(state, 0, {"type": "pass"})
    outcome = RULES.outcome(state)
    assert outcome.scores == {0: -3, 1: -2, 2: -2}
    assert outcome.ranking == [[1, 2], [0]]
    assert outcome.winners == [1, 2]
    assert RULES.view(state, 1)["result"]["ranking"] == [[1, 2], [0]]


def _play(card, spice, number):
    return {"type": "play", "card": card, "declare": {"spice": spice, "number": number}}
