"""This process's copy of the running matches it has moved lately, so that a move can skip reading its match.

A copy is kept with the row's ``xmin`` as it was written (``match_sql.read_match``, ``write_move_guarded``) and the
match's seats. It is only ever a guess: a move made from it is written on condition that the row's ``xmin`` is still
the same (``writer.optimistic``), so a copy that another process, a deadline or a presence change made stale costs
one refused statement, never a wrong write. Each copy handed out is the move's own (the clocks are copied; the
state is not, since rules never mutate a state). At most ``TAPETE_MATCH_CACHE_SIZE`` matches are kept, the least
recently moved leaving first.
"""

from __future__ import annotations

import copy
import threading
from collections import OrderedDict

from django.conf import settings
from django.db.models.base import ModelState

from turnengine.models import Match

_lock = threading.Lock()
_copies: OrderedDict[int, tuple[Match, str, dict[int, int]]] = OrderedDict()


def recall(match_id: int) -> tuple[Match, str, dict[int, int]] | None:
    """A private copy of the kept match, its ``xmin`` and seats (user id -> seat), or None."""
    with _lock:
        kept = _copies.get(match_id)
        if kept is None:
            return None
        _copies.move_to_end(match_id)
    match, xmin, seats = kept
    own = _shallow_copy(match)
    own.clock = _json_copy(match.clock)
    return own, xmin, seats


def _shallow_copy(match: Match) -> Match:
    """What ``copy.copy`` makes of a model instance (its attributes, and a state of its own with its own cache of
    related objects: ``Model.__getstate__``), without the pickling protocol's detour, which took five times as
    long."""
    own = Match.__new__(Match)
    own.__dict__.update(match.__dict__)
    own._state = ModelState()
    own._state.__dict__.update(match._state.__dict__)
    own._state.fields_cache = dict(match._state.fields_cache)
    return own


_SCALARS = frozenset({str, int, float, bool, type(None)})


def _json_copy(value):
    """A deep copy of plain JSON (a clock), in a quarter of ``copy.deepcopy``'s time; anything else is deep-copied."""
    kind = type(value)
    if kind is dict:
        return {key: item if type(item) in _SCALARS else _json_copy(item) for key, item in value.items()}
    if kind is list:
        return [item if type(item) in _SCALARS else _json_copy(item) for item in value]
    if kind in _SCALARS:
        return value
    return copy.deepcopy(value)


def remember(match: Match, xmin: str, seats: dict[int, int]) -> None:
    """Keep ``match`` as written at ``xmin`` (the caller hands it over: it is not copied)."""
    if match.status != Match.Status.ACTIVE:
        forget(match.pk)
        return
    with _lock:
        _copies[match.pk] = (match, xmin, seats)
        _copies.move_to_end(match.pk)
        while len(_copies) > settings.TAPETE_MATCH_CACHE_SIZE:
            _copies.popitem(last=False)


def forget(match_id: int) -> None:
    with _lock:
        _copies.pop(match_id, None)
