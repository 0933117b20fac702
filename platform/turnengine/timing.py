"""Named time stamps on a move's path through a server process, for the benchmarks' stage trace
(``bench/stage_trace.py``): the socket's handler, the row lock, the write, the commit, the frames, each socket's relay.

Off unless a recorder is installed (:func:`install`): then :func:`stamp` costs one global lookup. The recorder
gets ``(stage, match_id, version, time.time_ns())``; the stamps taken on the database thread inside a move (the
writer's ``locked``, ``changed``, ``written``, ``committed``, ``framed``) carry no match: they follow that move's
``move`` stamp on the same thread.
"""

from __future__ import annotations

import time
from collections.abc import Callable

Recorder = Callable[[str, int | None, int | None, int], None]

_recorder: Recorder | None = None


def install(recorder: Recorder | None) -> None:
    """Send every stamp of this process to ``recorder`` (None: stop)."""
    global _recorder
    _recorder = recorder


def stamp(stage: str, match_id: int | None = None, version: int | None = None) -> None:
    if _recorder is not None:
        _recorder(stage, match_id, version, time.time_ns())
