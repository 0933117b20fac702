"""The Chinese Checkers reference player: greedy, one ply.

Written from the rules alone (docs/rules/chinesecheckers.md §1 and §4), with nothing of
``games/chinesecheckers/bots.py``: it plays the legal move that gains the most rows towards its target, i.e.
the largest rise of its score. Among equal gains it takes the move that ends deepest in the direction of its
target (so the target fills from its tip and a marble that cannot gain still moves up rather than sideways),
then one at random. It looks at no opponent, never plans a hop ladder, and never makes way for anyone. Same
interface as the ``LEVELS`` entries: ``choose(view, legal, rng)`` returns one of ``legal`` (the pass when it
is the only action), or None when the seat has nothing to do.
"""

from __future__ import annotations

import random
from typing import Any

Action = dict[str, Any]

# §1: the star points round the star, T0 = X+, T1 = Z-, T2 = Y+, T3 = X-, T4 = Z+, T5 = Y-, as the
# (cube axis, sign) that is beyond 4 inside the point. A marble's progress towards target point t is sign * coordinate.
POINT_AXES = ((0, 1), (2, -1), (1, 1), (0, -1), (2, 1), (1, -1))


def progress(cube: list[int], target: int) -> int:
    axis, sign = POINT_AXES[target]
    return sign * cube[axis]


def choose(view: dict, legal: list[Action], rng: random.Random) -> Action | None:
    moves = [action for action in legal if action["type"] == "move"]
    if not moves:
        return legal[0] if legal else None
    target = view["seats"][view["seat"]]["target"]

    def key(action: Action) -> tuple[int, int, float]:
        ends = progress(action["to"], target)
        return ends - progress(action["from"], target), ends, rng.random()

    return max(moves, key=key)
