"""Palifico rounds, docs/rules/perudo.md §4 and §8."""

import pytest
from perudo_scenario import (
    CALZA,
    DECLARE,
    DUDO,
    act,
    apply,
    bid,
    legal_bids,
    lose_die,
    new_game,
    of_type,
    play,
    roll,
)
from tapete_sdk.plugin import IllegalAction

from games.perudo.rules import RULES


def refusal(state, seat, action):
    with pytest.raises(IllegalAction) as error:
        RULES.apply_action(state, seat, action)
    return error.value.code


def palifico_game(**options):
    """Three players on two dice; seat 0 has just dropped to one die: the next roll starts its Palifico round."""
    return lose_die(new_game(3, startingDice=2, **options), 0)


def test_dropping_to_one_die_makes_the_next_round_palifico_opened_by_that_player():
    state = palifico_game()
    assert state["counts"] == [1, 2, 2]
    assert state["turn"] == 0
    state, events = act(state, -1, {"type": "roll", "dice": [[4], [3, 1], [4, 6]]})
    assert (state["palifico"], state["palifico_player"], state["starter"]) == (True, 0, 0)
    assert state["palifico_used"] == [True, False, False]
    assert of_type(events, "palifico") == [
        {"type": "palifico", "visible_to": None, "seat": 0, "round": 2, "declared": False}
    ]
    assert of_type(events, "round_started")[0]["palifico"] is True
    view = RULES.view(state, 1)
    assert (view["palifico"], view["palifico_player"], view["locked_face"]) == (True, 0, None)


def test_palifico_locks_the_face_of_the_opening_bid():
    state = play(roll(palifico_game(), [[4], [3, 1], [4, 6]]), (0, bid(2, 4)))
    assert RULES.view(state, 2)["locked_face"] == 4
    assert refusal(state, 1, bid(3, 5)) == "face_locked"
    assert refusal(state, 1, bid(1, 1)) == "face_locked"
    assert refusal(state, 1, bid(2, 4)) == "bid_too_low"
    assert legal_bids(state, 1) == [(3, 4), (4, 4), (5, 4), (6, 4)]  # lost dice hidden: capped at the 6 dealt


def test_palifico_pacos_are_not_wild_in_the_count():
    state = play(roll(palifico_game(), [[4], [3, 1], [4, 6]]), (0, bid(2, 4)), (1, bid(3, 4)), (2, DUDO))
    reveal = state["last_reveal"]
    assert (reveal["count"], reveal["counted_faces"], reveal["palifico"]) == (2, [4], True)
    assert reveal["result"] == "bid_false"
    assert state["counts"] == [1, 1, 2]


def test_palifico_opening_may_be_on_pacos():
    state = roll(palifico_game(), [[1], [3, 1], [4, 6]])
    assert (1, 1) in legal_bids(state, 0)
    state = play(state, (0, bid(1, 1)), (1, bid(2, 1)), (2, DUDO))
    assert state["last_reveal"]["count"] == 2
    assert state["counts"] == [1, 2, 1]


def test_palifico_opening_on_pacos_can_be_refused_by_option():
    state = roll(palifico_game(allowPacoOpeningInPalifico=False), [[1], [3, 1], [4, 6]])
    assert refusal(state, 0, bid(1, 1)) == "paco_opening_forbidden"
    assert all(face != 1 for _q, face in legal_bids(state, 0))


def test_palifico_paco_bids_forbidden_closes_pacos_for_the_whole_round():
    state = roll(palifico_game(palificoPacoBids="forbidden"), [[1], [3, 1], [4, 6]])
    assert refusal(state, 0, bid(1, 1)) == "paco_bid_forbidden"
    assert all(face != 1 for _q, face in legal_bids(state, 0))


def test_palifico_lasts_one_round_even_if_the_player_keeps_one_die():
    state = new_game(3, startingDice=3)
    state = lose_die(lose_die(state, 0), 0)  # seat 0 drops to one die: round 3 is its Palifico round
    state = lose_die(state, 1)  # in round 3, seat 1 goes from 3 to 2 dice
    assert state["counts"] == [1, 2, 3]
    state = roll(state, [[1], [5, 1], [5, 2, 3]])
    assert (state["palifico"], state["palifico_player"]) == (False, None)
    state = play(state, (1, bid(3, 5)), (2, bid(2, 1)), (0, bid(5, 2)))  # conversions work again
    state = apply(state, 1, DUDO)
    assert state["last_reveal"]["counted_faces"] == [2, 1]
    assert state["last_reveal"]["count"] == 3


def test_a_player_regaining_a_die_is_not_palifico_a_second_time():
    state = palifico_game(calza=True)
    state = roll(state, [[3], [3, 3], [4, 4]])
    state = play(state, (0, bid(1, 3)), (1, bid(3, 3)), (0, CALZA))  # exact: 3 threes, Pacos not wild
    assert state["counts"] == [2, 2, 2]
    state = lose_die(state, 0)
    assert state["counts"] == [1, 2, 2]
    state = roll(state, [[2], [3, 3], [4, 4]])
    assert state["palifico"] is False


def test_without_once_per_player_dropping_to_one_die_again_rearms_palifico():
    state = palifico_game(calza=True, palificoOncePerPlayer=False)
    state = roll(state, [[3], [3, 3], [4, 4]])
    state = play(state, (0, bid(1, 3)), (1, bid(3, 3)), (0, CALZA))
    state = lose_die(state, 0)
    state = roll(state, [[2], [3, 3], [4, 4]])
    assert (state["palifico"], state["palifico_player"]) == (True, 0)


def test_palifico_player_eliminated_in_their_own_round_hands_the_opening_to_the_left():
    state = lose_die(palifico_game(), 0)
    assert state["counts"] == [0, 2, 2]
    assert state["elimination_order"] == [[0]]
    assert state["turn"] == 1
    state = roll(state, [[], [2, 3], [4, 5]])
    assert state["palifico"] is False


def two_one_die_players(**options):
    """Seat 0 on one die (its Palifico is over), seat 1 just dropped to one: round 5 is seat 1's Palifico."""
    state = new_game(3, startingDice=3, **options)
    for loser in (0, 0, 1, 1):
        state = lose_die(state, loser)
    assert state["counts"] == [1, 1, 3]
    state = roll(state, [[2], [5], [3, 4, 6]])
    assert (state["palifico_player"], state["turn"]) == (1, 1)
    return apply(state, 1, bid(1, 4))


def test_one_die_players_may_not_change_the_face_by_default():
    state = apply(two_one_die_players(), 2, bid(2, 4))
    assert refusal(state, 0, bid(2, 5)) == "face_locked"


def test_one_die_players_may_change_the_face_with_the_italian_option():
    state = two_one_die_players(palificoOneDieMayChangeFace=True)
    assert refusal(state, 2, bid(2, 5)) == "face_locked"  # three dice: the face stays locked
    state = apply(state, 2, bid(2, 4))
    assert refusal(state, 0, bid(2, 3)) == "bid_too_low"  # a lower face needs more dice
    assert (3, 2) in legal_bids(state, 0)
    state = apply(state, 0, bid(2, 5))  # same quantity, higher face
    assert RULES.view(state, 2)["locked_face"] == 5
    state = apply(state, 1, bid(3, 5))  # the Palifico player keeps the face (see the test below)
    assert refusal(state, 2, bid(4, 6)) == "face_locked"
    state = apply(state, 2, bid(4, 5))
    state = apply(state, 0, bid(5, 1))  # Pacos rank lowest: a face change to them needs more dice
    assert state["bid"] == {"quantity": 5, "face": 1, "bidder": 0}


def test_palifico_one_die_may_change_face_is_for_the_other_one_die_players_not_the_palifico_player():
    # The case once played wrong: counts [4, 1, 1], seat 2's Palifico round, bids 1×3, 2×3, 3×3 round the table.
    state = new_game(3, first=1, startingDice=4, palificoOneDieMayChangeFace=True)
    for loser in (1, 1, 1, 2, 2, 2):
        state = lose_die(state, loser)
    assert state["counts"] == [4, 1, 1]
    state = roll(state, [[2, 3, 4, 5], [6], [3]])
    assert (state["palifico"], state["palifico_player"], state["turn"]) == (True, 2, 2)
    state = play(state, (2, bid(1, 3)), (0, bid(2, 3)), (1, bid(3, 3)))
    # The Palifico player, on one die, may only bid more 3s ...
    assert {face for _quantity, face in legal_bids(state, 2)} == {3}
    assert refusal(state, 2, bid(3, 4)) == "face_locked"
    state = play(state, (2, bid(4, 3)), (0, bid(5, 3)))
    # ... while the other one-die player may change the face.
    assert (5, 4) in legal_bids(state, 1)
    assert apply(state, 1, bid(5, 4))["bid"]["face"] == 4


def test_one_die_face_change_cannot_reach_pacos_when_paco_bids_are_forbidden():
    state = two_one_die_players(palificoOneDieMayChangeFace=True, palificoPacoBids="forbidden")
    state = apply(state, 2, bid(2, 4))
    assert refusal(state, 0, bid(3, 1)) == "paco_bid_forbidden"
    assert all(face != 1 for _q, face in legal_bids(state, 0))


def test_declared_palifico_is_offered_only_to_the_player_who_dropped_to_one():
    state = roll(palifico_game(palificoMode="declared"), [[1], [3, 1], [4, 6]])
    assert state["palifico"] is False
    assert RULES.view(state, 0)["may_declare_palifico"] is True
    assert RULES.view(state, 1)["may_declare_palifico"] is False
    assert RULES.view(state, None)["may_declare_palifico"] is False
    assert RULES.legal_actions(state, 0)[-1] == DECLARE
    assert RULES.awaited(state) == frozenset({0})
    assert RULES.timeout_action(state, 0) == bid(1, 2)
    assert refusal(state, 1, DECLARE) == "not_your_turn"


def test_declaring_palifico_makes_the_round_palifico():
    state = roll(palifico_game(palificoMode="declared"), [[1], [3, 1], [4, 6]])
    state, events = act(state, 0, DECLARE)
    assert (state["palifico"], state["palifico_player"], state["palifico_used"][0]) == (True, 0, True)
    assert of_type(events, "palifico") == [
        {"type": "palifico", "visible_to": None, "seat": 0, "round": 2, "declared": True}
    ]
    assert refusal(state, 0, DECLARE) == "palifico_not_available"
    state = play(state, (0, bid(1, 1)), (1, bid(2, 1)))  # Palifico: Pacos may open
    assert refusal(state, 2, bid(5, 2)) == "face_locked"


def test_bidding_without_declaring_plays_a_normal_round():
    state = roll(palifico_game(palificoMode="declared"), [[1], [3, 1], [4, 6]])
    assert refusal(state, 0, bid(1, 1)) == "paco_opening_forbidden"
    state = apply(state, 0, bid(1, 3))
    assert refusal(state, 1, DECLARE) == "palifico_not_available"
    assert DECLARE not in RULES.legal_actions(state, 1)
    state = play(state, (1, bid(3, 3)), (2, DUDO))
    assert state["last_reveal"]["counted_faces"] == [3, 1]
    assert state["palifico_used"] == [False, False, False]


def test_declaring_palifico_is_refused_in_automatic_mode():
    state = roll(palifico_game(), [[1], [3, 1], [4, 6]])
    assert refusal(state, 0, DECLARE) == "palifico_not_available"
