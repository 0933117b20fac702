"""Computer opponents for Chinese Checkers: ``LEVELS`` maps a level name to ``choose(view, legal, rng)``.

A bot sees only its seat's view and legal actions (``bench/bots_tournament.py`` defines the interface). Nothing is
hidden in this game, so the view is enough to rebuild the whole position and search it.

Rebuilding the board from the view
==================================

``view["seats"][s]["marbles"]`` lists every seat's marbles as cubes; ``board.INDEX`` turns a cube into a hole
index, so writing seat ``s``'s digit into those holes of an empty 121-character string gives exactly the state's
``board`` (see ``board.py``). ``view["seats"][seat]["start"]`` is the point passed to ``board.generate_moves``, and
``view["options"]`` gives its ``target_lock`` and ``swap`` flags. :func:`read_view` does this; the lookahead then
plays moves on that string with :func:`play` (the swap rule exchanges the two marbles, as ``rules.py`` does).

Evaluation (:func:`evaluate`, larger is better for the seat)
============================================================

Every marble costs its *distance to the target tip* (``board.distance`` to ``board.TIPS[target]``): the number of
steps to the tip on an empty grid. It is progress along the axis plus a penalty for drifting sideways out of the
band that leads into the target, and inside the target it is smallest at the tip, so marbles fill the target from
the tip and leave its mouth free. Ten marbles home cost 20, the unique minimum. Added to the sum:

* *filling*: a marble outside the target also costs its distance to the nearest target hole that none of the
  seat's marbles holds (with ``occupiedCountsAsFilled``, holes held by opponents count as held), so the last
  marbles head for the holes still free instead of hovering at the mouth;
* *laggards*: a marble further from the tip than the group's mean plus a slack costs the square of the excess,
  so stragglers are brought along and the seat's own start is emptied (it is the opponent's target);
* *rearmost*: the distance of the marble furthest behind.

Levels
======

* ``easy``: one ply, greedy by progress (rows gained along the axis) plus Gaussian noise; among similar gains it
  prefers marbles outside the target that end near a free target hole, so it still brings its marbles home.
* ``medium``: one ply maximising :func:`evaluate`; random tie-breaks. Used to auto-play absent seats: well under
  a millisecond per move on any board.
* ``hard``: two plies of the seat's *own* consecutive moves (opponents are assumed not to move in between): each
  move is scored by its evaluation plus a discounted best follow-up gain, so it prepares hop ladders for the next
  turn. The second ply scores moves incrementally from a per-marble cost table, so a crowded 6-player position
  takes a few tens of milliseconds.
"""

from __future__ import annotations

import random
from collections.abc import Callable
from dataclasses import dataclass
from functools import lru_cache
from typing import NamedTuple

from games.chinesecheckers.board import (
    CELL_COUNT,
    EMPTY,
    INDEX,
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


@dataclass(frozen=True)
class Weights:
    """Coefficients of :func:`evaluate` (costs: they are subtracted)."""

    filling: float = 0.5
    laggard: float = 0.3
    slack: float = 2.0
    rearmost: float = 0.5


MEDIUM_WEIGHTS = Weights(filling=1.0, laggard=1.0, slack=2.0, rearmost=2.0)
HARD_WEIGHTS = Weights()
WIN = 1_000_000.0


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


@lru_cache(maxsize=4096)
def hole_distance(point: int, free_holes: frozenset[int]) -> tuple[int, ...]:
    """Per hole, the distance to the nearest of ``free_holes`` (0 everywhere once none is left)."""
    if not free_holes:
        return (0,) * CELL_COUNT
    return tuple(min(distance(cell, hole) for hole in free_holes) for cell in range(CELL_COUNT))


def opponents_held(position: Position) -> frozenset[int]:
    """Target holes held by opponents that count as filled (``occupiedCountsAsFilled`` only, else none)."""
    if not position.filled_counts:
        return frozenset()
    target = TARGET_CELLS[position.point]
    own = SEAT_CHARS[position.seat]
    return frozenset(cell for cell in target if position.board[cell] not in (EMPTY, own))


def evaluate(
    point: int, cells: list[int], others_held: frozenset[int] = frozenset(), weights: Weights = MEDIUM_WEIGHTS
) -> float:
    """How good it is for a seat starting at ``point`` to have marbles on ``cells``: minus the costs of the module
    docstring, or WIN when the target is filled. ``others_held``: opponents' target holes that count as filled.

    Only the seat's own marbles matter, so the search evaluates a move by editing the list of its marbles."""
    target = TARGET_CELLS[point]
    home = target.intersection(cells)
    if home and len(home) + len(others_held) >= len(target):
        return WIN
    tip = TIP_DISTANCE[point]
    to_fill = hole_distance(point, target - home - others_held)
    dists = [tip[cell] for cell in cells]
    total = sum(dists)
    filling = sum(to_fill[cell] for cell in cells if cell not in target)
    bar = total / len(dists) + weights.slack
    laggards = sum((d - bar) ** 2 for d in dists if d > bar)
    return -(total + weights.filling * filling + weights.laggard * laggards + weights.rearmost * max(dists))


def moved(cells: list[int], move: Move) -> list[int]:
    """The seat's marble cells after ``move``."""
    origin, destination = move
    return [destination if cell == origin else cell for cell in cells]


# ------------------------------------------------------------------------------------------- levels


def choose_easy(view: dict, legal: list[dict], rng: random.Random) -> dict | None:
    """Greedy by rows gained, with noise; ties lean to marbles outside the target ending near a free hole."""
    moves = decode(legal)
    if not moves:
        return legal[0] if legal else None
    position = read_view(view)
    point = position.point
    progress = PROGRESS[point]
    target = TARGET_CELLS[point]
    home = target.intersection(marbles(position.board, position.seat))
    to_fill = hole_distance(point, target - home - opponents_held(position))

    def score(move: Move) -> float:
        origin, destination = move
        gain = progress[destination] - progress[origin]
        homing = 0.3 * (origin not in target) - 0.1 * to_fill[destination]
        return gain + homing + rng.gauss(0.0, 1.0)

    return max(moves, key=lambda entry: score(entry[0]))[1]


def choose_medium(view: dict, legal: list[dict], rng: random.Random) -> dict | None:
    """One ply: the move with the best :func:`evaluate`, ties broken at random."""
    moves = decode(legal)
    if not moves:
        return legal[0] if legal else None
    position = read_view(view)
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

    depth: int = 3  # own moves per line: the root move and this many minus one follow-ups
    follow_up: float = 0.9  # weight of the gain still to come (1: the order of the gains would not matter)
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

    def value(self, board: str, cells: list[int], now: float, plies: int) -> float:
        """``now`` plus ``follow_up`` times the best gain of up to ``plies`` more own moves (a beam search)."""
        if plies == 0 or now >= WIN:
            return now
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
        """Two plies for every root move, then the full depth for the ``root_width`` best of them."""
        position, search = self.position, self.search
        cells = marbles(position.board, position.seat)
        lines = []
        for move, action in moves:
            after = moved(cells, move)
            now = self.evaluate(after)
            board = play(position.board, position.seat, move)
            lines.append([self.value(board, after, now, 1), rng.random(), board, after, now, action])
        if search.depth > 2:
            lines.sort(key=lambda line: line[:2], reverse=True)
            for line in lines[: search.root_width]:
                line[0] = self.value(line[2], line[3], line[4], search.depth - 1)
        return max(lines, key=lambda line: line[:2])[-1]


def choose_hard(view: dict, legal: list[dict], rng: random.Random) -> dict | None:
    """A short beam search of the seat's own consecutive moves (:class:`Search`, :class:`Searcher`)."""
    moves = decode(legal)
    if not moves:
        return legal[0] if legal else None
    return Searcher(read_view(view), HARD_SEARCH).best_move(moves, rng)


LEVELS: dict[str, Bot] = {"easy": choose_easy, "medium": choose_medium, "hard": choose_hard}
