"""Bid legality, docs/rules/perudo.md §2: conversions, raise modes, Paco openings, the quantity cap."""

import pytest
from perudo_scenario import DUDO, bid, legal_bids, lose_die, new_game, play, roll, start
from tapete_sdk.plugin import IllegalAction

from games.perudo.rules import RULES

FIVE_DICE_EACH = [[2, 3, 4, 5, 6]] * 6  # 30 dice in play: no cap gets in the way

# §2 reference values: q -> minimum Pacos, and Pacos q -> minimum face bid.
REFERENCE = [(1, 1, 3), (2, 1, 5), (3, 2, 7), (4, 2, 9), (5, 3, 11), (6, 3, 13), (7, 4, 15)]


def refusal(state, seat, action):
    with pytest.raises(IllegalAction) as error:
        RULES.apply_action(state, seat, action)
    return error.value.code


@pytest.mark.parametrize(("quantity", "pacos", "_faces"), REFERENCE)
def test_face_to_pacos_needs_half_the_quantity_rounded_up(quantity, pacos, _faces):
    state = play(start(FIVE_DICE_EACH), (0, bid(quantity, 5)))
    assert min(q for q, face in legal_bids(state, 1) if face == 1) == pacos
    assert play(state, (1, bid(pacos, 1)))["bid"] == {"quantity": pacos, "face": 1, "bidder": 1}
    if pacos > 1:
        assert refusal(state, 1, bid(pacos - 1, 1)) == "bid_too_low"


@pytest.mark.parametrize(("pacos", "_half", "faces"), REFERENCE)
def test_pacos_to_face_needs_twice_plus_one_on_any_face(pacos, _half, faces):
    state = play(start(FIVE_DICE_EACH), (0, bid(2 * pacos, 6)), (1, bid(pacos, 1)))
    for face in (2, 3, 4, 5, 6):
        assert min(q for q, f in legal_bids(state, 2) if f == face) == faces
        assert refusal(state, 2, bid(faces - 1, face)) == "bid_too_low"
    assert play(state, (2, bid(faces, 2)))["bid"]["quantity"] == faces


def test_pacos_to_pacos_needs_more_pacos():
    state = play(start(FIVE_DICE_EACH), (0, bid(4, 3)), (1, bid(2, 1)))
    assert refusal(state, 2, bid(2, 1)) == "bid_too_low"
    assert play(state, (2, bid(3, 1)))["bid"]["face"] == 1


def test_dropping_to_pacos_and_back_is_legal():
    state = play(start(FIVE_DICE_EACH), (0, bid(6, 6)), (1, bid(3, 1)), (2, bid(7, 2)))
    assert state["bid"] == {"quantity": 7, "face": 2, "bidder": 2}


def test_opening_on_pacos_is_refused_in_a_normal_round():
    state = start(FIVE_DICE_EACH)
    assert refusal(state, 0, bid(1, 1)) == "paco_opening_forbidden"
    assert all(face != 1 for _q, face in legal_bids(state, 0))


def test_allow_paco_opening_lets_a_normal_round_open_on_pacos():
    state = start(FIVE_DICE_EACH, allowPacoOpening=True)
    assert (1, 1) in legal_bids(state, 0)
    assert play(state, (0, bid(2, 1)))["bid"]["face"] == 1


def test_strict_raise_same_face_needs_more_dice_and_higher_face_as_many():
    state = play(start(FIVE_DICE_EACH), (0, bid(3, 4)))
    assert refusal(state, 1, bid(3, 4)) == "bid_too_low"
    assert refusal(state, 1, bid(2, 5)) == "bid_too_low"
    assert play(state, (1, bid(4, 4)))["bid"]["quantity"] == 4
    assert play(state, (1, bid(3, 5)))["bid"]["face"] == 5


def test_strict_raise_never_goes_to_a_lower_face():
    state = play(start(FIVE_DICE_EACH), (0, bid(3, 4)))
    assert refusal(state, 1, bid(9, 3)) == "lower_face_forbidden"
    assert not any(face in (2, 3) for _q, face in legal_bids(state, 1))


def test_any_face_on_higher_quantity_allows_a_lower_face_with_more_dice():
    state = play(start(FIVE_DICE_EACH, raiseMode="anyFaceOnHigherQty"), (0, bid(3, 4)))
    assert refusal(state, 1, bid(3, 2)) == "bid_too_low"
    assert play(state, (1, bid(4, 2)))["bid"] == {"quantity": 4, "face": 2, "bidder": 1}
    assert min(q for q, face in legal_bids(state, 1) if face == 3) == 4


def test_bid_above_the_dice_in_play_is_refused():
    state = start([[2, 3], [4, 5]], startingDice=2)
    assert refusal(state, 0, bid(5, 3)) == "bid_above_dice_in_play"
    assert max(q for q, _face in legal_bids(state, 0)) == 4


def test_when_no_raise_fits_under_the_cap_only_dudo_remains():
    # "8 Pacos" with 8 dice in play: 9 Pacos and 17 of a face both exceed 8.
    state = play(start([[2, 2, 3, 3], [4, 4, 5, 5]], startingDice=4), (0, bid(8, 6)), (1, bid(8, 1)))
    assert RULES.legal_actions(state, 0) == [DUDO]
    assert refusal(state, 0, bid(9, 1)) == "bid_above_dice_in_play"
    assert refusal(state, 0, bid(17, 2)) == "bid_above_dice_in_play"


def test_without_the_cap_bids_may_exceed_the_dice_in_play_up_to_twice_plus_one():
    state = start([[2, 3], [4, 5]], startingDice=2, capBidAtDiceInPlay=False)
    assert play(state, (0, bid(9, 2)))["bid"]["quantity"] == 9
    assert refusal(state, 0, bid(10, 2)) == "bid_above_dice_in_play"
    assert len(legal_bids(state, 0)) == 5 * 9


def after_losses(losers, **options):
    """Two players on three dice; the seats in ``losers`` lost a die each, seat 0 opens the next round."""
    state = new_game(2, startingDice=3, **options)
    for loser in losers:
        state = lose_die(state, loser)
    state = roll(state, [[2] * count for count in state["counts"]])
    if state["turn"] != 0:
        state = play(state, (state["turn"], bid(1, 2)))
    return state


def test_lost_dice_hidden_the_bid_cap_is_the_starting_dice_and_does_not_tell_the_dice_in_play():
    four_in_play, five_in_play = after_losses([0, 1]), after_losses([1])
    assert sum(four_in_play["counts"]) == 4 and sum(five_in_play["counts"]) == 5
    # Nothing seat 0 is offered or refused differs with the dice in play: the cap is the 6 dice dealt.
    assert RULES.legal_actions(four_in_play, 0) == RULES.legal_actions(five_in_play, 0)
    assert max(q for q, _face in legal_bids(four_in_play, 0)) == 6
    assert play(four_in_play, (0, bid(6, 6)))["bid"]["quantity"] == 6
    assert refusal(four_in_play, 0, bid(7, 6)) == refusal(five_in_play, 0, bid(7, 6)) == "bid_above_dice_in_play"
    for state in (four_in_play, five_in_play):
        view = RULES.view(state, 0)
        assert (view["dice_counts"], view["dice_in_play"]) == (None, None)


def test_lost_dice_hidden_without_the_cap_bids_go_up_to_twice_the_starting_dice_plus_one():
    state = after_losses([1, 0], capBidAtDiceInPlay=False)
    assert max(q for q, _face in legal_bids(state, 0)) == 13
    assert refusal(state, 0, bid(14, 6)) == "bid_above_dice_in_play"


def test_lost_dice_visible_the_bid_cap_follows_the_dice_in_play():
    state = after_losses([1, 0], lostDiceVisible=True)
    assert RULES.view(state, 0)["dice_in_play"] == 4
    assert max(q for q, _face in legal_bids(state, 0)) == 4
    assert refusal(state, 0, bid(5, 6)) == "bid_above_dice_in_play"
    uncapped = after_losses([1, 0], lostDiceVisible=True, capBidAtDiceInPlay=False)
    assert max(q for q, _face in legal_bids(uncapped, 0)) == 9


def test_opening_legal_actions_list_every_bid_face_by_face():
    state = start([[2, 3], [4, 5]], startingDice=2)
    actions = RULES.legal_actions(state, 0)
    assert actions == [
        {"type": "bid", "quantity": q, "face": f} for f in (2, 3, 4, 5, 6) for q in (1, 2, 3, 4)
    ]


def test_legal_actions_end_with_dudo_then_calza():
    state = play(start([[2, 3], [4, 5], [6, 6]], startingDice=2, calza=True), (0, bid(2, 3)))
    actions = RULES.legal_actions(state, 1)
    assert actions[-2:] == [{"type": "dudo"}, {"type": "calza"}]
    assert actions[0] == {"type": "bid", "quantity": 1, "face": 1}


@pytest.mark.parametrize(
    "options",
    [
        {},
        {"raiseMode": "anyFaceOnHigherQty"},
        {"allowPacoOpening": True},
        {"capBidAtDiceInPlay": False},
    ],
)
def test_legal_actions_are_exactly_the_bids_apply_action_accepts(options):
    state = start([[1, 2, 3], [4, 5, 6], [2, 2, 1]], startingDice=3, **options)
    script = [(0, bid(2, 4)), (1, bid(2, 1)), (2, bid(5, 3))]
    for seat, action in [(0, None), *script]:
        if action is not None:
            state = play(state, (seat, action))
        turn = state["turn"]
        legal = set(legal_bids(state, turn))
        for quantity in range(1, 22):
            for face in range(1, 7):
                try:
                    RULES.apply_action(state, turn, bid(quantity, face))
                    accepted = True
                except IllegalAction:
                    accepted = False
                assert accepted == ((quantity, face) in legal), (quantity, face)
