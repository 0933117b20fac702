"""Objects grouped by key and held weakly: this process's sockets by user and by IP address (``realtime.ratelimit``)
and by table (``realtime.heartbeat``). An object that is collected leaves its group, and a group left empty goes.

A dict of ``weakref.WeakSet``s did the same, but a WeakSet holding one socket takes about 1 KiB (its set, its
pending-removals list, its callback and the rest), and most users and tables have one or two sockets in a process:
each group here is a plain set of weak references, about a third of that (``bench/idle_sockets.py --breakdown``).
"""

from __future__ import annotations

import weakref
from collections.abc import Callable, Hashable
from functools import partial


class WeakGroups:
    __slots__ = ("_groups",)

    def __init__(self) -> None:
        self._groups: dict[Hashable, set[weakref.ref]] = {}

    def add(self, key: Hashable, item: object) -> None:
        refs = self._groups.setdefault(key, set())
        if weakref.ref(item) not in refs:
            refs.add(weakref.ref(item, partial(self._collected, key)))

    def discard(self, key: Hashable, item: object) -> None:
        """Take ``item`` out of ``key``'s group (nothing if it is not there); an emptied group goes."""
        self._remove(key, weakref.ref(item))

    def _collected(self, key: Hashable, ref: weakref.ref) -> None:
        self._remove(key, ref)

    def _remove(self, key: Hashable, ref: weakref.ref) -> None:
        refs = self._groups.get(key)
        if refs is not None:
            refs.discard(ref)  # a live reference equals every other to the same object
            if not refs:
                del self._groups[key]

    def count(self, key: Hashable) -> int:
        return len(self._groups.get(key, ()))

    def members(self, where: Callable[[Hashable], bool] | None = None) -> dict[Hashable, list]:
        """Every non-empty group's living objects (of the keys ``where`` accepts, if given), as lists (safe to iterate
        across awaits)."""
        groups = {
            key: [item for ref in refs if (item := ref()) is not None]
            for key, refs in self._groups.items()
            if where is None or where(key)
        }
        return {key: items for key, items in groups.items() if items}

    def __contains__(self, key: Hashable) -> bool:
        return key in self._groups

    def __bool__(self) -> bool:
        return bool(self._groups)
