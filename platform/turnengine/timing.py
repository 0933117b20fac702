"""Named time stamps on a move's path through a server process, for the benchmarks' stage trace
(``bench/stage_trace.py``), taken only at the two boundaries the move crosses in the transport: the mover's socket
handling the action (``act`` when the handler is entered, ``acted`` once the move is committed, the mover's own view
sent and everyone's frames published: ``realtime.consumers``) and each socket relaying the new view (``relay``,
``relayed``: ``realtime.delivery``). The engine itself takes none.

Off unless a recorder is installed (:func:`install`): then :func:`stamp` costs one global lookup. The recorder
gets ``(stage, match_id, version, time.time_ns())``: the match and the version the move was played at, or (a
relay) the version of the view relayed.
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
