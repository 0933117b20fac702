"""Chinese Checkers geometry, precomputed tables and the fast move generator (pure, standard library only).

Geometry (docs/rules/chinesecheckers.md §1)
    Holes are cube coordinates ``(x, y, z)`` with ``x + y + z = 0``; a hole is on the board iff
    ``(x >= -4 and y >= -4 and z >= -4) or (x <= 4 and y <= 4 and z <= 4)``: 121 holes, the 61-hole hexagon
    ``max(|x|, |y|, |z|) <= 4`` and six star points of 10 holes. Star points, going round the star:
    T0 = X+, T1 = Z-, T2 = Y+, T3 = X-, T4 = Z+, T5 = Y-; the opposite of Ti is T(i+3).

Cell indices
    Internally every hole is an index ``0..120``: the holes sorted row by row (``z`` from -8 to 8, then ``x``
    ascending). ``CELLS[i]`` is the cube of index ``i`` and ``INDEX[cube]`` the index of a cube (a tuple).

Board
    A board is a 121-character string: ``board[i]`` is ``"."`` for an empty hole or the seat digit ``"0"``..
    ``"5"`` of the marble in it. Strings are plain JSON, immutable (so states are never mutated by accident),
    and fast to scan (``str.find`` finds a seat's marbles, ``bytes.translate`` gives the occupancy).

Fast move generation
    :func:`generate_moves(board, seat, point) <generate_moves>` returns, for every marble of ``seat`` (whose
    start is star point ``point``), the set of its legal destination indices. This is the function to benchmark
    (``python -m games.chinesecheckers.benchmark``). :func:`marble_moves` does the same for one marble with the
    hop path of every destination (for animation and validation); both implement §3 and are
    cross-checked by the tests.
"""

from __future__ import annotations

Cube = tuple[int, int, int]

CELL_COUNT = 121
HEXAGON = -1  # the "point" of a hexagon hole
EMPTY = "."
SEAT_CHARS = "012345"

# The six neighbour directions (§1).
DIRECTIONS: tuple[Cube, ...] = ((1, -1, 0), (1, 0, -1), (0, 1, -1), (-1, 1, 0), (-1, 0, 1), (0, -1, 1))

# Star point i is where POINT_AXES[i] = (axis, sign) has sign * cube[axis] > 4:
# T0 = X+, T1 = Z-, T2 = Y+, T3 = X-, T4 = Z+, T5 = Y-.
POINT_AXES: tuple[tuple[int, int], ...] = ((0, 1), (2, -1), (1, 1), (0, -1), (2, 1), (1, -1))

# Seating (§2): seat i starts at the i-th point of its player count's tuple.
SEAT_POINTS: dict[int, tuple[int, ...]] = {2: (0, 3), 3: (0, 2, 4), 4: (0, 1, 3, 4), 6: (0, 1, 2, 3, 4, 5)}


def on_board(cube: Cube) -> bool:
    x, y, z = cube
    return x + y + z == 0 and ((x >= -4 and y >= -4 and z >= -4) or (x <= 4 and y <= 4 and z <= 4))


def opposite(point: int) -> int:
    """The star point facing ``point``: every player's target is the point opposite its start."""
    return (point + 3) % 6


def _add(cube: Cube, direction: Cube, times: int = 1) -> Cube:
    return (cube[0] + times * direction[0], cube[1] + times * direction[1], cube[2] + times * direction[2])


def _point_of(cube: Cube) -> int:
    for point, (axis, sign) in enumerate(POINT_AXES):
        if sign * cube[axis] > 4:
            return point
    return HEXAGON


CELLS: tuple[Cube, ...] = tuple(
    sorted(
        (cube for x in range(-8, 9) for y in range(-8, 9) if on_board(cube := (x, y, -x - y))),
        key=lambda cube: (cube[2], cube[0]),
    )
)
INDEX: dict[Cube, int] = {cube: index for index, cube in enumerate(CELLS)}
assert len(CELLS) == CELL_COUNT

POINT_OF_CELL: tuple[int, ...] = tuple(_point_of(cube) for cube in CELLS)
POINT_CELLS: tuple[frozenset[int], ...] = tuple(
    frozenset(i for i in range(CELL_COUNT) if POINT_OF_CELL[i] == point) for point in range(6)
)
HEXAGON_CELLS: frozenset[int] = frozenset(i for i in range(CELL_COUNT) if POINT_OF_CELL[i] == HEXAGON)
TIPS: tuple[int, ...] = tuple(
    next(i for i in POINT_CELLS[point] if sign * CELLS[i][axis] == 8)
    for point, (axis, sign) in enumerate(POINT_AXES)
)

# NEIGHBOURS[c][d]: the neighbour of c in direction d, or -1 off the board.
NEIGHBOURS: tuple[tuple[int, ...], ...] = tuple(
    tuple(INDEX.get(_add(cube, direction), -1) for direction in DIRECTIONS) for cube in CELLS
)
# JUMPS[c]: one (over, land) pair per direction whose landing hole is on the board. (On this star a line never
# leaves the board and comes back, so `over` is on the board whenever `land` is.)
JUMPS: tuple[tuple[tuple[int, int], ...], ...] = tuple(
    tuple(
        (INDEX[_add(cube, direction)], INDEX[_add(cube, direction, 2)])
        for direction in DIRECTIONS
        if _add(cube, direction, 2) in INDEX
    )
    for cube in CELLS
)

# TARGET_CELLS[point]: the holes a player starting at `point` must fill, the opposite point.
TARGET_CELLS: tuple[frozenset[int], ...] = tuple(POINT_CELLS[opposite(point)] for point in range(6))
# Where a player starting at a point may end a move: the hexagon, its start and its target (§3).
STOP_CELLS: tuple[frozenset[int], ...] = tuple(
    HEXAGON_CELLS | POINT_CELLS[point] | POINT_CELLS[opposite(point)] for point in range(6)
)
# STEP_TARGETS[point][c]: the neighbours of c a player starting at `point` may step to (lateral points removed).
STEP_TARGETS: tuple[tuple[tuple[int, ...], ...], ...] = tuple(
    tuple(tuple(n for n in NEIGHBOURS[c] if n in STOP_CELLS[point]) for c in range(CELL_COUNT))
    for point in range(6)
)
# PROGRESS[point][c] = s * c(cube) for the target axis of a player starting at `point` (§4): -8 at the
# start tip, +8 at the target tip. A player's score is the sum over its marbles + 60: 0 at the start, 120 home.
PROGRESS: tuple[tuple[int, ...], ...] = tuple(
    tuple(POINT_AXES[opposite(point)][1] * cube[POINT_AXES[opposite(point)][0]] for cube in CELLS)
    for point in range(6)
)
SCORE_OFFSET = 60

_OCCUPANCY = bytes.maketrans((EMPTY + SEAT_CHARS).encode(), b"\x00" + b"\x01" * len(SEAT_CHARS))


def initial_board(points: tuple[int, ...] | list[int]) -> str:
    """Seat i's ten marbles fill star point ``points[i]``; everything else is empty."""
    holes = [EMPTY] * CELL_COUNT
    for seat, point in enumerate(points):
        for cell in POINT_CELLS[point]:
            holes[cell] = SEAT_CHARS[seat]
    return "".join(holes)


def place(board: str, cell: int, content: str) -> str:
    """``board`` with hole ``cell`` set to ``content`` (a seat digit or ``EMPTY``)."""
    return board[:cell] + content + board[cell + 1 :]


def marbles(board: str, seat: int) -> list[int]:
    """The cells of ``seat``'s marbles, ascending."""
    char = SEAT_CHARS[seat]
    found = []
    cell = board.find(char)
    while cell >= 0:
        found.append(cell)
        cell = board.find(char, cell + 1)
    return found


def occupancy(board: str) -> list[int]:
    """1 for an occupied hole, 0 for an empty one; a list because CPython indexes lists fastest."""
    return list(board.encode().translate(_OCCUPANCY))


def score(board: str, seat: int, point: int) -> int:
    """§4: s·Σc(marbles) + 60 for the target axis; 0 at the start, 120 with every marble home."""
    progress = PROGRESS[point]
    return sum(progress[cell] for cell in marbles(board, seat)) + SCORE_OFFSET


def distance(a: int, b: int) -> int:
    """The number of steps between holes ``a`` and ``b`` on an unobstructed hexagonal grid."""
    (ax, ay, az), (bx, by, bz) = CELLS[a], CELLS[b]
    return max(abs(ax - bx), abs(ay - by), abs(az - bz))


def swappable_cells(board: str, seat: int, point: int) -> frozenset[int]:
    """Holes of ``seat``'s target held by an opponent: the holes a 'swap' move may end on (§5)."""
    own = SEAT_CHARS[seat]
    return frozenset(cell for cell in TARGET_CELLS[point] if board[cell] not in (EMPTY, own))


# Mutable copies of STOP_CELLS for the generator only: `set.intersection` returns a set it can add steps to.
# Never mutated.
_STOP_SETS: tuple[set[int], ...] = tuple(set(cells) for cells in STOP_CELLS)


def generate_moves(
    board: str,
    seat: int,
    point: int,
    *,
    target_lock: bool = False,
    swap: bool = False,
    only: int | None = None,
) -> list[tuple[int, set[int]]]:
    """Every legal move of ``seat`` (start point ``point``): ``[(origin, destinations), ...]`` by origin; with
    ``only``, the entry of that origin alone (none if ``seat`` has no marble there), found by the same search.

    §3: a step to an empty adjacent hole where the player may stop, or a chain of hops over adjacent
    marbles (any colour) into the empty hole beyond, changing direction at will; the chain may land anywhere on
    the board mid-way but must end in the hexagon, the start or the target; the origin is never a destination.
    ``target_lock``: a marble in its target may only end in its target. ``swap``: a step or the last hop of a
    chain may also end on an opponent marble sitting in the target (the two marbles then change places).

    This is the hot path (see the module docstring), written for CPython's speed: the hop search is a
    breadth-first search over landing holes with the marble lifted off its origin, walking the precomputed
    JUMPS table over an occupancy list, with a per-hole "reached from origin o" stamp instead of a set.
    """
    occupied = list(board.encode().translate(_OCCUPANCY))  # 1 full, 0 empty: lists index fastest
    stops = _STOP_SETS[point]
    step_targets = STEP_TARGETS[point]
    swappable = swappable_cells(board, seat, point) if swap else None
    jumps = JUMPS
    reached_from = [-1] * CELL_COUNT  # reached_from[c] == o: hole c is already a landing of origin o's chain
    char = SEAT_CHARS[seat]
    find = board.find
    moves: list[tuple[int, set[int]]] = []
    origin = find(char) if only is None else only if board[only] == char else -1
    while origin >= 0:
        occupied[origin] = 0  # the moving marble leaves its hole: it can be crossed back, not jumped over
        reached_from[origin] = origin
        landings = [origin]
        land_on = landings.append
        for cell in landings:  # the list grows while we walk it: a breadth-first search
            for over, land in jumps[cell]:
                if occupied[over] > occupied[land] and reached_from[land] != origin:  # over full, land empty
                    reached_from[land] = origin
                    land_on(land)
        if len(landings) > 1:
            destinations = stops.intersection(landings)  # no stop in the four lateral points
            destinations.discard(origin)
        else:
            destinations = set()
        if swappable:
            destinations |= _swap_ends(occupied, origin, landings, swappable)
        occupied[origin] = 1
        for cell in step_targets[origin]:
            if not occupied[cell]:
                destinations.add(cell)
        moves.append((origin, destinations))
        origin = find(char, origin + 1) if only is None else -1
    if target_lock:
        _keep_locked_marbles_home(moves, TARGET_CELLS[point])
    return moves


def _keep_locked_marbles_home(moves: list[tuple[int, set[int]]], target: frozenset[int]) -> None:
    """targetLock: a marble already in its target may only end its move in the target."""
    for origin, destinations in moves:
        if origin in target:
            destinations &= target


def _swap_ends(occupied: list[int], origin: int, landings: list[int], swappable: frozenset[int]) -> set[int]:
    """Swap rule: holes of ``swappable`` one step from the origin or one hop from the origin or a landing.

    ``occupied[origin]`` is 0 here: nobody hops over the marble that moves."""
    ends = {cell for cell in NEIGHBOURS[origin] if cell in swappable}
    for cell in landings:
        for over, land in JUMPS[cell]:
            if land in swappable and occupied[over]:
                ends.add(land)
    return ends


def marble_moves(
    board: str, seat: int, point: int, origin: int, *, target_lock: bool = False, swap: bool = False
) -> dict[int, list[int]]:
    """The legal destinations of the marble at ``origin`` with, for each, the path to animate.

    A path lists the holes the marble lands in, ``[to]`` for a step, the shortest hop chain otherwise (first
    direction first among equals). Same rules as :func:`generate_moves`; slower, used to validate and show one
    move rather than to search."""
    swappable = swappable_cells(board, seat, point) if swap else None
    return _paths_from(occupancy(board), point, origin, target_lock, swappable)


def moves_with_paths(
    board: str, seat: int, point: int, *, target_lock: bool = False, swap: bool = False
) -> list[tuple[int, dict[int, list[int]]]]:
    """:func:`marble_moves` of every marble of ``seat``, by origin (the board is read once for them all)."""
    occupied = occupancy(board)
    swappable = swappable_cells(board, seat, point) if swap else None
    return [
        (origin, _paths_from(occupied, point, origin, target_lock, swappable))
        for origin in marbles(board, seat)
    ]


def _paths_from(
    occupied: list[int], point: int, origin: int, target_lock: bool, swappable: frozenset[int] | None
) -> dict[int, list[int]]:
    """:func:`marble_moves` on the board's occupancy (lent: the origin is lifted, then put back)."""
    occupied[origin] = 0
    came_from = {origin: -1}  # landing -> the hole the hop to it started from
    queue = [origin]
    for cell in queue:
        for over, land in JUMPS[cell]:
            if occupied[over] > occupied[land] and land not in came_from:
                came_from[land] = cell
                queue.append(land)
    stops = STOP_CELLS[point]
    paths = {land: _chain(came_from, land) for land in queue[1:] if land in stops}
    if swappable is not None:
        for cell in queue:
            for over, land in JUMPS[cell]:
                if land in swappable and occupied[over] and land not in paths:
                    paths[land] = _chain(came_from, cell) + [land]
        for cell in NEIGHBOURS[origin]:
            if cell in swappable:
                paths[cell] = [cell]
    for cell in STEP_TARGETS[point][origin]:
        if not occupied[cell]:
            paths[cell] = [cell]  # a step is the simplest way to an adjacent hole
    occupied[origin] = 1
    if target_lock and origin in TARGET_CELLS[point]:
        paths = {cell: path for cell, path in paths.items() if cell in TARGET_CELLS[point]}
    return paths


def _chain(came_from: dict[int, int], land: int) -> list[int]:
    """The landings from the first hop to ``land``, following ``came_from`` back to the origin (-1)."""
    chain = []
    while came_from[land] != -1:
        chain.append(land)
        land = came_from[land]
    chain.reverse()
    return chain
