"""Moves (docs/rules/chinesecheckers.md §3): steps, hop chains, forbidden stopping zones, the origin, passing,
targetLock."""

import random

import pytest
from chinesecheckers_helpers import add, cubes_of_point, destinations, move, new_game, position
from tapete_sdk.plugin import IllegalAction

from games.chinesecheckers import board as geometry
from games.chinesecheckers.rules import RULES

E, NE, N, W, SW, S = geometry.DIRECTIONS  # (1,-1,0) (1,0,-1) (0,1,-1) (-1,1,0) (-1,0,1) (0,-1,1)
CENTRE = (0, 0, 0)


def neighbours(cube):
    return {add(cube, d) for d in geometry.DIRECTIONS}


def test_a_lone_marble_steps_to_each_empty_adjacent_hole():
    state = position({0: [CENTRE]})
    assert destinations(state, CENTRE) == neighbours(CENTRE)


def test_a_step_onto_an_occupied_hole_is_impossible():
    state = position({0: [CENTRE], 1: [add(CENTRE, E), add(CENTRE, add(E, E))]})
    assert add(CENTRE, E) not in destinations(state, CENTRE)


def test_a_hop_jumps_an_adjacent_marble_into_the_empty_hole_beyond():
    state = position({0: [CENTRE], 1: [add(CENTRE, E)]})
    assert add(CENTRE, E, 2) in destinations(state, CENTRE)
    assert add(CENTRE, E, 3) not in destinations(state, CENTRE)  # no long-range "flying" hop


def test_no_hop_when_the_hole_beyond_is_taken():
    state = position({0: [CENTRE], 1: [add(CENTRE, E), add(CENTRE, E, 2)]})
    assert destinations(state, CENTRE) == neighbours(CENTRE) - {add(CENTRE, E)}


def test_no_hop_over_a_gap():
    state = position({0: [CENTRE], 1: [add(CENTRE, E, 2)]})
    assert add(CENTRE, E, 4) not in destinations(state, CENTRE)
    assert add(CENTRE, E, 3) not in destinations(state, CENTRE)


def test_hops_go_over_marbles_of_any_colour_including_ones_own():
    state = position({0: [CENTRE, add(CENTRE, E)], 1: [add(CENTRE, W)]})
    reachable = destinations(state, CENTRE)
    assert add(CENTRE, E, 2) in reachable  # over its own marble
    assert add(CENTRE, W, 2) in reachable  # over the opponent's


def test_a_chain_of_hops_may_change_direction_and_stop_at_any_landing():
    first, second = add(CENTRE, E, 2), add(add(CENTRE, E, 2), NE, 2)
    state = position({0: [CENTRE], 1: [add(CENTRE, E), add(first, NE)]})
    reachable = destinations(state, CENTRE)
    assert {first, second} <= reachable
    view = RULES.view(state, 0)
    paths = {
        tuple(m["to"]): [tuple(c) for c in m["path"]] for m in view["moves"] if tuple(m["from"]) == CENTRE
    }
    assert paths[second] == [first, second]
    assert paths[first] == [first]
    assert paths[add(CENTRE, N)] == [add(CENTRE, N)]  # a step's path is just its destination


def test_steps_and_hops_cannot_be_mixed():
    # Step east then hop east: the hole three to the east needs both, so it is no destination.
    step_then_hop = position({0: [CENTRE], 1: [add(CENTRE, E, 2)]})
    assert add(CENTRE, E, 3) not in destinations(step_then_hop, CENTRE)
    # Hop east then step: the holes next to the landing are not reachable either.
    hop_then_step = position({0: [CENTRE], 1: [add(CENTRE, E)]})
    landing = add(CENTRE, E, 2)
    assert destinations(hop_then_step, CENTRE) == neighbours(CENTRE) - {add(CENTRE, E)} | {landing}


def test_the_origin_is_never_a_destination_even_when_a_chain_comes_back_to_it():
    # Three hops round a triangle bring the marble back to its hole.
    state = position({0: [CENTRE], 1: [(1, -1, 0), (1, -2, 1), (0, -1, 1)]})
    reachable = destinations(state, CENTRE)
    assert {(2, -2, 0), (0, -2, 2)} <= reachable
    assert CENTRE not in reachable
    with pytest.raises(IllegalAction) as error:
        move(state, CENTRE, CENTRE)
    assert error.value.code == "illegal_destination"


def test_a_chain_may_pass_through_a_lateral_point_but_not_stop_there():
    # Seat 0 (start T0, target T3): T1, T2, T4 and T5 are lateral. The chain (1,3,-4) -> (-1,5,-4) -> (-3,5,-2)
    # -> (-3,3,0) lands twice in T2 on its way back into the hexagon.
    start = (1, 3, -4)
    state = position({0: [start], 1: [(0, 4, -4), (-2, 5, -3), (-3, 4, -1)]})
    assert geometry.POINT_OF_CELL[geometry.INDEX[(-1, 5, -4)]] == 2
    assert geometry.POINT_OF_CELL[geometry.INDEX[(-3, 5, -2)]] == 2
    reachable = destinations(state, start)
    assert (-3, 3, 0) in reachable
    assert (-1, 5, -4) not in reachable and (-3, 5, -2) not in reachable
    view = RULES.view(state, 0)
    path = next(m["path"] for m in view["moves"] if m["to"] == [-3, 3, 0])
    assert path == [[-1, 5, -4], [-3, 5, -2], [-3, 3, 0]]
    with pytest.raises(IllegalAction) as error:
        move(state, start, (-1, 5, -4))
    assert error.value.code == "illegal_destination"


def test_a_step_into_a_lateral_point_is_refused():
    start = (1, 3, -4)
    lateral = (2, 3, -5)  # in T1 (Z-)
    assert geometry.POINT_OF_CELL[geometry.INDEX[lateral]] == 1
    state = position({0: [start]})
    assert lateral not in destinations(state, start)
    assert (2, 2, -4) in destinations(state, start)
    with pytest.raises(IllegalAction):
        move(state, start, lateral)


def test_the_lateral_points_are_forbidden_even_when_empty_and_for_every_player():
    # In a 3-player game T1 is empty and nobody's start; it is still lateral for seat 0 (T0 -> T3).
    state = position({0: [(1, 3, -4)]}, num_players=3)
    assert (2, 3, -5) not in destinations(state, (1, 3, -4))
    # ... but it is the target of seat 2 (start T4), which may step into it.
    state = position({2: [(1, 3, -4)]}, num_players=3, turn=2)
    assert (2, 3, -5) in destinations(state, (1, 3, -4))


def test_a_marble_may_step_back_into_its_own_start_and_into_its_target():
    state = position({0: [(4, -2, -2), (-4, 2, 2)]})
    assert (5, -3, -2) in destinations(state, (4, -2, -2))  # T0, its start
    assert (-5, 3, 2) in destinations(state, (-4, 2, 2))  # T3, its target


def test_a_marble_may_leave_its_target_again_on_bga():
    inside = (-5, 3, 2)
    state = position({0: [inside]})
    assert (-4, 2, 2) in destinations(state, inside)


def test_target_lock_keeps_a_marble_inside_its_target():
    inside = (-5, 3, 2)
    state = position({0: [inside], 1: [(-6, 3, 3)]}, targetLock=True)
    reachable = destinations(state, inside)
    assert reachable and all(geometry.POINT_OF_CELL[geometry.INDEX[cube]] == 3 for cube in reachable)
    assert (-4, 2, 2) not in reachable
    assert (-7, 3, 4) in reachable  # a hop within the target
    # A marble outside the target is not restricted.
    outside = position({0: [(-4, 2, 2)]}, targetLock=True)
    assert (-3, 1, 2) in destinations(outside, (-4, 2, 2))


def test_a_move_is_applied_and_only_the_moving_marble_changes():
    state = position({0: [CENTRE], 1: [add(CENTRE, E)]})
    after, events = move(state, CENTRE, add(CENTRE, E, 2))
    assert after["board"][geometry.INDEX[CENTRE]] == "."
    assert after["board"][geometry.INDEX[add(CENTRE, E, 2)]] == "0"
    assert after["board"][geometry.INDEX[add(CENTRE, E)]] == "1"  # jumped marbles stay (no capture)
    assert after["turn"] == 1 and after["ply"] == 1
    assert events[0]["type"] == "move" and events[0]["hops"] == 1 and events[0]["path"] == [[2, -2, 0]]


def test_pass_is_the_only_action_without_a_legal_move():
    # Seat 0's only marble sits at its start tip, boxed in by marbles whose far sides are full too.
    tip = (8, -4, -4)
    blockers = [(7, -3, -4), (7, -4, -3), (6, -2, -4), (6, -3, -3), (6, -4, -2)]
    state = position({0: [tip], 1: blockers})
    assert RULES.legal_actions(state, 0) == [{"type": "pass"}]
    assert RULES.timeout_action(state, 0) == {"type": "pass"}
    assert RULES.view(state, 0)["canPass"] is True
    after, events = RULES.apply_action(state, 0, {"type": "pass"})
    assert after["turn"] == 1 and after["ply"] == 1 and after["board"] == state["board"]
    assert events == [{"type": "pass", "seat": 0, "visible_to": None}]


def test_pass_is_refused_when_a_move_exists():
    state = new_game(2)
    with pytest.raises(IllegalAction) as error:
        RULES.apply_action(state, 0, {"type": "pass"})
    assert error.value.code == "must_move"
    assert {"type": "pass"} not in RULES.legal_actions(state, 0)


def test_the_opening_position_offers_the_front_marbles_steps_and_hops():
    state = new_game(2)
    actions = RULES.legal_actions(state, 0)
    origins = {tuple(a["from"]) for a in actions}
    assert origins <= set(cubes_of_point(0))
    # Only the front row (x = 5) and the row behind it (hops over the front row) can move.
    assert {cube[0] for cube in origins} == {5, 6}
    assert all(geometry.CELLS[geometry.INDEX[tuple(a["to"])]][0] <= 4 for a in actions)


def test_legal_actions_are_sorted_and_match_the_view_moves():
    state = new_game(6)
    actions = RULES.legal_actions(state, 0)
    keys = [(geometry.INDEX[tuple(a["from"])], geometry.INDEX[tuple(a["to"])]) for a in actions]
    assert keys == sorted(keys)
    view_moves = [(m["from"], m["to"]) for m in RULES.view(state, 0)["moves"]]
    assert view_moves == [(a["from"], a["to"]) for a in actions]


def test_an_optional_path_in_the_action_is_ignored():
    state = position({0: [CENTRE], 1: [add(CENTRE, E)]})
    action = {"type": "move", "from": [0, 0, 0], "to": [2, -2, 0], "path": [[5, 5, 5], "nonsense"]}
    after, events = RULES.apply_action(state, 0, action)
    assert events[0]["path"] == [[2, -2, 0]]
    assert after == move(state, CENTRE, (2, -2, 0))[0]


@pytest.mark.parametrize(
    "options",
    [{}, {"targetLock": True}, {"blockedTargetRule": "swap"}, {"blockedTargetRule": "swap", "targetLock": True}],
)
def test_legal_actions_taken_from_the_view_are_the_ones_searched_afresh(options):
    """A frame builds the view of the seat to act, then its legal actions, which come from the view's moves (the
    last position viewed): the same list, in the same order, as a search of a position never viewed, whatever
    position was viewed before, and never the moves of another seat or board."""
    rng = random.Random(7)
    for players in (2, 3, 6):
        state = RULES.initial_state(RULES.normalize_options(options, players), players)
        previous = None
        for _ in range(120):
            if state["result"] is not None:
                break
            if state["turn"] is None:
                state, _ = RULES.apply_action(state, -1, RULES.sample_chance(state, rng))
                continue
            seat = state["turn"]
            if previous is not None:
                RULES.view(previous, previous["turn"])  # another position viewed last
            searched = RULES.legal_actions(state, seat)
            view = RULES.view(state, seat)
            from_the_view = RULES.legal_actions(state, seat)
            assert from_the_view == searched
            assert [(m["from"], m["to"]) for m in view["moves"]] == [
                (a["from"], a["to"]) for a in searched if a["type"] == "move"
            ]
            assert RULES.legal_actions(state, (seat + 1) % players) == []  # not the seat whose view was built
            previous = state
            state, _ = RULES.apply_action(state, seat, rng.choice(searched))
