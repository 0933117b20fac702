"""Spicy through the plugin contract: what views and events show, what determinize re-deals, timeouts, grace
periods, and random games under every variant. The promises every game keeps (plain JSON, purity, views blind to
re-dealt cards, replay...) are the shared conformance suite's: tests/sdk/test_conformance.py."""

from __future__ import annotations

import json
import random

import pytest
from spicy_scenarios import all_cards, assert_all_cards_accounted_for, challenge, play, start, step
from tapete_sdk.plugin import CHANCE, IllegalAction

from games.spicy.rules import RULES

HANDS = [
    ["chili-1", "chili-7", "wild-number", "wild-spice", "pepper-2", "wasabi-5"],
    ["wasabi-2", "pepper-10", "chili-3", "chili-4", "chili-10", "wasabi-7"],
    ["pepper-1", "pepper-5", "wasabi-1", "chili-2", "chili-8", "wasabi-3"],
]
PRIVATE_EVENTS = {"deal", "drew", "played_card"}
OPTION_SETS = [
    {},
    {"spiceItUp": ["copy_cat", "spice_raider"]},
    {"spiceItUp": ["change_your_luck", "turn_it_up"], "penaltyDraw": 3},
    {"spiceItUp": ["we_love_chili", "start_it_up"], "wildFour": True, "chiliReverses": True},
    {"spiceItUp": ["random2"], "lastCardDeclineRequired": False, "challengeLoserMustLead": False},
    {"worldsEnd": False, "handSize": 4, "trophyRefill": 3},
    {"spiceItUp": ["random1"], "worldsEndBelow": 0, "worldsEndJitter": 0},
]


# -- random games -------------------------------------------------------------------------------------------------


def _playout(options, num_players, rng, count_the_cards=False):
    """A random game: its final state and every event."""
    state = RULES.initial_state(RULES.normalize_options(options, num_players), num_players)
    seen_events = []
    while RULES.to_act(state):
        acting = RULES.to_act(state)
        if CHANCE in acting:
            seat, action = CHANCE, RULES.sample_chance(state, rng)
        else:
            seat = rng.choice(sorted(acting))
            action = rng.choice(RULES.legal_actions(state, seat))
        state, events = RULES.apply_action(state, seat, action)
        if count_the_cards:
            assert_all_cards_accounted_for(state)
        seen_events += events
    return state, seen_events


def test_random_games_end_by_worlds_end_an_empty_draw_pile_and_a_second_trophy():
    """§6: each way a game ends comes up in random games under the variants (within 300 of them)."""
    rng = random.Random(2024)
    reasons = set()
    for index in range(300):
        state, _events = _playout(OPTION_SETS[index % len(OPTION_SETS)], 2 + index % 5, rng)
        reasons.add(RULES.outcome(state).reason)
        if reasons >= {"worlds_end", "deck_empty", "second_trophy"}:
            return
    pytest.fail(f"300 random games ended only by {sorted(reasons)}")


def test_every_step_of_a_random_game_keeps_all_100_cards():
    """§1: the 100 cards are in hands, the draw pile, the stack or won piles at every step, whatever the variant."""
    rng = random.Random(7)
    for index, options in enumerate(OPTION_SETS):
        _playout(options, 2 + index % 5, rng, count_the_cards=True)


# -- hidden information -------------------------------------------------------------------------------------------


def test_private_events_go_only_to_their_seat_and_public_events_carry_no_hidden_card():
    rng = random.Random(5)
    for options in OPTION_SETS:
        _state, events = _playout(options, 4, rng)
        for event in events:
            if event["type"] in PRIVATE_EVENTS:
                assert event["visible_to"] == [event["seat"]]
            else:
                assert event["visible_to"] is None
                assert set(event) & {"cards", "card", "tucked_cards"} <= (
                    {"card"} if event["type"] == "challenge" else set()
                )


def test_a_view_shows_the_own_hand_and_only_counts_of_the_others():
    state = play(start(HANDS), 0, "chili-7", "chili", 1)
    view = RULES.view(state, 1)
    assert view["seat"] == 1
    assert view["hand"] == HANDS[1]
    assert view["hand_sizes"] == [5, 6, 6]
    assert view["stack"] == [{"owner": 0, "spice": "chili", "number": 1, "copy": False, "tucked": 0}]
    assert view["top"] == {"owner": 0, "spice": "chili", "number": 1, "copy": False}
    assert RULES.view(state, 0)["stack"][0]["card"] == "chili-7"  # your own face-down card
    spectator = RULES.view(state, None)
    assert spectator["seat"] is None and spectator["hand"] is None
    assert "chili-7" not in json.dumps(spectator)


def test_a_view_has_everything_to_render_the_table():
    state = challenge(play(start(HANDS), 0, "chili-7", "chili", 1), 2, "number")
    view = RULES.view(state, 2)
    assert view["to_act"] == [0] and view["awaited"] == [0]
    assert view["current"] == 0 and view["must_lead"] is True
    assert view["phase"] == "turn"
    assert view["hand_sizes"] == [7, 6, 6]
    assert view["won_counts"] == [0, 0, 1]
    assert view["trophies"] == [0, 0, 0] and view["trophies_left"] == 3
    assert view["scores"] == [-7, -6, 1 - 6]
    assert view["stack_size"] == 0 and view["top"] is None and view["top_challengeable"] is False
    assert view["last_action"] == {"type": "challenge", "seat": 2, "trait": "number"}
    assert view["last_challenge"]["card"] == "chili-7"
    assert view["draw_pile"] == {"size": 82 - 2, "worlds_end": {"approx_cards_above": 50, "uncertainty": 2}}
    assert view["spice_it_up"] == [] and view["options"]["handSize"] == 6
    assert view["result"] is None and view["last_card"] is None


def test_won_piles_are_counts_only_even_for_their_owner():
    state = challenge(play(start(HANDS), 0, "chili-7", "chili", 1), 2, "number")
    assert "won" not in RULES.view(state, 2)
    assert RULES.view(state, 2)["won_counts"] == [0, 0, 1]


def test_the_view_never_reveals_the_exact_position_of_worlds_end():
    views = []
    for offset in (-2, 0, 2):
        state = start(HANDS, offset=offset)
        views.append([RULES.view(state, seat) for seat in (0, 1, 2, None)])
        assert state["worlds_end_below"] == 30 + offset
    assert views[0] == views[1] == views[2]


def test_determinize_redeals_only_what_the_seat_cannot_see():
    state = play(start(HANDS), 0, "chili-7", "chili", 1)
    state = play(state, 1, "chili-3", "chili", 3)
    rng = random.Random(1)
    for seat in (0, 1, 2, None):
        other = RULES.determinize(state, seat, rng)
        assert sorted(all_cards(other)) == sorted(all_cards(state))
        assert [len(hand) for hand in other["hands"]] == [len(hand) for hand in state["hands"]]
        assert 28 <= other["worlds_end_below"] <= 32
        if seat is not None:
            assert other["hands"][seat] == state["hands"][seat]
        step(other, 2, {"type": "challenge", "trait": "spice"})  # play goes on from the re-dealt state


def test_determinize_before_the_deal_changes_nothing():
    state = RULES.initial_state(RULES.normalize_options({}, 3), 3)
    assert RULES.determinize(state, 0, random.Random(0)) == state


# -- timeouts and the grace period --------------------------------------------------------------------------------


def test_timeout_passes_for_the_current_player():
    state = start(HANDS)
    assert RULES.timeout_action(state, 0) == {"type": "pass"}


def test_timeout_for_a_player_who_must_lead_plays_the_lowest_honest_card():
    state = play(start(HANDS, ["pepper-7", "pepper-8"], first=1), 1, "pepper-10", "chili", 2)
    state = challenge(state, 2, "number")  # seat 1 lost and must lead
    action = RULES.timeout_action(state, 1)
    assert action == {"type": "play", "card": "wasabi-2", "declare": {"spice": "wasabi", "number": 2}}
    assert action in RULES.legal_actions(state, 1)


@pytest.mark.parametrize(
    ("hand", "expected"),
    [
        (
            ["chili-9", "wild-spice"],
            {"type": "play", "card": "wild-spice", "declare": {"spice": "chili", "number": 1}},
        ),
        (
            ["pepper-9", "chili-5"],
            {"type": "play", "card": "chili-5", "declare": {"spice": "chili", "number": 1}},
        ),
    ],
)
def test_timeout_for_a_leader_without_an_honest_card_plays_a_wild_or_any_card(hand, expected):
    state = start([["wasabi-9", "wasabi-8"], hand], ["pepper-7", "wasabi-6"])
    state = challenge(play(state, 0, "wasabi-9", "wasabi", 3), 1, "spice")  # seat 1 loses and must lead
    assert state["current"] == 1 and state["must_lead"] is True
    assert RULES.timeout_action(state, 1) == expected
    assert expected in RULES.legal_actions(state, 1)


def test_timeout_declines_a_last_card():
    state = play(start([["chili-1"], ["wasabi-3"], ["pepper-2"]]), 0, "chili-1", "chili", 1)
    assert RULES.timeout_action(state, 2) == {"type": "decline"}


def test_timeout_is_only_for_awaited_seats():
    state = play(start(HANDS), 0, "chili-7", "chili", 1)
    with pytest.raises(IllegalAction):
        RULES.timeout_action(state, 2)  # may challenge, but nobody waits for it


def test_the_next_players_play_waits_for_the_grace_period_after_a_card_lands():
    state = play(start(HANDS), 0, "chili-7", "chili", 1)
    next_play = {"type": "play", "card": "chili-3", "declare": {"spice": "chili", "number": 3}}
    assert RULES.action_delay_ms(state, 1, next_play) == 3000
    assert RULES.action_delay_ms(state, 1, {"type": "pass"}) == 0  # a pass leaves the challenge window open
    assert RULES.action_delay_ms(state, 1, {"type": "challenge", "trait": "spice"}) == 0
    assert RULES.action_delay_ms(state, 2, {"type": "challenge", "trait": "spice"}) == 0
    passed = step(state, 1, {"type": "pass"})
    assert RULES.action_delay_ms(passed, 2, next_play) == 0
    lost = challenge(state, 1, "number")
    assert (
        RULES.action_delay_ms(
            lost, 0, {"type": "play", "card": "chili-1", "declare": {"spice": "chili", "number": 1}}
        )
        == 0
    )


def test_the_grace_period_follows_the_option_and_covers_passes_with_copy_cat():
    state = play(start(HANDS, challengeGraceMs=1500, spiceItUp=["copy_cat"]), 0, "chili-7", "chili", 1)
    assert RULES.action_delay_ms(state, 1, {"type": "pass"}) == 1500
    assert RULES.action_delay_ms(state, 2, {"type": "copy", "card": "chili-2"}) == 0


def test_the_grace_period_covers_the_move_that_closes_a_last_card_without_required_declines():
    state = start([["chili-1"], ["wasabi-3"], ["pepper-2"]], lastCardDeclineRequired=False)
    state = play(state, 0, "chili-1", "chili", 1)
    assert RULES.action_delay_ms(state, 1, {"type": "pass"}) == 3000
    assert RULES.action_delay_ms(state, 2, {"type": "decline"}) == 0
