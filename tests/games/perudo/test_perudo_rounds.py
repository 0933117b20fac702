"""Dudo, the next round's opener, elimination, the end and the ranking (docs/rules/perudo.md §3)."""

import pytest
from perudo_scenario import DUDO, act, apply, bid, lose_die, new_game, of_type, play, roll, start
from tapete_sdk.plugin import IllegalAction

from games.perudo.rules import RULES

HANDS = [[1, 5, 5, 2, 3], [1, 1, 4, 4, 6], [5, 6, 6, 2, 3]]  # 5s: 3, Pacos: 3


def test_dudo_against_a_true_bid_costs_the_caller_a_die_and_the_caller_opens():
    state = play(start(HANDS), (0, bid(6, 5)))
    state, events = act(state, 1, DUDO)
    reveal = state["last_reveal"]
    assert (reveal["count"], reveal["counted_faces"], reveal["result"]) == (6, [5, 1], "bid_stands")
    assert reveal["losers"] == [1]
    assert state["counts"] == [5, 4, 5]
    assert (state["phase"], state["turn"]) == ("roll", 1)
    assert of_type(events, "die_lost") == [{"type": "die_lost", "visible_to": None, "seat": 1}]


def test_dudo_against_a_false_bid_costs_the_bidder_a_die_and_the_bidder_opens():
    state = play(start(HANDS), (0, bid(7, 5)), (1, DUDO))
    assert state["last_reveal"]["result"] == "bid_false"
    assert state["counts"] == [4, 5, 5]
    assert state["turn"] == 0


def test_a_bid_on_pacos_counts_only_the_pacos():
    state = play(start(HANDS), (0, bid(3, 2)), (1, bid(2, 1)), (2, DUDO))
    reveal = state["last_reveal"]
    assert (reveal["count"], reveal["counted_faces"]) == (3, [1])
    assert state["counts"] == [5, 5, 4]


def test_the_dudo_event_reveals_every_die_of_the_round():
    state = play(start(HANDS), (0, bid(2, 3)))
    _state, events = act(state, 1, DUDO)
    (dudo,) = of_type(events, "dudo")
    assert dudo["visible_to"] is None
    assert dudo["seat"] == 1
    assert dudo["reveal"]["dice"] == HANDS
    assert dudo["reveal"]["bid"] == {"quantity": 2, "face": 3, "bidder": 0}


def test_dudo_before_any_bid_is_refused():
    with pytest.raises(IllegalAction) as error:
        RULES.apply_action(start(HANDS), 0, DUDO)
    assert error.value.code == "no_bid"


def test_only_the_player_whose_turn_it_is_may_call_dudo():
    state = play(start(HANDS), (0, bid(2, 3)))
    for seat in (0, 2):
        with pytest.raises(IllegalAction) as error:
            RULES.apply_action(state, seat, DUDO)
        assert error.value.code == "not_your_turn"


def test_bidding_out_of_turn_is_refused():
    with pytest.raises(IllegalAction) as error:
        RULES.apply_action(start(HANDS), 1, bid(1, 2))
    assert error.value.code == "not_your_turn"


def test_turn_passes_to_the_left_and_skips_eliminated_players():
    state = new_game(4, startingDice=1)
    state = lose_die(state, 1)  # seat 1 is out
    state = roll(state, [[2], [], [4], [5]])
    assert state["turn"] == 2  # the left neighbour of the eliminated loser opens
    state = play(state, (2, bid(1, 2)), (3, bid(1, 4)))
    assert state["turn"] == 0
    state = apply(state, 0, bid(1, 5))
    assert state["turn"] == 2  # seat 1 is skipped


def test_reveal_and_history_stay_until_the_next_roll():
    state = play(start(HANDS), (0, bid(2, 3)), (1, bid(3, 3)), (2, DUDO))
    assert [entry["quantity"] for entry in state["history"]] == [2, 3]
    view = RULES.view(state, 0)
    assert view["last_reveal"]["dice"] == HANDS
    assert view["bid"] is None
    assert [entry["seat"] for entry in view["history"]] == [0, 1]
    state = roll(state, [[2, 2, 2, 2, 2], [3, 3, 3, 3, 3], [4, 4, 4, 4]])
    assert state["last_reveal"] is None
    assert state["history"] == []
    assert state["round"] == 2


def test_two_player_endgame_and_ranking_by_reverse_elimination():
    state = new_game(4, startingDice=1)
    state = lose_die(state, 1)
    state = lose_die(state, 0)
    assert state["turn"] == 2  # seat 0's left neighbour still in the game
    assert RULES.outcome(state) is None
    state = roll(state, [[], [], [6], [6]])
    assert RULES.to_act(state) == frozenset({2})
    state = apply(state, 2, bid(2, 6))
    state, events = act(state, 3, DUDO)
    assert state["phase"] == "over"
    assert RULES.to_act(state) == frozenset()
    assert RULES.awaited(state) == frozenset()
    assert RULES.legal_actions(state, 2) == []
    outcome = RULES.outcome(state)
    assert outcome.ranking == [[2], [3], [0], [1]]
    assert outcome.reason == "last_player_standing"
    assert of_type(events, "eliminated") == [
        {"type": "eliminated", "visible_to": None, "seat": 3, "place": 2}
    ]
    assert of_type(events, "game_over") == [
        {"type": "game_over", "visible_to": None, "winner": 2, "ranking": [[2], [3], [0], [1]]}
    ]
    assert RULES.view(state, None)["winner"] == 2
    with pytest.raises(IllegalAction) as error:
        RULES.apply_action(state, 2, bid(1, 2))
    assert error.value.code == "game_over"


def test_the_winner_keeps_however_many_dice_they_have():
    state = new_game(2, startingDice=2)
    state = lose_die(state, 1)
    state = lose_die(state, 1)
    assert state["phase"] == "over"
    assert state["counts"] == [2, 0]
    assert RULES.outcome(state).ranking == [[0], [1]]


def test_timeout_opens_with_one_two_and_answers_a_bid_with_dudo():
    state = start(HANDS)
    assert RULES.timeout_action(state, 0) == bid(1, 2)
    state = apply(state, 0, bid(4, 4))
    assert RULES.timeout_action(state, 1) == DUDO


def test_a_new_round_starts_with_a_public_event_and_private_dice():
    state = play(start(HANDS), (0, bid(2, 3)), (1, DUDO))
    hands = [[1, 2, 3, 4, 5], [6, 6, 6, 6], [2, 2, 2, 2, 2]]
    _state, events = act(state, -1, {"type": "roll", "dice": hands})
    (started,) = of_type(events, "round_started")
    assert started["visible_to"] is None
    assert (started["round"], started["starter"], started["palifico"]) == (2, 1, False)
    assert "dice_counts" not in started
    rolled = of_type(events, "dice_rolled")
    assert [(e["visible_to"], e["dice"]) for e in rolled] == [
        ([0], hands[0]),
        ([1], hands[1]),
        ([2], hands[2]),
    ]
