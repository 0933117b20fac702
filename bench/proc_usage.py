"""CPU time and memory of processes, read from Linux's ``/proc``: what ``bench/ws_load.py`` and
``bench/idle_sockets.py`` print beside their latencies.

* :func:`listening_pids` finds the processes listening on local TCP ports (the servers a benchmark started or was
  pointed at).
* :class:`CpuWindow` sums the CPU time (``utime + stime`` of ``/proc/<pid>/stat``, every thread of a process) that
  a set of processes spent between its :meth:`~CpuWindow.start` and :meth:`~CpuWindow.stop`: the servers and their
  descendants (:func:`server_tree`), every process named ``postgres`` (:func:`named`: the whole cluster's, backends
  of other clients included), or the load generator itself. Processes come and go (PostgreSQL starts a backend per
  connection), so each sample is keyed by (pid, start time): a process new at the end counts from zero, and one
  that ended inside the window loses what it spent there (not readable any more).
* :func:`rss_kib` is a process's resident memory (``VmRSS`` of ``/proc/<pid>/status``).

Without ``/proc`` (not Linux) every reading is ``None``, which the scripts print as "n/a".
"""

from __future__ import annotations

import os
import time
from collections.abc import Callable, Iterable
from dataclasses import dataclass
from pathlib import Path

PROC = Path("/proc")
TICKS_PER_SECOND = os.sysconf("SC_CLK_TCK") if hasattr(os, "sysconf") else 100
LISTEN = "0A"  # a socket's state in /proc/net/tcp


@dataclass(frozen=True)
class ProcStat:
    pid: int
    name: str  # the executable's name (``comm``): PostgreSQL's retitled processes keep "postgres"
    parent: int
    started: int  # clock ticks after boot: with the pid, tells a new process from an old one's reused pid
    cpu_ticks: int  # utime + stime


def available() -> bool:
    return (PROC / "self" / "stat").exists()


def read_stat(pid: int) -> ProcStat | None:
    try:
        text = (PROC / str(pid) / "stat").read_text()
    except OSError:  # ended, or not ours to read
        return None
    # "pid (comm) state ppid ...": comm may hold spaces and parentheses, so split after its last ")".
    name = text[text.index("(") + 1 : text.rindex(")")]
    fields = text[text.rindex(")") + 2 :].split()
    # fields[0] is field 3 (state) of proc(5): utime is field 14, stime 15, starttime 22.
    return ProcStat(pid, name, int(fields[1]), int(fields[19]), int(fields[11]) + int(fields[12]))


def all_stats() -> list[ProcStat]:
    stats = (read_stat(int(entry.name)) for entry in PROC.iterdir() if entry.name.isdigit())
    return [stat for stat in stats if stat is not None]


def server_tree(roots: Iterable[int]) -> Callable[[list[ProcStat]], list[ProcStat]]:
    """A selector of the processes ``roots`` and all their descendants."""
    roots = set(roots)

    def select(stats: list[ProcStat]) -> list[ProcStat]:
        children: dict[int, list[ProcStat]] = {}
        for stat in stats:
            children.setdefault(stat.parent, []).append(stat)
        chosen = [stat for stat in stats if stat.pid in roots]
        for stat in chosen:  # grows while it is walked: breadth first down the tree
            chosen.extend(child for child in children.get(stat.pid, []) if child.pid not in roots)
        return chosen

    return select


def exactly(pids: Iterable[int]) -> Callable[[list[ProcStat]], list[ProcStat]]:
    """A selector of the processes ``pids`` alone."""
    pids = set(pids)
    return lambda stats: [stat for stat in stats if stat.pid in pids]


def named(name: str) -> Callable[[list[ProcStat]], list[ProcStat]]:
    """A selector of every process whose executable is ``name``."""
    return lambda stats: [stat for stat in stats if stat.name == name]


def ticks_spent(before: dict[tuple[int, int], int], after: dict[tuple[int, int], int]) -> int:
    """CPU ticks spent between two samples keyed by (pid, start time): a process new in ``after`` from zero."""
    return sum(ticks - before.get(key, 0) for key, ticks in after.items())


@dataclass(frozen=True)
class CpuFigures:
    seconds: float  # CPU seconds spent in the window
    window: float  # wall-clock seconds of the window

    def per_move_ms(self, moves: int) -> float | None:
        return self.seconds * 1000 / moves if moves else None

    @property
    def core_percent(self) -> float:
        return self.seconds * 100 / self.window if self.window else 0.0


def describe(figures: CpuFigures | None, moves: int, unit: str = "move") -> str:
    """Figures as "1.23 ms of CPU per move, 45.6 % of a core" (or per ``unit``), or "n/a"."""
    if figures is None or not moves:
        return "n/a"
    return f"{figures.per_move_ms(moves):.2f} ms of CPU per {unit}, {figures.core_percent:.1f} % of a core"


class CpuWindow:
    """CPU time spent by the processes a selector picks between :meth:`start` and :meth:`stop`; every selector of a
    window is sampled from one reading of ``/proc``, so their windows are the same."""

    def __init__(self, selectors: dict[str, Callable[[list[ProcStat]], list[ProcStat]] | None]) -> None:
        self.selectors = {label: select for label, select in selectors.items() if select is not None}
        self.before: dict[str, dict[tuple[int, int], int]] = {}
        self.started_at = 0.0

    def _sample(self) -> dict[str, dict[tuple[int, int], int]]:
        stats = all_stats()
        return {
            label: {(stat.pid, stat.started): stat.cpu_ticks for stat in select(stats)}
            for label, select in self.selectors.items()
        }

    def start(self) -> None:
        if available():
            self.before = self._sample()
        self.started_at = time.perf_counter()

    def stop(self) -> dict[str, CpuFigures | None]:
        """Each selector's figures; ``None`` without ``/proc``, or when it picked no process at either end."""
        window = time.perf_counter() - self.started_at
        after = self._sample() if available() and self.before else {}
        return {
            label: (
                CpuFigures(ticks_spent(self.before[label], after[label]) / TICKS_PER_SECOND, window)
                if label in after and (self.before[label] or after[label])
                else None
            )
            for label in self.selectors
        }


def listening_pids(ports: Iterable[int]) -> list[int]:
    """The pids of this user's processes listening on local TCP ``ports`` (IPv4 or IPv6), found through the sockets'
    inodes; empty without ``/proc`` or for a port another user's process holds."""
    wanted = set(ports)
    inodes = set()
    for table in ("tcp", "tcp6"):
        try:
            lines = (PROC / "net" / table).read_text().splitlines()[1:]
        except OSError:
            continue
        for line in lines:
            fields = line.split()
            if fields[3] == LISTEN and int(fields[1].rsplit(":", 1)[1], 16) in wanted:
                inodes.add(f"socket:[{fields[9]}]")
    if not inodes:
        return []
    pids = []
    for entry in PROC.iterdir():
        if not entry.name.isdigit():
            continue
        try:
            fds = list((entry / "fd").iterdir())
        except OSError:  # ended, or not ours
            continue
        for fd in fds:
            try:
                if os.readlink(fd) in inodes:
                    pids.append(int(entry.name))
                    break
            except OSError:  # closed meanwhile
                continue
    return pids


def rss_kib(pid: int | str = "self") -> int | None:
    """Resident memory of a process in KiB, or ``None`` if it cannot be read."""
    try:
        for line in (PROC / str(pid) / "status").read_text().splitlines():
            if line.startswith("VmRSS:"):
                return int(line.split()[1])
    except OSError:
        pass
    return None
