"""Perudo through the plugin contract: the codes of refused actions, chance handling, what views and events show,
and random games under every variant. The promises every game keeps (plain JSON, purity, views blind to re-dealt
dice, replay...) are the shared conformance suite's: tests/sdk/test_conformance.py."""

import random

import pytest
from perudo_scenario import DUDO, act, apply, bid, new_game, play, start
from tapete_sdk.plugin import CHANCE, IllegalAction, MalformedAction, play_random, replay

from games.perudo.rules import RULES

HANDS = [[1, 2, 3, 4, 5], [2, 2, 6, 6, 3], [4, 4, 5, 1, 6]]


@pytest.mark.parametrize(
    ("action", "code"),
    [
        (["bid", 1, 2], "not_an_object"),
        ({"quantity": 1, "face": 2}, "missing_type"),
        ({"type": "raise"}, "unknown_type"),
        ({"type": "bid", "face": 2}, "missing_field"),
        ({"type": "bid", "quantity": 2}, "missing_field"),
        ({"type": "bid", "quantity": True, "face": 2}, "wrong_type"),
        ({"type": "bid", "quantity": 2, "face": True}, "wrong_type"),
        ({"type": "bid", "quantity": "2", "face": 2}, "wrong_type"),
        ({"type": "bid", "quantity": 2.0, "face": 2}, "wrong_type"),
        ({"type": "bid", "quantity": 0, "face": 2}, "out_of_range"),
        ({"type": "bid", "quantity": -1, "face": 2}, "out_of_range"),
        ({"type": "bid", "quantity": 2, "face": 0}, "out_of_range"),
        ({"type": "bid", "quantity": 2, "face": 7}, "out_of_range"),
        ({"type": "dudo", "bid_seq": False}, "wrong_type"),
        ({"type": "roll", "dice": "123"}, "wrong_type"),
        ({"type": "roll", "dice": [[1, 2], [7]]}, "out_of_range"),
        ({"type": "roll", "dice": [[1, True]]}, "out_of_range"),
        ({"type": "roll"}, "missing_field"),
    ],
)
def test_malformed_actions_are_refused_with_a_code(action, code):
    state = play(start(HANDS), (0, bid(2, 3)))
    with pytest.raises(MalformedAction) as error:
        RULES.apply_action(state, 1, action)
    assert error.value.code == code


def test_a_chance_action_from_a_player_is_refused():
    state = new_game(3)
    with pytest.raises(IllegalAction) as error:
        RULES.apply_action(state, 0, {"type": "roll", "dice": HANDS})
    assert error.value.code == "chance_action_from_player"


def test_a_player_action_from_chance_is_refused():
    with pytest.raises(IllegalAction) as error:
        RULES.apply_action(start(HANDS), CHANCE, bid(1, 2))
    assert error.value.code == "not_a_chance_action"


def test_players_wait_while_the_dice_are_rolled():
    with pytest.raises(IllegalAction) as error:
        RULES.apply_action(new_game(3), 0, bid(1, 2))
    assert error.value.code == "chance_pending"


def test_a_roll_while_players_bid_is_refused():
    with pytest.raises(IllegalAction) as error:
        RULES.apply_action(start(HANDS), CHANCE, {"type": "roll", "dice": HANDS})
    assert error.value.code == "no_chance_pending"


def test_a_roll_must_match_every_seats_dice_count():
    with pytest.raises(IllegalAction) as error:
        RULES.apply_action(new_game(3), CHANCE, {"type": "roll", "dice": [[1, 2, 3, 4, 5], [2], [3]]})
    assert error.value.code == "wrong_dice_count"


def test_an_eliminated_player_cannot_act():
    state = play(start([[2], [3], [4]], startingDice=1), (0, bid(1, 5)), (1, DUDO))
    state = apply(state, CHANCE, {"type": "roll", "dice": [[], [3], [4]]})
    with pytest.raises(IllegalAction) as error:
        RULES.apply_action(state, 0, bid(1, 2))
    assert error.value.code == "eliminated"
    assert RULES.legal_actions(state, 0) == []


def test_the_view_shows_own_dice_only():
    state = start(HANDS)
    assert RULES.view(state, 1)["my_dice"] == HANDS[1]
    spectator = RULES.view(state, None)
    assert (spectator["seat"], spectator["my_dice"], spectator["my_dice_count"]) == (None, None, None)


def test_dice_counts_are_shown_only_when_lost_dice_are_visible():
    hidden = play(start(HANDS), (0, bid(2, 3)), (1, DUDO))
    view = RULES.view(hidden, 0)
    assert (view["dice_counts"], view["dice_in_play"], view["my_dice_count"]) == (None, None, 5)
    _state, events = act(play(start(HANDS), (0, bid(2, 3))), 1, DUDO)
    assert all("dice_left" not in event for event in events)

    shown = play(start(HANDS, lostDiceVisible=True), (0, bid(2, 3)), (1, DUDO))
    view = RULES.view(shown, 0)
    assert (view["dice_counts"], view["dice_in_play"]) == ([5, 4, 5], 14)
    _state, events = act(play(start(HANDS, lostDiceVisible=True), (0, bid(2, 3))), 1, DUDO)
    assert [event.get("dice_left") for event in events if event["type"] == "die_lost"] == [4]


def test_the_view_carries_round_information():
    state = play(start(HANDS), (0, bid(2, 3)))
    view = RULES.view(state, 2)
    assert view["seat"] == 2
    assert (view["round"], view["starter"], view["turn"], view["phase"]) == (1, 0, 1, "bidding")
    assert view["bid"] == {"quantity": 2, "face": 3, "bidder": 0}
    assert view["history"] == [{"seat": 0, "quantity": 2, "face": 3}]
    assert (view["to_act"], view["awaited"]) == ([1], [1])
    assert (view["in_game"], view["elimination_order"]) == ([0, 1, 2], [])
    assert view["bid_seq"] == state["bid_seq"]


RANDOM_SETUPS = [
    ({}, 6),
    ({}, 2),
    ({"calza": True}, 4),
    ({"calza": True, "calzaCaller": "currentOnly", "calzaRequiresMissingDie": True}, 3),
    ({"calza": True, "calzaCaller": "anyoneButLastBidderAndCurrent", "maxDice": 6}, 5),
    ({"calza": True, "calzaSuccessEffect": "othersLoseOne", "startingDice": 2}, 6),
    ({"salsa": True, "calza": True, "lostDiceVisible": True}, 4),
    ({"palificoMode": "declared", "palificoOneDieMayChangeFace": True}, 3),
    ({"palificoPacoBids": "forbidden", "allowPacoOpening": True, "raiseMode": "anyFaceOnHigherQty"}, 5),
    ({"capBidAtDiceInPlay": False, "startingDice": 3, "firstPlayer": "rollOne"}, 4),
    ({"firstPlayer": "rollTwoSum", "palificoOncePerPlayer": False, "calza": True}, 3),
]


def test_every_game_ends_with_one_player_holding_dice_who_wins_alone():
    """§3: the last player with dice wins, alone, even when a Calza with ``othersLoseOne`` puts several out at
    once."""
    rng = random.Random(7)
    for index in range(300):
        options, players = RANDOM_SETUPS[index % len(RANDOM_SETUPS)]
        playout = play_random(RULES, options, players, rng)
        state = replay(RULES, playout.options, players, playout.log)
        holding_dice = [seat for seat, count in enumerate(state["counts"]) if count]
        assert len(holding_dice) == 1 and RULES.outcome(state).ranking[0] == holding_dice


def test_rolled_dice_reach_only_their_owner_until_a_reveal_shows_them():
    """§1: everyone rolls in secret and sees only their own dice; only a Dudo, a Calza or a roll-off for the first
    player shows dice to everyone."""
    rng = random.Random(11)
    for options, players in RANDOM_SETUPS:
        normalized = RULES.normalize_options(options, players)
        state = RULES.initial_state(normalized, players)
        while RULES.to_act(state):
            acting = RULES.to_act(state)
            if CHANCE in acting:
                seat, action = CHANCE, RULES.sample_chance(state, rng)
            else:
                seat = rng.choice(sorted(acting))
                action = rng.choice(RULES.legal_actions(state, seat))
            state, events = act(state, seat, action)
            for event in events:
                if "dice" in event and event["type"] not in ("dudo", "calza", "roll_off"):
                    assert event["visible_to"] == [event["seat"]]
