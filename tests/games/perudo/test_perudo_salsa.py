"""Perudo Salsa, docs/rules/perudo.md §7: out-of-turn bids, Dudo and Calza, the resumed turn, and stale bid
sequence numbers."""

import pytest
from perudo_scenario import CALZA, DUDO, act, apply, bid, lose_die, new_game, play, roll, start
from tapete_sdk.plugin import IllegalAction, InvalidOptions

from games.perudo.rules import RULES

HANDS = [[1, 2, 3, 4, 5], [2, 2, 6, 6, 3], [4, 4, 5, 1, 6], [3, 3, 3, 5, 6]]  # 3s and Pacos: 7


def refusal(state, seat, action):
    with pytest.raises(IllegalAction) as error:
        RULES.apply_action(state, seat, action)
    return error.value.code


def test_salsa_opening_bid_belongs_to_the_opener():
    state = start(HANDS, salsa=True)
    assert RULES.to_act(state) == frozenset({0})
    assert refusal(state, 2, bid(1, 3)) == "not_your_turn"
    assert refusal(state, 2, DUDO) == "not_your_turn"


def test_salsa_any_other_player_may_raise_and_play_resumes_left_of_the_last_speaker():
    state = play(start(HANDS, salsa=True), (0, bid(2, 3)))
    assert RULES.to_act(state) == frozenset({1, 2, 3})
    assert RULES.awaited(state) == frozenset({1})
    state, events = act(state, 3, bid(3, 3))
    assert events[0]["out_of_turn"] is True
    assert state["turn"] == 0
    assert RULES.to_act(state) == frozenset({0, 1, 2})
    assert RULES.awaited(state) == frozenset({0})
    state = apply(state, 2, bid(4, 3))
    assert state["turn"] == 3
    assert [entry["seat"] for entry in state["history"]] == [0, 3, 2]


def test_salsa_last_bidder_may_not_raise_doubt_or_calza_their_own_bid():
    state = play(start(HANDS, salsa=True, calza=True), (0, bid(2, 3)), (3, bid(3, 3)))
    assert refusal(state, 3, bid(4, 3)) == "own_bid"
    assert refusal(state, 3, DUDO) == "own_bid"
    assert refusal(state, 3, CALZA) == "own_bid"
    assert RULES.legal_actions(state, 3) == []


def test_salsa_out_of_turn_dudo_resolves_as_usual():
    state = play(start(HANDS, salsa=True), (0, bid(2, 3)), (2, DUDO))
    assert state["last_reveal"]["count"] == 7
    assert state["counts"] == [5, 5, 4, 5]
    assert state["turn"] == 2


def test_salsa_out_of_turn_calza_resolves_as_usual():
    state = play(start(HANDS, salsa=True, calza=True), (0, bid(7, 3)), (3, CALZA))
    assert (state["last_reveal"]["caller"], state["last_reveal"]["result"]) == (3, "exact")
    assert state["turn"] == 3


def test_salsa_stale_bid_seq_is_refused():
    state = play(start(HANDS, salsa=True), (0, bid(2, 3)))
    seen = state["bid_seq"]
    state = apply(state, 2, bid(3, 3, bid_seq=seen))
    assert state["bid_seq"] == seen + 1
    assert refusal(state, 1, {"type": "dudo", "bid_seq": seen}) == "stale_bid"
    assert refusal(state, 1, bid(4, 3, bid_seq=seen)) == "stale_bid"
    assert apply(state, 1, {"type": "dudo", "bid_seq": seen + 1})["phase"] == "roll"


def test_bid_seq_moves_on_at_every_new_round():
    state = play(start(HANDS, salsa=True), (0, bid(2, 3)), (1, DUDO))
    before = state["bid_seq"]
    state = roll(state, [[2] * 5, [3] * 4, [4] * 5, [5] * 5])
    assert state["bid_seq"] == before + 1
    assert refusal(state, 1, bid(1, 2, bid_seq=before)) == "stale_bid"


def test_salsa_out_of_turn_bids_keep_the_palifico_lock():
    state = lose_die(new_game(4, startingDice=2, salsa=True), 0)
    state = play(roll(state, [[4], [3, 1], [4, 6], [2, 2]]), (0, bid(1, 4)))
    assert state["palifico"] is True
    assert refusal(state, 2, bid(2, 5)) == "face_locked"
    assert apply(state, 2, bid(2, 4))["turn"] == 3


def test_salsa_opens_calza_to_anyone_but_the_last_bidder_only():
    with pytest.raises(InvalidOptions) as error:
        RULES.normalize_options({"salsa": True, "calza": True, "calzaCaller": "currentOnly"}, 4)
    assert error.value.code == "salsa_calza_caller"
    assert RULES.normalize_options({"salsa": True, "calzaCaller": "currentOnly"}, 4)["salsa"] is True
