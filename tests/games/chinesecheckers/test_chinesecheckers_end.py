"""Scoring, the end of the game and the blocked-target variants (docs/rules/chinesecheckers.md §4, §5)."""

import pytest
from chinesecheckers_helpers import cubes_of_point, destinations, move, new_game, position, with_marbles
from tapete_sdk.plugin import IllegalAction

from games.chinesecheckers import board as geometry
from games.chinesecheckers.rules import RULES

LAST_HOLE = (-5, 1, 4)  # a front-row hole of T3 (seat 0's target in a 2-player game)
NEXT_TO_LAST_HOLE = (-4, 1, 3)  # in the hexagon, one step from LAST_HOLE
FAR_AWAY = [(2, -2, 0), (2, -1, -1), (2, 0, -2), (2, 1, -3), (2, 2, -4)]
FAR_AWAY += [(3, -3, 0), (3, -2, -1), (3, -1, -2), (3, 0, -3), (3, 1, -4)]


def scores(state):
    return [seat["score"] for seat in RULES.view(state, None)["seats"]]


def nearly_home(num_players=2, parked=FAR_AWAY, parked_seat=1, **options):
    """Seat 0 has nine marbles in T3 and the tenth next to the empty LAST_HOLE; ``parked_seat`` waits far away."""
    home = [cube for cube in cubes_of_point(3) if cube != LAST_HOLE]
    return position({0: [*home, NEXT_TO_LAST_HOLE], parked_seat: parked}, num_players=num_players, **options)


@pytest.mark.parametrize("num_players", [2, 3, 4, 6])
def test_every_score_is_0_at_the_start(num_players):
    assert scores(new_game(num_players)) == [0] * num_players


def test_the_score_is_120_with_every_marble_home_and_counts_net_progress():
    state = position({0: cubes_of_point(3), 1: cubes_of_point(3 - 3)})
    assert scores(state) == [120, 120]
    start = new_game(2)
    stepped, events = move(start, (5, -1, -4), (4, 0, -4))  # one row forward
    assert events[0]["scoreBefore"] == 0 and events[0]["score"] == 1 and events[0]["delta"] == 1
    sideways = position({0: [(0, 0, 0)]})
    before = scores(sideways)[0]
    _after, events = move(sideways, (0, 0, 0), (0, 1, -1))  # along the row: no progress
    assert events[0]["delta"] == 0 and events[0]["score"] == before
    _after, events = move(sideways, (0, 0, 0), (1, -1, 0))  # backwards
    assert events[0]["delta"] == -1


def test_the_first_player_with_every_marble_home_wins_at_once():
    state = nearly_home()
    assert scores(state) == [119, 85]
    after, events = move(state, NEXT_TO_LAST_HOLE, LAST_HOLE)
    assert [e["type"] for e in events] == ["move", "win", "game_over"]
    assert events[1] == {"type": "win", "seat": 0, "reason": "all_home", "visible_to": None}
    assert events[2]["ranking"] == [[0], [1]] and events[2]["scores"] == [120, 85]
    assert RULES.to_act(after) == frozenset() and RULES.awaited(after) == frozenset()
    assert RULES.legal_actions(after, 1) == []
    outcome = RULES.outcome(after)
    assert (
        outcome.ranking == [[0], [1]] and outcome.reason == "all_home" and outcome.scores == {0: 120, 1: 85}
    )
    with pytest.raises(IllegalAction) as error:
        RULES.apply_action(after, 1, {"type": "move", "from": [2, -2, 0], "to": [1, -1, 0]})
    assert error.value.code == "game_over"


def test_the_others_are_ranked_by_score_and_equal_scores_share_a_rank():
    # 4 players: seat 2 starts in T3 (seat 0's target) and has left it; seats 1 and 3 have not moved.
    state = nearly_home(num_players=4, parked_seat=2)
    state = with_marbles(
        state, {}, {cube: 1 for cube in cubes_of_point(1)} | {cube: 3 for cube in cubes_of_point(4)}
    )
    after, _events = move(state, NEXT_TO_LAST_HOLE, LAST_HOLE)
    outcome = RULES.outcome(after)
    assert outcome.ranking == [[0], [2], [1, 3]]
    assert outcome.scores == {0: 120, 1: 0, 2: 85, 3: 0}


def test_the_game_ends_at_the_turn_limit_ranked_by_score():
    state = new_game(2, maxTurns=10)
    for ply in range(20):
        assert RULES.outcome(state) is None and state["ply"] == ply
        state, events = RULES.apply_action(state, state["turn"], RULES.timeout_action(state, state["turn"]))
    assert events[-1]["type"] == "game_over" and events[-1]["reason"] == "max_turns"
    outcome = RULES.outcome(state)
    assert outcome.reason == "max_turns"
    final = scores(state)
    assert outcome.scores == dict(enumerate(final))
    expected = sorted(range(2), key=lambda seat: -final[seat])
    assert [seat for group in outcome.ranking for seat in group] == expected
    assert RULES.view(state, 0)["maxPlies"] == 20


def test_a_tie_at_the_turn_limit_shares_the_rank():
    state = new_game(2, maxTurns=10)
    state = with_marbles(state, {(5, -1, -4): (4, 0, -4)})  # seat 0 is one row ahead
    state = {**state, "ply": 19, "turn": 1}
    after, events = move(state, (-5, 1, 4), (-4, 0, 4))  # seat 1 catches up with the last move
    assert events[0]["score"] == 1
    outcome = RULES.outcome(after)
    assert outcome.reason == "max_turns" and outcome.ranking == [[0, 1]]


def test_without_a_variant_a_marble_parked_in_the_target_blocks_the_win():
    state = nearly_home()
    state = with_marbles(state, {(2, -2, 0): None}, {LAST_HOLE: 1})  # seat 1 keeps a marble at home
    assert LAST_HOLE not in destinations(state, NEXT_TO_LAST_HOLE)
    after, _events = move(state, NEXT_TO_LAST_HOLE, (-3, 1, 2))
    assert RULES.outcome(after) is None


def blocked_by_seat_1(**options):
    """Seat 0: eight marbles home, one next to the last free hole; seat 1 keeps one marble in LAST_HOLE."""
    free_hole = (-5, 2, 3)
    home = [cube for cube in cubes_of_point(3) if cube not in (LAST_HOLE, free_hole)]
    return position({0: [*home, (-4, 2, 2), (0, 0, 0)], 1: [LAST_HOLE, *FAR_AWAY[:9]]}, **options), free_hole


def test_occupied_counts_as_filled_wins_with_a_full_target():
    state, free_hole = blocked_by_seat_1(blockedTargetRule="occupiedCountsAsFilled")
    after, events = move(state, (-4, 2, 2), free_hole)
    assert events[1] == {"type": "win", "seat": 0, "reason": "target_filled", "visible_to": None}
    outcome = RULES.outcome(after)
    assert outcome.reason == "target_filled" and outcome.ranking == [[0], [1]]
    assert outcome.scores[0] < 120
    plain, _ = blocked_by_seat_1()
    after, _events = move(plain, (-4, 2, 2), free_hole)
    assert RULES.outcome(after) is None


def test_occupied_counts_as_filled_needs_one_of_your_own_marbles_in_the_target():
    # At the start every target is full of the opposite player's marbles: that is nobody's win.
    state = new_game(2, blockedTargetRule="occupiedCountsAsFilled")
    after, _events = RULES.apply_action(state, 0, RULES.timeout_action(state, 0))
    assert RULES.outcome(after) is None


def test_occupied_counts_as_filled_can_be_completed_by_an_opponent_move():
    # Seat 1 steps back into its own start, which fills seat 0's target: seat 0 wins on seat 1's move.
    free_hole = LAST_HOLE
    home = [cube for cube in cubes_of_point(3) if cube != free_hole]
    state = position(
        {0: [*home[:8], (0, 0, 0)], 1: [home[8], NEXT_TO_LAST_HOLE, *FAR_AWAY[:8]]},
        turn=1,
        blockedTargetRule="occupiedCountsAsFilled",
    )
    after, events = move(state, NEXT_TO_LAST_HOLE, free_hole)
    assert events[1]["type"] == "win" and events[1]["seat"] == 0
    assert RULES.outcome(after).ranking[0] == [0]


def test_swap_with_an_opponent_marble_in_your_target_by_a_step():
    state = nearly_home(blockedTargetRule="swap")
    state = with_marbles(state, {(2, -2, 0): None}, {LAST_HOLE: 1})
    assert LAST_HOLE in destinations(state, NEXT_TO_LAST_HOLE)
    view_move = next(m for m in RULES.view(state, 0)["moves"] if m["to"] == list(LAST_HOLE))
    assert view_move["swap"] is True and view_move["path"] == [list(LAST_HOLE)]
    after, events = move(state, NEXT_TO_LAST_HOLE, LAST_HOLE)
    assert after["board"][geometry.INDEX[LAST_HOLE]] == "0"
    assert after["board"][geometry.INDEX[NEXT_TO_LAST_HOLE]] == "1"  # the opponent takes the hole we left
    assert events[0]["swappedWith"] == 1 and events[0]["hops"] == 0
    assert RULES.outcome(after).ranking == [[0], [1]]  # and here that completes seat 0's target


def test_swap_by_the_last_hop_of_a_chain():
    origin = (-3, 1, 2)
    state = position({0: [origin, NEXT_TO_LAST_HOLE], 1: [LAST_HOLE]}, blockedTargetRule="swap")
    assert LAST_HOLE in destinations(state, origin)
    after, events = move(state, origin, LAST_HOLE)
    assert events[0]["swappedWith"] == 1 and events[0]["hops"] == 1 and events[0]["path"] == [list(LAST_HOLE)]
    assert after["board"][geometry.INDEX[origin]] == "1"
    assert after["board"][geometry.INDEX[NEXT_TO_LAST_HOLE]] == "0"


def test_swap_only_with_opponents_and_only_in_your_target():
    own_in_target = position({0: [NEXT_TO_LAST_HOLE, LAST_HOLE]}, blockedTargetRule="swap")
    assert LAST_HOLE not in destinations(own_in_target, NEXT_TO_LAST_HOLE)
    opponent_outside = position({0: [(0, 0, 0)], 1: [(1, -1, 0)]}, blockedTargetRule="swap")
    assert (1, -1, 0) not in destinations(opponent_outside, (0, 0, 0))
    plain = position({0: [NEXT_TO_LAST_HOLE], 1: [LAST_HOLE]})
    assert LAST_HOLE not in destinations(plain, NEXT_TO_LAST_HOLE)
    with pytest.raises(IllegalAction) as error:
        move(plain, NEXT_TO_LAST_HOLE, LAST_HOLE)
    assert error.value.code == "illegal_destination"
