"""Where a move's time goes inside the servers: the ASGI entry point that ``bench/ws_load.py --stages`` serves.

``bench.stage_trace:application`` is ``bench.echo``'s application (the site's, with the echo routes) with a recorder
installed for the timing hooks (``turnengine.timing``), at the move's two boundaries in the transport: the mover's
socket handling the action (``act``, ``acted``: the wait for the database thread, the move, the mover's own view and
the broadcast) and each socket's relay of the new view (``relay``, ``relayed``). Each server process appends one line
per stamp to its own file in ``$TAPETE_STAGE_LOG``; :func:`stage_durations` joins every process's lines by (match,
version) and returns each stage's durations, which ws_load prints as percentiles. Stamps are wall-clock
nanoseconds (``time.time_ns``), so that the processes' stamps compare. Nothing is patched: the recorder is installed
only in a process started with ``$TAPETE_STAGE_LOG`` set (the load generator imports this module for
:func:`stage_durations` alone).
"""

from __future__ import annotations

import atexit
import os
import threading
from collections import defaultdict
from pathlib import Path

FLUSH_EVERY = 256


class StampLog:
    """This process's stamps: one line each, written in batches (a write per stamp would be a syscall per stamp)."""

    def __init__(self, folder: str) -> None:
        self.file = open(Path(folder) / f"stages-{os.getpid()}.log", "w")  # noqa: SIM115  (closed at exit)
        self.lines: list[str] = []
        self.lock = threading.Lock()  # a recorder may be called from any thread
        atexit.register(self.flush)

    def add(self, *fields) -> None:
        with self.lock:
            self.lines.append(" ".join(map(str, fields)))
            if len(self.lines) >= FLUSH_EVERY:
                self._write()

    def flush(self) -> None:
        with self.lock:
            self._write()
        self.file.flush()

    def _write(self) -> None:
        self.file.write("\n".join(self.lines) + "\n" if self.lines else "")
        self.lines.clear()


def recorder(log: StampLog):
    """A ``turnengine.timing`` recorder that writes ``stage match version ns`` lines; a relay is keyed by the move
    that made its view (the view's version less one)."""

    def record(stage: str, match_id, version, ns: int) -> None:
        if stage in ("relay", "relayed"):
            version -= 1
        log.add(stage, match_id, version, ns)

    return record


if os.environ.get("TAPETE_STAGE_LOG"):  # a server process that ``ws_load --stages`` started
    from bench.echo import application  # noqa: F401  (what daphne serves)
    from turnengine import timing

    timing.install(recorder(StampLog(os.environ["TAPETE_STAGE_LOG"])))


# --- reading the stamps -----------------------------------------------------------------------------------------


def stage_durations(folder: str) -> tuple[int, dict[str, list[float]]]:
    """(moves read, each stage's durations in ms) over the moves whose every stamp is there (the first and last
    tenth dropped: connecting and closing)."""
    stamps: dict[tuple[str, str], dict[str, int]] = defaultdict(dict)
    relays: dict[tuple[str, str], dict[str, list[int]]] = defaultdict(lambda: defaultdict(list))
    for path in Path(folder).glob("stages-*.log"):
        for line in path.read_text().splitlines():
            stage, match_id, version, ns = line.split()
            if stage in ("relay", "relayed"):
                relays[match_id, version][stage].append(int(ns))
            else:
                stamps[match_id, version].setdefault(
                    stage, int(ns)
                )  # a refused move's key takes no later stamp
    wanted = {"act", "acted"}
    keys = sorted(
        (key for key, marks in stamps.items() if wanted <= marks.keys() and len(relays[key]["relayed"]) >= 2),
        key=lambda key: stamps[key]["act"],
    )
    keys = keys[len(keys) // 10 : len(keys) - len(keys) // 10]
    stages: dict[str, list[int]] = defaultdict(list)  # nanoseconds
    for key in keys:
        marks, relayed = stamps[key], relays[key]
        stages["handler (database thread, own view, broadcast)"].append(marks["acted"] - marks["act"])
        stages["handler entered -> first seat's relay"].append(min(relayed["relay"]) - marks["act"])
        stages["handler entered -> last seat's relay"].append(max(relayed["relay"]) - marks["act"])
        stages["handler entered -> last seat's relay done"].append(max(relayed["relayed"]) - marks["act"])
    return len(keys), {label: [value / 1e6 for value in values] for label, values in stages.items()}
