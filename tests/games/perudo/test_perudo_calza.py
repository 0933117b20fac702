"""Calza, docs/rules/perudo.md §5 and §8, and the calzaSuccessEffect house rule."""

import pytest
from perudo_scenario import CALZA, act, apply, bid, lose_die, new_game, of_type, play, roll, start
from tapete_sdk.plugin import IllegalAction

from games.perudo.rules import RULES

FIVE_TWOS = [[1, 2, 3, 4, 5], [2, 2, 6, 6, 3], [4, 4, 5, 1, 6]]  # 2s and Pacos: exactly 5
FIVE_TWOS_ON_FOUR_DICE = [[1, 2, 3, 4], [2, 2, 6, 6], [4, 4, 5, 1]]


def refusal(state, seat, action):
    with pytest.raises(IllegalAction) as error:
        RULES.apply_action(state, seat, action)
    return error.value.code


def test_exact_calza_regains_a_die_and_the_caller_opens():
    state = lose_die(new_game(3, first=0, startingDice=5, calza=True), 1)
    state = roll(state, [[1, 2, 3, 4, 6], [2, 2, 6, 6], [4, 4, 5, 1, 6]])
    state = play(state, (1, bid(1, 2)), (2, bid(5, 2)))
    state, events = act(state, 1, CALZA)
    reveal = state["last_reveal"]
    assert (reveal["call"], reveal["count"], reveal["result"], reveal["gainers"]) == (
        "calza",
        5,
        "exact",
        [1],
    )
    assert state["counts"] == [5, 5, 5]
    assert state["turn"] == 1
    assert of_type(events, "die_gained") == [{"type": "die_gained", "visible_to": None, "seat": 1}]
    assert of_type(events, "calza")[0]["reveal"]["dice"] == [[1, 2, 3, 4, 6], [2, 2, 6, 6], [4, 4, 5, 1, 6]]


def test_wrong_calza_costs_the_caller_a_die_and_the_caller_opens():
    state = play(start(FIVE_TWOS_ON_FOUR_DICE, startingDice=4, calza=True), (0, bid(4, 2)), (2, CALZA))
    assert state["last_reveal"]["result"] == "not_exact"
    assert state["counts"] == [4, 4, 3]
    assert state["turn"] == 2


def test_calza_gain_is_capped_at_max_dice():
    state = play(start(FIVE_TWOS, calza=True), (0, bid(5, 2)))
    state, events = act(state, 1, CALZA)
    assert state["counts"] == [5, 5, 5]
    assert state["last_reveal"]["no_die_to_regain"] is True
    assert of_type(events, "no_die_to_regain") == [
        {"type": "no_die_to_regain", "visible_to": None, "seat": 1}
    ]
    assert state["turn"] == 1


def test_calza_never_gives_a_die_above_the_number_the_player_started_with():
    # The case once played wrong: startingDice 3, maxDice 5: a correct Calza at 3 dice gives nothing.
    three_twos = [[1, 2, 3], [2, 6, 6], [4, 4, 5]]
    state = play(start(three_twos, startingDice=3, maxDice=5, calza=True), (0, bid(3, 2)))
    state, events = act(state, 1, CALZA)
    assert state["last_reveal"]["result"] == "exact"
    assert state["counts"] == [3, 3, 3]
    assert state["last_reveal"]["no_die_to_regain"] is True
    assert of_type(events, "die_gained") == []


def test_calza_gives_back_a_lost_die_up_to_the_starting_dice():
    state = lose_die(new_game(3, startingDice=3, maxDice=5, calza=True), 1)
    state = roll(state, [[1, 2, 3], [2, 6], [4, 4, 5]])
    state = play(state, (1, bid(1, 2)), (2, bid(3, 2)), (1, CALZA))  # 2s and Pacos: exactly 3
    assert state["counts"] == [3, 3, 3]


@pytest.mark.parametrize(("max_dice", "after"), [(3, 3), (5, 4)])
def test_calza_ceiling_max_dice_below_the_starting_dice_caps_the_regain_lower(max_dice, after):
    state = lose_die(lose_die(new_game(3, startingDice=5, maxDice=max_dice, calza=True), 1), 1)
    assert state["counts"] == [5, 3, 5]
    state = roll(state, [[1, 2, 3, 4, 5], [2, 6, 6], [4, 5, 5, 6, 6]])
    state = play(state, (1, bid(3, 2)), (2, bid(3, 4)), (1, CALZA))  # 4s and Pacos: exactly 3
    assert state["last_reveal"]["result"] == "exact"
    assert state["counts"] == [5, after, 5]


def test_calza_requires_missing_die_counts_from_the_starting_dice():
    state = play(start(FIVE_TWOS_ON_FOUR_DICE, startingDice=4, maxDice=6, calza=True,
                       calzaRequiresMissingDie=True), (0, bid(5, 2)))
    assert refusal(state, 1, CALZA) == "no_missing_die"


def test_calza_requires_missing_die_refuses_a_player_with_all_dice():
    state = play(start(FIVE_TWOS, calza=True, calzaRequiresMissingDie=True), (0, bid(5, 2)))
    assert refusal(state, 1, CALZA) == "no_missing_die"
    assert CALZA not in RULES.legal_actions(state, 1)
    assert RULES.to_act(state) == frozenset({1})


def test_calza_requires_missing_die_lets_a_player_below_max_dice_call():
    state = lose_die(new_game(3, calza=True, calzaRequiresMissingDie=True), 2)
    state = roll(state, FIVE_TWOS[:2] + [[4, 4, 5, 1]])
    state = play(state, (2, bid(2, 2)), (0, bid(5, 2)))
    assert RULES.to_act(state) == frozenset({1, 2})
    assert apply(state, 2, CALZA)["last_reveal"]["result"] == "exact"


def test_calza_current_only_is_for_the_player_whose_turn_it_is():
    state = play(start(FIVE_TWOS, calza=True, calzaCaller="currentOnly"), (0, bid(2, 3)))
    assert RULES.to_act(state) == frozenset({1})
    assert refusal(state, 2, CALZA) == "not_your_turn"
    assert RULES.legal_actions(state, 1)[-1] == CALZA
    assert apply(state, 1, CALZA)["last_reveal"]["caller"] == 1


def test_calza_anyone_but_last_bidder_may_come_out_of_turn():
    state = play(start(FIVE_TWOS, calza=True), (0, bid(2, 3)))
    assert RULES.to_act(state) == frozenset({1, 2})
    assert RULES.awaited(state) == frozenset({1})
    assert RULES.legal_actions(state, 2) == [CALZA]
    assert RULES.legal_actions(state, 0) == []
    assert refusal(state, 0, CALZA) == "own_bid"
    assert apply(state, 2, CALZA)["last_reveal"]["caller"] == 2


def test_calza_anyone_but_last_bidder_and_current_excludes_the_next_player():
    state = play(start(FIVE_TWOS, calza=True, calzaCaller="anyoneButLastBidderAndCurrent"), (0, bid(2, 3)))
    assert refusal(state, 1, CALZA) == "calza_by_next_player"
    assert CALZA not in RULES.legal_actions(state, 1)
    assert RULES.to_act(state) == frozenset({1, 2})
    assert apply(state, 2, CALZA)["last_reveal"]["caller"] == 2


def test_two_player_endgame_calza_is_only_for_the_current_player_under_bga_rules():
    state = play(start([[2, 3], [4, 5]], startingDice=2, calza=True), (0, bid(1, 3)))
    assert RULES.to_act(state) == frozenset({1})
    assert RULES.legal_actions(state, 1)[-1] == CALZA
    assert refusal(state, 0, CALZA) == "own_bid"


def test_two_player_endgame_nobody_may_calza_under_italian_rules():
    state = play(
        start([[2, 3], [4, 5]], startingDice=2, calza=True, calzaCaller="anyoneButLastBidderAndCurrent"),
        (0, bid(1, 3)),
    )
    assert RULES.to_act(state) == frozenset({1})
    assert CALZA not in RULES.legal_actions(state, 1)


def test_calza_before_any_bid_is_refused():
    assert refusal(start(FIVE_TWOS, calza=True), 0, CALZA) == "no_bid"


def test_calza_is_refused_when_the_table_does_not_play_it():
    state = play(start(FIVE_TWOS), (0, bid(2, 3)))
    assert refusal(state, 1, CALZA) == "calza_disabled"
    assert CALZA not in RULES.legal_actions(state, 1)


def test_calza_in_palifico_counts_without_wild_pacos():
    state = lose_die(new_game(3, startingDice=2, calza=True), 0)
    state = roll(state, [[3], [3, 1], [4, 1]])
    assert state["palifico"] is True
    state = play(state, (0, bid(1, 3)), (1, bid(2, 3)), (0, CALZA))
    assert (state["last_reveal"]["count"], state["last_reveal"]["result"]) == (2, "exact")
    assert state["counts"] == [2, 2, 2]  # seat 0 gets back the die it lost


def test_a_caller_eliminated_by_a_wrong_calza_hands_the_opening_to_the_left():
    state = play(start([[2], [3], [4]], startingDice=1, calza=True), (0, bid(1, 5)), (1, CALZA))
    assert state["counts"] == [1, 0, 1]
    assert state["turn"] == 2


def test_calza_others_lose_one_takes_a_die_from_every_other_player():
    state = play(start(FIVE_TWOS, calza=True, calzaSuccessEffect="othersLoseOne"), (0, bid(5, 2)), (1, CALZA))
    assert state["counts"] == [4, 5, 4]
    assert state["last_reveal"]["losers"] == [2, 0]
    assert state["turn"] == 1


def test_calza_others_lose_one_palifico_goes_to_the_first_player_left_of_the_caller():
    state = lose_die(new_game(3, startingDice=2, calza=True, calzaSuccessEffect="othersLoseOne"), 0)
    state = roll(state, [[3], [3, 3], [4, 4]])
    state = play(state, (0, bid(1, 3)), (1, bid(3, 3)), (2, CALZA))
    assert state["counts"] == [0, 1, 2]
    assert state["elimination_order"] == [[0]]
    assert state["turn"] == 1  # seat 1 dropped to one die: it opens its Palifico round
    assert roll(state, [[], [5], [2, 2]])["palifico_player"] == 1


def test_players_eliminated_by_the_same_calza_share_their_rank():
    state = play(
        start([[2], [2], [2]], startingDice=1, calza=True, calzaSuccessEffect="othersLoseOne"),
        (0, bid(1, 2)),
        (1, bid(3, 2)),
    )
    state, events = act(state, 2, CALZA)
    assert RULES.outcome(state).ranking == [[2], [0, 1]]
    assert [(e["seat"], e["place"]) for e in of_type(events, "eliminated")] == [(0, 2), (1, 2)]
