"""Where a move's time goes inside the servers: the ASGI entry point that ``bench/ws_load.py --stages`` serves.

``bench.stage_trace:application`` is ``bench.echo``'s application (the site's, with the echo routes) with time stamps around a move's stages: the
consumer's action handler, the call on the database thread (inside it: the row lock, the rules, the write, the
commit, the frames), the broadcast, and each socket's relay of the new view. Each server process appends one line
per stamp to its own file in ``$TAPETE_STAGE_LOG``; :func:`stage_durations` joins every process's lines by (match,
version) and returns each stage's durations, which ws_load prints as percentiles. Stamps are wall-clock
nanoseconds (``time.time_ns``), so that the processes' stamps compare. A measuring wrapper, never served to players:
it wraps the engine's functions in place, and only in a process started with ``$TAPETE_STAGE_LOG`` set (the load
generator imports this module for :func:`stage_durations` alone).
"""

from __future__ import annotations

import atexit
import os
import re
import threading
import time
from collections import defaultdict
from pathlib import Path

FLUSH_EVERY = 256
VERSION = re.compile(r'"v":(\d+)')
VIEW_FRAME = '{"t":"view"'


class StampLog:
    """This process's stamps: one line each, written in batches (a write per stamp would be a syscall per stamp)."""

    def __init__(self, folder: str) -> None:
        self.file = open(Path(folder) / f"stages-{os.getpid()}.log", "w")  # noqa: SIM115  (closed at exit)
        self.lines: list[str] = []
        self.lock = threading.Lock()  # stamps come from the event loop and the database thread
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


inner = threading.local()  # the database thread's stamps of the current move


def _install(log: StampLog) -> None:
    from realtime import consumers

    from turnengine import match_sql, services

    def stamped(module, name: str) -> None:
        function = getattr(module, name)

        def wrapper(*args, **kwargs):
            started = time.time_ns()
            try:
                return function(*args, **kwargs)
            finally:
                marks = getattr(inner, "marks", None)  # None outside a move's database call
                if marks is not None:
                    marks.append(f"{name}:{started}:{time.time_ns()}")

        setattr(module, name, wrapper)

    for module, name in (
        (match_sql, "lock_match"),
        (match_sql, "write_move"),
        (services, "match_commit_action"),
        (services, "build_update"),
    ):
        stamped(module, name)

    apply = services.match_apply_action  # what the socket runs on the database thread (realtime.broadcast.run_writer)

    def database_call(*, match_id, user, expected_version, action):
        inner.marks = []
        started = time.time_ns()
        try:
            update = apply(match_id=match_id, user=user, expected_version=expected_version, action=action)
        finally:
            marks, inner.marks = inner.marks, None
        log.add("db", match_id, expected_version, started, time.time_ns(), *marks)
        return update

    services.match_apply_action = database_call

    on_act = consumers.MatchConsumer.on_act

    async def stamped_on_act(self, frame: dict) -> None:
        started = time.time_ns()
        await on_act(self, frame)
        log.add("act", self.match_id, frame.get("v"), started, time.time_ns())

    consumers.MatchConsumer.on_act = stamped_on_act

    frame_relay = consumers.MatchConsumer.frame_relay

    async def stamped_relay(self, message: dict) -> None:
        started = time.time_ns()
        await frame_relay(self, message)
        version = VERSION.search(message["text"], 0, 64)
        # a move's new view: presence frames carry the version too
        if version and message["text"].startswith(VIEW_FRAME):
            log.add("relay", self.match_id, int(version.group(1)) - 1, started, time.time_ns())

    consumers.MatchConsumer.frame_relay = stamped_relay


if os.environ.get("TAPETE_STAGE_LOG"):  # a server process that ``ws_load --stages`` started
    from bench.echo import application  # noqa: F401  (what daphne serves, with the stamps installed)

    _install(StampLog(os.environ["TAPETE_STAGE_LOG"]))


# --- reading the stamps -----------------------------------------------------------------------------------------


def stage_durations(folder: str) -> tuple[int, dict[str, list[float]]]:
    """(moves read, each stage's durations in ms) over the moves whose every stamp is there (the first and last
    tenth dropped: connecting and closing)."""
    acts, calls, relays = {}, {}, defaultdict(list)
    for path in Path(folder).glob("stages-*.log"):
        for line in path.read_text().splitlines():
            kind, match_id, version, *rest = line.split()
            key = (match_id, version)
            if kind == "act":
                acts[key] = (int(rest[0]), int(rest[1]))
            elif kind == "db":
                marks = {mark.split(":")[0]: tuple(map(int, mark.split(":")[1:])) for mark in rest[2:]}
                calls[key] = (int(rest[0]), int(rest[1]), marks)
            elif kind == "relay":
                relays[key].append((int(rest[0]), int(rest[1])))
    keys = sorted((key for key in acts if key in calls and len(relays[key]) >= 2), key=lambda key: acts[key])
    keys = keys[len(keys) // 10 : len(keys) - len(keys) // 10]
    stages: dict[str, list[int]] = defaultdict(list)  # nanoseconds
    for key in keys:
        (act_start, act_end), (call_start, call_end, marks), relayed = acts[key], calls[key], relays[key]
        stages["handler entered -> database thread starts"].append(call_start - act_start)
        stages["database thread"].append(call_end - call_start)
        if {"lock_match", "write_move", "match_commit_action", "build_update"} <= marks.keys():
            lock, write, commit, frames = (
                marks[name] for name in ("lock_match", "write_move", "match_commit_action", "build_update")
            )
            stages["  until the lock query"].append(lock[0] - call_start)
            stages["  row lock (BEGIN, SELECT FOR UPDATE)"].append(lock[1] - lock[0])
            stages["  rules and clocks"].append(write[0] - lock[1])
            stages["  write (INSERT and UPDATE)"].append(write[1] - write[0])
            stages["  COMMIT"].append(commit[1] - write[1])
            stages["  frames for every seat"].append(frames[1] - frames[0])
        stages["database thread done -> broadcast sent"].append(act_end - call_end)
        stages["database thread done -> last seat's relay"].append(
            max(start for start, _ in relayed) - call_end
        )
        stages["handler entered -> last seat's relay done"].append(max(end for _, end in relayed) - act_start)
    return len(keys), {label: [value / 1e6 for value in values] for label, values in stages.items()}
