"""Perft-style move counts, cross-checked against a naive reference written here from the rules page alone
(docs/rules/chinesecheckers.md).

The reference works on cube coordinates with sets and a plain breadth-first search; it shares no table or code
with ``board.py``. Counts are fixed numbers too, so a change in either implementation shows up.
"""

import random

import pytest
from chinesecheckers_helpers import new_game

from games.chinesecheckers import board as geometry
from games.chinesecheckers.rules import RULES

# ------------------------------------------------------------------------------------------ naive reference

REF_DIRECTIONS = [(1, -1, 0), (1, 0, -1), (0, 1, -1), (-1, 1, 0), (-1, 0, 1), (0, -1, 1)]
REF_POINT_AXES = [(0, 1), (2, -1), (1, 1), (0, -1), (2, 1), (1, -1)]  # T0 = X+, T1 = Z-, ... T5 = Y-
REF_SEATING = {2: [0, 3], 3: [0, 2, 4], 4: [0, 1, 3, 4], 6: [0, 1, 2, 3, 4, 5]}


def ref_on_board(c):
    x, y, z = c
    return (x >= -4 and y >= -4 and z >= -4) or (x <= 4 and y <= 4 and z <= 4)


def ref_point(c):
    for point, (axis, sign) in enumerate(REF_POINT_AXES):
        if sign * c[axis] > 4:
            return point
    return None  # the hexagon


def ref_may_stop(c, start):
    return ref_point(c) in (None, start, (start + 3) % 6)


def ref_plus(c, d, k=1):
    return (c[0] + k * d[0], c[1] + k * d[1], c[2] + k * d[2])


def ref_destinations(marbles, seat, start, origin, swap=False, target_lock=False):
    """marbles: {cube: seat}. Steps and hop chains (rules page §3), with the swap and lock variants."""
    others = {c: s for c, s in marbles.items() if c != origin}
    target = (start + 3) % 6
    result = {ref_plus(origin, d) for d in REF_DIRECTIONS if ref_on_board(ref_plus(origin, d))}
    result = {c for c in result if c not in others}
    seen, frontier = {origin}, [origin]
    while frontier:
        cell = frontier.pop(0)
        for d in REF_DIRECTIONS:
            over, land = ref_plus(cell, d), ref_plus(cell, d, 2)
            if over in others and ref_on_board(land) and land not in others and land not in seen:
                seen.add(land)
                frontier.append(land)
    result |= seen - {origin}
    result = {c for c in result if ref_may_stop(c, start)}
    if swap:
        blocking = {c for c, s in others.items() if s != seat and ref_point(c) == target}
        result |= {c for c in blocking if any(ref_plus(origin, d) == c for d in REF_DIRECTIONS)}
        result |= {
            c
            for c in blocking
            for hole in seen
            for d in REF_DIRECTIONS
            if ref_plus(hole, d, 2) == c and ref_plus(hole, d) in others
        }
    if target_lock and ref_point(origin) == target:
        result = {c for c in result if ref_point(c) == target}
    return result


def ref_moves(marbles, seat, start, **variants):
    return sorted(
        (origin, to)
        for origin, s in marbles.items()
        if s == seat
        for to in ref_destinations(marbles, seat, start, origin, **variants)
    )


def ref_start(num_players):
    marbles = {}
    for seat, point in enumerate(REF_SEATING[num_players]):
        axis, sign = REF_POINT_AXES[point]
        for x in range(-8, 9):
            for y in range(-8, 9):
                c = (x, y, -x - y)
                if ref_on_board(c) and sign * c[axis] > 4:
                    marbles[c] = seat
    return marbles


def ref_perft(marbles, num_players, seat, depth):
    if depth == 0:
        return 1
    total = 0
    for origin, to in ref_moves(marbles, seat, REF_SEATING[num_players][seat]):
        after = dict(marbles)
        del after[origin]
        after[to] = seat
        total += ref_perft(after, num_players, (seat + 1) % num_players, depth - 1)
    return total


# ------------------------------------------------------------------------------------------ the library


def lib_perft(state, depth):
    if depth == 0:
        return 1
    seat = state["turn"]
    return sum(
        lib_perft(RULES.apply_action(state, seat, action)[0], depth - 1)
        for action in RULES.legal_actions(state, seat)
    )


def lib_moves(state, seat):
    return sorted(
        (tuple(a["from"]), tuple(a["to"])) for a in RULES.legal_actions(state, seat) if a["type"] == "move"
    )


def marbles_of(state):
    return {geometry.CELLS[i]: int(ch) for i, ch in enumerate(state["board"]) if ch != "."}


# ------------------------------------------------------------------------------------------ tests


@pytest.mark.parametrize("num_players", [2, 3, 4, 6])
def test_the_start_position_has_14_moves_for_every_player_count(num_players):
    state = new_game(num_players)
    assert marbles_of(state) == ref_start(num_players)
    for seat in range(num_players):
        turn = {**state, "turn": seat}
        moves = lib_moves(turn, seat)
        assert len(moves) == 14
        assert moves == ref_moves(ref_start(num_players), seat, REF_SEATING[num_players][seat])


def test_two_player_perft_to_depth_3():
    state = new_game(2)
    counts = [lib_perft(state, depth) for depth in (1, 2, 3)]
    assert counts == [14, 196, 4648]
    assert [ref_perft(ref_start(2), 2, 0, depth) for depth in (1, 2, 3)] == counts


def test_three_player_perft_to_depth_2():
    state = new_game(3)
    assert lib_perft(state, 2) == ref_perft(ref_start(3), 3, 0, 2) == 196


def crowded_positions(num_players, plies, count, seed, **options):
    """Positions reached by random play, with the seat to move."""
    rng = random.Random(seed)
    positions = []
    for _ in range(count):
        state = new_game(num_players, **options)
        for _ in range(plies):
            seat = state["turn"]
            state, _events = RULES.apply_action(state, seat, rng.choice(RULES.legal_actions(state, seat)))
        positions.append(state)
    return positions


def test_a_fixed_crowded_six_player_position_matches_the_reference():
    (state,) = crowded_positions(6, plies=60, count=1, seed=7)
    seat = state["turn"]
    moves = lib_moves(state, seat)
    assert moves == ref_moves(marbles_of(state), seat, state["points"][seat])
    assert lib_perft(state, 2) == sum(
        len(ref_moves(after, (seat + 1) % 6, state["points"][(seat + 1) % 6]))
        for after in (
            {**{c: s for c, s in marbles_of(state).items() if c != origin}, to: seat} for origin, to in moves
        )
    )


def scattered_positions(num_players, count, seed, **options):
    """Each seat's ten marbles thrown at random on holes where it may stop: many swaps and locked marbles."""
    rng = random.Random(seed)
    positions = []
    for _ in range(count):
        state = new_game(num_players, **options)
        holes = ["."] * geometry.CELL_COUNT
        for seat, point in enumerate(state["points"]):
            free = sorted(c for c in geometry.STOP_CELLS[point] if holes[c] == ".")
            for cell in rng.sample(free, 10):
                holes[cell] = str(seat)
        positions.append({**state, "board": "".join(holes)})
    return positions


@pytest.mark.parametrize(
    "options",
    [
        {},
        {"blockedTargetRule": "swap"},
        {"targetLock": True},
        {"blockedTargetRule": "swap", "targetLock": True},
    ],
    ids=["plain", "swap", "lock", "swap+lock"],
)
@pytest.mark.parametrize("num_players", [2, 3, 4, 6])
def test_random_positions_match_the_reference_for_every_seat(num_players, options):
    variants = {
        "swap": options.get("blockedTargetRule") == "swap",
        "target_lock": options.get("targetLock", False),
    }
    positions = crowded_positions(num_players, plies=12 * num_players, count=3, seed=num_players, **options)
    positions += scattered_positions(num_players, count=10, seed=num_players, **options)
    for state in positions:
        marbles = marbles_of(state)
        for seat in range(num_players):
            expected = ref_moves(marbles, seat, state["points"][seat], **variants)
            assert lib_moves({**state, "turn": seat}, seat) == expected


def test_generate_moves_and_marble_moves_agree_and_paths_are_real_hop_chains():
    positions = crowded_positions(6, plies=60, count=3, seed=3, blockedTargetRule="swap")
    for state in positions + scattered_positions(6, count=5, seed=3, blockedTargetRule="swap"):
        board = state["board"]
        for seat, point in enumerate(state["points"]):
            generated = dict(geometry.generate_moves(board, seat, point, swap=True))
            for origin in geometry.marbles(board, seat):
                paths = geometry.marble_moves(board, seat, point, origin, swap=True)
                assert set(paths) == generated[origin]
                for destination, path in paths.items():
                    assert path[-1] == destination
                    assert_real_chain(board, origin, path)


def assert_real_chain(board, origin, path):
    if len(path) == 1 and path[0] in geometry.NEIGHBOURS[origin]:
        return  # a step
    holes = list(board)
    holes[origin] = "."
    here = origin
    for index, land in enumerate(path):
        over = next(o for o, beyond in geometry.JUMPS[here] if beyond == land)
        assert holes[over] != "."
        assert holes[land] == "." or index == len(path) - 1  # only a swap ends on a marble
        here = land
