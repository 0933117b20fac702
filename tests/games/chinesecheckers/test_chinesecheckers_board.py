"""Board geometry (docs/rules/chinesecheckers.md §1), seating (§2) and the precomputed tables."""

from collections import Counter

import pytest
from chinesecheckers_helpers import new_game

from games.chinesecheckers import board as geometry
from games.chinesecheckers.rules import RULES


def test_board_has_121_holes_61_in_the_hexagon_and_10_in_each_point():
    assert len(geometry.CELLS) == 121 == len(set(geometry.CELLS))
    assert all(sum(cube) == 0 for cube in geometry.CELLS)
    assert len(geometry.HEXAGON_CELLS) == 61
    assert all(max(map(abs, geometry.CELLS[c])) <= 4 for c in geometry.HEXAGON_CELLS)
    assert [len(cells) for cells in geometry.POINT_CELLS] == [10] * 6
    assert Counter(geometry.POINT_OF_CELL) == {-1: 61, 0: 10, 1: 10, 2: 10, 3: 10, 4: 10, 5: 10}


def test_points_are_named_round_the_star():
    # T0 = X+, T1 = Z-, T2 = Y+, T3 = X-, T4 = Z+, T5 = Y-
    tips = [geometry.CELLS[tip] for tip in geometry.TIPS]
    assert tips == [(8, -4, -4), (4, 4, -8), (-4, 8, -4), (-8, 4, 4), (-4, -4, 8), (4, -8, 4)]
    assert all(geometry.CELLS[c][0] > 4 for c in geometry.POINT_CELLS[0])
    assert all(geometry.CELLS[c][2] < -4 for c in geometry.POINT_CELLS[1])
    assert all(geometry.CELLS[c][1] > 4 for c in geometry.POINT_CELLS[2])
    assert [geometry.opposite(p) for p in range(6)] == [3, 4, 5, 0, 1, 2]


def test_each_point_has_rows_of_one_two_three_and_four_holes():
    for point, (axis, sign) in enumerate(geometry.POINT_AXES):
        rows = Counter(sign * geometry.CELLS[c][axis] for c in geometry.POINT_CELLS[point])
        assert rows == {8: 1, 7: 2, 6: 3, 5: 4}


def test_the_on_board_predicate_is_the_union_of_two_triangles():
    inside = {
        (x, y, -x - y) for x in range(-12, 13) for y in range(-12, 13) if geometry.on_board((x, y, -x - y))
    }
    assert inside == set(geometry.CELLS)
    assert not geometry.on_board((1, 1, 1))  # not a cube coordinate


def test_neighbours_are_symmetric_and_jumps_go_over_a_neighbour():
    for cell, neighbours in enumerate(geometry.NEIGHBOURS):
        for direction, neighbour in enumerate(neighbours):
            if neighbour >= 0:
                assert geometry.NEIGHBOURS[neighbour][(direction + 3) % 6] == cell
        for over, land in geometry.JUMPS[cell]:
            assert over in neighbours
            x, y, z = geometry.CELLS[cell]
            ox, oy, oz = geometry.CELLS[over]
            assert geometry.CELLS[land] == (2 * ox - x, 2 * oy - y, 2 * oz - z)
    interior = geometry.INDEX[(0, 0, 0)]
    assert len(geometry.JUMPS[interior]) == 6 and -1 not in geometry.NEIGHBOURS[interior]
    assert sorted(n >= 0 for n in geometry.NEIGHBOURS[geometry.TIPS[0]]) == [False] * 4 + [True] * 2


def test_stop_cells_are_the_hexagon_the_start_and_the_target():
    for point in range(6):
        expected = (
            geometry.HEXAGON_CELLS | geometry.POINT_CELLS[point] | geometry.POINT_CELLS[(point + 3) % 6]
        )
        assert geometry.STOP_CELLS[point] == expected
        assert len(expected) == 81


@pytest.mark.parametrize(
    ("num_players", "points"),
    [(2, [0, 3]), (3, [0, 2, 4]), (4, [0, 1, 3, 4]), (6, [0, 1, 2, 3, 4, 5])],
)
def test_seats_start_in_the_rules_points_and_target_the_opposite_one(num_players, points):
    state = new_game(num_players)
    assert state["points"] == points
    view = RULES.view(state, None)
    assert [(s["start"], s["target"]) for s in view["seats"]] == [(p, (p + 3) % 6) for p in points]
    for seat, point in enumerate(points):
        assert sorted(geometry.marbles(state["board"], seat)) == sorted(geometry.POINT_CELLS[point])
    assert state["board"].count(".") == 121 - 10 * num_players


def test_three_players_head_for_the_empty_triangles():
    state = new_game(3)
    targets = [(p + 3) % 6 for p in state["points"]]
    assert targets == [3, 5, 1]
    assert all(state["board"][cell] == "." for point in targets for cell in geometry.POINT_CELLS[point])


def test_turns_go_round_the_star_in_seat_order():
    state = new_game(4)
    seen = []
    for _ in range(8):
        seen.append(state["turn"])
        state, _events = RULES.apply_action(state, state["turn"], RULES.timeout_action(state, state["turn"]))
    assert seen == [0, 1, 2, 3, 0, 1, 2, 3]


def test_progress_runs_from_minus_8_at_the_start_tip_to_8_at_the_target_tip():
    for point in range(6):
        progress = geometry.PROGRESS[point]
        assert progress[geometry.TIPS[point]] == -8
        assert progress[geometry.TIPS[(point + 3) % 6]] == 8
        assert sum(progress[c] for c in geometry.POINT_CELLS[point]) == -60
        assert sum(progress[c] for c in geometry.POINT_CELLS[(point + 3) % 6]) == 60
