"""Computer opponents for Chinese Checkers: ``LEVELS`` maps a level name to ``choose(view, legal, rng)``.

A bot sees only its seat's view and legal actions (``bench/bots_tournament.py`` defines the interface) and returns
one of the ``legal`` dicts: a move, or the pass when it is the only action. Nothing is hidden in this game, so the
view is enough to rebuild the whole position and search it.

Rebuilding the board from the view
==================================

``view["seats"][s]["marbles"]`` lists every seat's marbles as cubes; ``board.INDEX`` turns a cube into a hole
index, so writing seat ``s``'s digit into those holes of an all-empty 121-character string gives exactly the
state's ``board`` string (see ``board.py``). ``view["seats"][view["seat"]]["start"]`` is the ``point`` that
``board.generate_moves`` needs, and ``view["options"]`` gives its ``target_lock`` flag (``targetLock``) and ``swap``
flag (``blockedTargetRule == "swap"``). :func:`read_view` does this; the lookahead then plays moves on that string
with :func:`play` (under the swap rule the displaced marble goes to the mover's origin, as in ``rules.py``) and
lists the seat's next moves with ``generate_moves`` (:func:`own_moves`).

Evaluation (:func:`evaluate`; larger is better for the seat)
============================================================

It depends on the seat's own marbles only. Each marble costs its *distance to the target tip*
(``board.distance`` to ``board.TIPS[target]``): the steps to the tip on an empty grid, i.e. the rows still to go
plus a penalty for drifting sideways out of the band that leads into the target. Inside the target it is smallest
at the tip, so marbles fill the target from the tip and keep its mouth free. Ten marbles home cost 20, the unique
minimum; a filled target (ten marbles home, or with ``occupiedCountsAsFilled`` every hole held and one of them by
the seat) is :data:`WIN`. Added to the sum, with the coefficients of :class:`Weights`:

* *filling*: a marble outside the target also costs its distance to the nearest target hole the seat does not
  hold yet, so the last marbles head for the holes still free instead of hovering at the mouth;
* *laggards*: a marble further from the tip than the mean plus a slack costs the square of the excess, so
  stragglers are brought along and the seat's own start, the opposite player's target, is emptied;
* *rearmost*: the distance of the marble furthest behind.

Making way (every level)
========================

A seat whose target is full but for opponents' marbles (under the ``none`` rule, which neither swaps nor counts
them: they sit in their own start) cannot finish until they leave. :func:`make_way` then plays the move that gives
them the most ways out of the target (then the most ways forward, then the best own :func:`evaluate`): usually
one of its own marbles steps out of the target; once they have moved, the normal evaluation brings it back. Under
``swap`` the evaluation already takes the swap into the target, and under ``occupiedCountsAsFilled`` it counts
their holes as filled. A marble whose owner never moves it cannot be made to leave: ``maxTurns`` ends that game.

Levels
======

* ``easy``: one ply, greedy by progress (rows gained along the axis) plus Gaussian noise of one row; among
  similar gains it leans to marbles outside the target that end near a free target hole, so it still brings its
  last marbles home (about 65 turns per player in a 2-player game against itself); once at most
  :data:`STRAGGLERS` of its marbles are left in its start, moving one of them out is worth :data:`EVACUATION` rows
  more, so that it never strands them in the opposite player's target.
* ``medium``: one ply, the move with the best :func:`evaluate` (``MEDIUM_WEIGHTS``), ties broken at random. Also
  auto-plays absent seats: under a millisecond per move on any board (about 48 turns).
* ``hard``: a short beam search over the seat's *own* consecutive moves, opponents assumed to stay put
  (:class:`Searcher`, ``HARD_WEIGHTS``). A line is worth its evaluation now plus ``follow_up`` (0.9) times the
  best gain still to come, so it prefers gains now but will make a small move that opens a long hop ladder.
  The sixteen best-evaluated moves are searched two plies deep, the eight best of those three plies deep
  (expanding the four best-evaluated replies of each). Tens of milliseconds per move, also on crowded 6-player
  boards (about 33 turns).
"""

from __future__ import annotations

import random
from collections.abc import Callable, Iterable
from dataclasses import dataclass
from functools import lru_cache
from typing import NamedTuple

from games.chinesecheckers.board import (
    CELL_COUNT,
    EMPTY,
    INDEX,
    POINT_CELLS,
    PROGRESS,
    SEAT_CHARS,
    TARGET_CELLS,
    TIPS,
    distance,
    generate_moves,
    marbles,
    opposite,
    place,
)

Bot = Callable[[dict, list[dict], random.Random], dict | None]
Move = tuple[int, int]  # (origin, destination) hole indices


class Position(NamedTuple):
    """What a seat needs to search: the board string, who it is, and the rule flags of the move generator."""

    board: str
    seat: int
    point: int  # the seat's start point
    target_lock: bool
    swap: bool
    filled_counts: bool  # blockedTargetRule occupiedCountsAsFilled: opponents' marbles in the target count
    points: tuple[int, ...]  # every seat's start point (to list an opponent's moves when making way)


@dataclass(frozen=True)
class Weights:
    """Coefficients of the costs of :func:`evaluate` besides the sum of distances to the tip (coefficient 1).

    Tuned by self-play. With one ply, ``MEDIUM_WEIGHTS`` won 62% of 200 and 56% of 300 two-player games against
    ``HARD_WEIGHTS``; inside the hard search it is the other way round (``HARD_WEIGHTS`` won 57% of 150): the
    search already keeps the group together, and heavier laggard costs only slow it down."""

    filling: float  # per step from a marble outside the target to the nearest target hole still to fill
    laggard: float  # per squared step a marble lies behind the mean distance plus ``slack``
    slack: float  # steps behind the mean a marble may lie for free
    rearmost: float  # per step of the rearmost marble's distance to the tip


MEDIUM_WEIGHTS = Weights(filling=1.0, laggard=1.0, slack=2.0, rearmost=2.0)
HARD_WEIGHTS = Weights(filling=0.5, laggard=0.3, slack=2.0, rearmost=0.5)
WIN = 1_000_000.0
# easy: once this few of its marbles are left in its start (the opposite player's target), moving one of them out
# is worth this many rows more, so that it never strands them there.
STRAGGLERS = 3
EVACUATION = 2.0


# ------------------------------------------------------------------------------------------- the position


def read_view(view: dict) -> Position:
    """Rebuild the board string and the move-generator flags of the view's seat (see the module docstring)."""
    holes = [EMPTY] * CELL_COUNT
    for summary in view["seats"]:
        char = SEAT_CHARS[summary["seat"]]
        for cube in summary["marbles"]:
            holes[INDEX[tuple(cube)]] = char
    seat = view["seat"]
    options = view["options"]
    rule = options.get("blockedTargetRule", "none")
    return Position(
        board="".join(holes),
        seat=seat,
        point=view["seats"][seat]["start"],
        target_lock=bool(options.get("targetLock", False)),
        swap=rule == "swap",
        filled_counts=rule == "occupiedCountsAsFilled",
        points=tuple(summary["start"] for summary in view["seats"]),
    )


def decode(legal: list[dict]) -> list[tuple[Move, dict]]:
    """The legal moves as hole indices, each with the action dict to return."""
    return [((INDEX[tuple(a["from"])], INDEX[tuple(a["to"])]), a) for a in legal if a["type"] == "move"]


def play(board: str, seat: int, move: Move) -> str:
    """``board`` after ``seat`` moves; a move onto an opponent (swap rule) sends that marble to the origin."""
    origin, destination = move
    displaced = board[destination]
    board = place(board, destination, SEAT_CHARS[seat])
    return place(board, origin, displaced)


def own_moves(position: Position, board: str) -> list[Move]:
    """Every legal move of the position's seat on ``board`` (the fast generator of ``board.py``)."""
    found = generate_moves(
        board, position.seat, position.point, target_lock=position.target_lock, swap=position.swap
    )
    return [(origin, destination) for origin, destinations in found for destination in destinations]


# ------------------------------------------------------------------------------------------- evaluation

TIP_DISTANCE: tuple[tuple[int, ...], ...] = tuple(
    tuple(distance(cell, TIPS[opposite(point)]) for cell in range(CELL_COUNT)) for point in range(6)
)
# Sets of target holes are bit masks: TARGET_BITS[point][cell] is the bit of a hole of the point's target, else 0.
TARGET_BITS: tuple[tuple[int, ...], ...] = tuple(
    tuple(
        1 << sorted(TARGET_CELLS[point]).index(cell) if cell in TARGET_CELLS[point] else 0
        for cell in range(CELL_COUNT)
    )
    for point in range(6)
)
FULL_TARGET = (1 << len(TARGET_CELLS[0])) - 1


def target_mask(point: int, cells: Iterable[int]) -> int:
    """The bit mask of the target holes among ``cells`` (for a seat starting at ``point``)."""
    bits = TARGET_BITS[point]
    return sum({bits[cell] for cell in cells})


@lru_cache(maxsize=4096)
def fill_distance(point: int, held: int) -> tuple[int, ...]:
    """Per hole outside the target, the distance to the nearest target hole not in the mask ``held``; 0 inside
    the target and once every hole is held."""
    bits = TARGET_BITS[point]
    free = [hole for hole in TARGET_CELLS[point] if not bits[hole] & held]
    return tuple(
        0 if bits[cell] or not free else min(distance(cell, hole) for hole in free)
        for cell in range(CELL_COUNT)
    )


def opponents_held(position: Position) -> int:
    """Target holes held by opponents that count as filled (``occupiedCountsAsFilled`` only, else none)."""
    if not position.filled_counts:
        return 0
    target = TARGET_CELLS[position.point]
    own = SEAT_CHARS[position.seat]
    return target_mask(position.point, (cell for cell in target if position.board[cell] not in (EMPTY, own)))


def evaluate(point: int, cells: list[int], others_held: int = 0, weights: Weights = MEDIUM_WEIGHTS) -> float:
    """How good it is for a seat starting at ``point`` to have marbles on ``cells``: minus the costs of the module
    docstring, or WIN when the target is filled. ``others_held``: the mask of opponents' target holes that count
    as filled (``occupiedCountsAsFilled``).

    Only the seat's own marbles matter, so the search evaluates a move by editing the list of its marbles. This is
    the search's inner loop: the sums run over ``map`` and the marbles are distinct, so a sum of bits is a mask."""
    home = sum(map(TARGET_BITS[point].__getitem__, cells))
    if home and home | others_held == FULL_TARGET:
        return WIN
    dists = list(map(TIP_DISTANCE[point].__getitem__, cells))
    total = sum(dists)
    filling = sum(map(fill_distance(point, home | others_held).__getitem__, cells))
    bar = total / len(dists) + weights.slack
    laggards = 0.0
    for d in dists:
        if d > bar:
            laggards += (d - bar) * (d - bar)
    return -(total + weights.filling * filling + weights.laggard * laggards + weights.rearmost * max(dists))


def moved(cells: list[int], move: Move) -> list[int]:
    """The seat's marble cells after ``move``."""
    origin, destination = move
    return [destination if cell == origin else cell for cell in cells]


# ------------------------------------------------------------------------------------------- making way


def blockers(position: Position) -> list[int]:
    """The opponents' marbles that stop the seat from finishing: with every hole of its target held, some by
    opponents (who sit in their own start there), under a rule that neither swaps them nor counts them."""
    if position.swap or position.filled_counts:
        return []
    board, own = position.board, SEAT_CHARS[position.seat]
    target = TARGET_CELLS[position.point]
    if any(board[cell] == EMPTY for cell in target):
        return []
    return [cell for cell in target if board[cell] != own]


def releases(position: Position, board: str, blocking: list[int]) -> tuple[int, int]:
    """What ``board`` offers the blocking marbles: (moves that take one out of the seat's target, moves that
    advance one towards its own target)."""
    target = TARGET_CELLS[position.point]
    exits = advances = 0
    for owner in {SEAT_CHARS.index(board[cell]) for cell in blocking}:
        point = position.points[owner]
        progress = PROGRESS[point]
        found = generate_moves(board, owner, point, target_lock=position.target_lock)
        for origin, destinations in found:
            if origin in target:
                exits += sum(1 for cell in destinations if cell not in target)
                advances += sum(1 for cell in destinations if progress[cell] > progress[origin])
    return exits, advances


def make_way(position: Position, moves: list[tuple[Move, dict]], weights: Weights) -> dict | None:
    """When opponents' marbles block the seat's full target (:func:`blockers`), the move that lets them out: most
    exits for them, then most advances, then the seat's own :func:`evaluate`. Moving a marble out of the target
    and back once they have left is the only way to finish under the ``none`` rule. None when nothing blocks or
    no move frees anything (their owner may not want to leave: ``maxTurns`` then ends the game)."""
    blocking = blockers(position)
    if not blocking:
        return None
    cells = marbles(position.board, position.seat)
    best, best_key = None, None
    for move, action in moves:
        exits, advances = releases(position, play(position.board, position.seat, move), blocking)
        if not (exits or advances):
            continue
        key = (exits, advances, evaluate(position.point, moved(cells, move), 0, weights))
        if best_key is None or key > best_key:
            best, best_key = action, key
    return best


# ------------------------------------------------------------------------------------------- levels


def choose_easy(view: dict, legal: list[dict], rng: random.Random) -> dict | None:
    """Greedy by rows gained, with noise; ties lean to marbles outside the target ending near a free hole."""
    moves = decode(legal)
    if not moves:
        return legal[0] if legal else None
    position = read_view(view)
    released = make_way(position, moves, MEDIUM_WEIGHTS)
    if released is not None:
        return released
    point = position.point
    progress = PROGRESS[point]
    target = TARGET_CELLS[point]
    cells = marbles(position.board, position.seat)
    held = target_mask(point, cells) | opponents_held(position)
    to_fill = fill_distance(point, held)
    start = POINT_CELLS[point]
    stragglers = sum(1 for cell in cells if cell in start) <= STRAGGLERS

    def score(move: Move) -> float:
        origin, destination = move
        gain = progress[destination] - progress[origin]
        homing = 0.3 * (origin not in target) - 0.1 * to_fill[destination]
        leaving = EVACUATION * (stragglers and origin in start)  # never strand a marble in the opponent's target
        return gain + homing + leaving + rng.gauss(0.0, 1.0)

    return max(moves, key=lambda entry: score(entry[0]))[1]


def choose_medium(view: dict, legal: list[dict], rng: random.Random) -> dict | None:
    """One ply: the move with the best :func:`evaluate`, ties broken at random."""
    moves = decode(legal)
    if not moves:
        return legal[0] if legal else None
    position = read_view(view)
    released = make_way(position, moves, MEDIUM_WEIGHTS)
    if released is not None:
        return released
    cells = marbles(position.board, position.seat)
    others = opponents_held(position)
    return max(
        moves,
        key=lambda entry: (
            evaluate(position.point, moved(cells, entry[0]), others, MEDIUM_WEIGHTS),
            rng.random(),
        ),
    )[1]


@dataclass(frozen=True)
class Search:
    """The parameters of the hard level's search over the seat's own consecutive moves (:class:`Searcher`)."""

    depth: int = 3  # own moves per line, at least 2: the root move and depth - 1 follow-ups
    follow_up: float = 0.9  # weight of the gain still to come (1: the order of the gains would not matter)
    root_beam: int = 16  # root moves searched two plies deep (the best by evaluation)
    root_width: int = 8  # root moves re-searched to the full depth (the best after two plies)
    width: int = 4  # children of a deeper node searched further (the best by evaluation)
    weights: Weights = HARD_WEIGHTS


HARD_SEARCH = Search()


class Searcher:
    """Evaluates lines of the position's seat's own moves; opponents are assumed to stay put meanwhile."""

    def __init__(self, position: Position, search: Search) -> None:
        self.position = position
        self.search = search
        self.others = opponents_held(position)

    def evaluate(self, cells: list[int]) -> float:
        return evaluate(self.position.point, cells, self.others, self.search.weights)

    def children(self, board: str, cells: list[int]) -> list[tuple[float, Move, list[int]]]:
        """Every own move from ``board``, best evaluated first: (value, move, marble cells after it)."""
        found = []
        for move in own_moves(self.position, board):
            after = moved(cells, move)
            found.append((self.evaluate(after), move, after))
        found.sort(key=lambda child: child[0], reverse=True)
        return found

    def best_reply(self, board: str, cells: list[int]) -> float | None:
        """The best evaluation one more own move reaches (None without a move): the leaves of the search, so
        nothing is sorted or kept."""
        point, others, weights = self.position.point, self.others, self.search.weights
        values = [
            evaluate(point, moved(cells, move), others, weights) for move in own_moves(self.position, board)
        ]
        return max(values) if values else None

    def value(self, board: str, cells: list[int], now: float, plies: int, kids: list | None = None) -> float:
        """``now`` plus ``follow_up`` times the best gain of up to ``plies`` more own moves (a beam search);
        ``kids``: the :meth:`children` of ``board`` when already known."""
        if plies == 0 or now >= WIN:
            return now
        if plies == 1 and kids is None:
            best = self.best_reply(board, cells)
            return now if best is None else now + self.search.follow_up * (best - now)
        if kids is None:
            kids = self.children(board, cells)
        if not kids:
            return now
        best = kids[0][0]
        if plies > 1:
            seat = self.position.seat
            for kid_value, move, after in kids[: self.search.width]:
                best = max(best, self.value(play(board, seat, move), after, kid_value, plies - 1))
        return now + self.search.follow_up * (best - now)

    def best_move(self, moves: list[tuple[Move, dict]], rng: random.Random) -> dict:
        """Two plies for the ``root_beam`` best-evaluated root moves, then the full depth for the ``root_width``
        best of them (reusing their replies listed at two plies)."""
        position, search = self.position, self.search
        cells = marbles(position.board, position.seat)
        roots = sorted(
            ((self.evaluate(moved(cells, move)), rng.random(), move, action) for move, action in moves),
            key=lambda root: root[:2],
            reverse=True,
        )[: search.root_beam]
        lines = []
        for now, tie, move, action in roots:
            board, after = play(position.board, position.seat, move), moved(cells, move)
            kids = self.children(board, after) if now < WIN else []
            lines.append([self.value(board, after, now, 1, kids), tie, board, after, now, kids, action])
        if search.depth > 2:
            lines.sort(key=lambda line: line[:2], reverse=True)
            for line in lines[: search.root_width]:
                line[0] = self.value(line[2], line[3], line[4], search.depth - 1, line[5])
        return max(lines, key=lambda line: line[:2])[-1]


def choose_hard(view: dict, legal: list[dict], rng: random.Random) -> dict | None:
    """A short beam search of the seat's own consecutive moves (:class:`Search`, :class:`Searcher`)."""
    moves = decode(legal)
    if not moves:
        return legal[0] if legal else None
    position = read_view(view)
    released = make_way(position, moves, HARD_WEIGHTS)
    if released is not None:
        return released
    return Searcher(position, HARD_SEARCH).best_move(moves, rng)


LEVELS: dict[str, Bot] = {"easy": choose_easy, "medium": choose_medium, "hard": choose_hard}
