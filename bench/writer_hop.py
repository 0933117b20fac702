"""The CPU of a socket's hop to the writers' thread and back, without the writer: the site's hop
(``realtime.broadcast._collect_apart``: asyncio's executor hop and the thread's one connection looked after) against
Channels' ``database_sync_to_async`` on the same thread (asgiref's ``SyncToAsync`` and ``close_old_connections``
for every alias), alternating, on the server's event loop (uvloop). A move takes one such hop on PostgreSQL.

Prints, for each round, each hop's process CPU (``time.process_time``: both threads) and wall time per call::

    PYTHONPATH=platform:. .venv/bin/python bench/writer_hop.py --calls 20000 --rounds 3
"""

from __future__ import annotations

import argparse
import os
import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path[:0] = [str(ROOT / "platform"), str(ROOT)]
os.environ.setdefault("DJANGO_SETTINGS_MODULE", "tapete.settings")

import django  # noqa: E402

django.setup()

import uvloop  # noqa: E402
from channels.db import database_sync_to_async  # noqa: E402

from realtime import broadcast  # noqa: E402
from turnengine import outbox  # noqa: E402


def _nothing() -> None:
    """A writer that commits nothing: the hop alone."""


async def _site(collected: list) -> None:
    await broadcast._collect_apart(collected, _nothing)


_channels_hop = database_sync_to_async(outbox.collect_into, thread_sensitive=False, executor=broadcast._writer_thread)


async def _channels(collected: list) -> None:
    await _channels_hop(collected, _nothing)


async def _measure(hop, calls: int) -> tuple[float, float]:
    collected: list = []
    for _ in range(calls // 20):  # warm the thread and the caches
        await hop(collected)
    cpu, wall = time.process_time(), time.perf_counter()
    for _ in range(calls):
        await hop(collected)
    return (time.process_time() - cpu) / calls * 1e6, (time.perf_counter() - wall) / calls * 1e6


async def _main(calls: int, rounds: int) -> None:
    for number in range(1, rounds + 1):
        for name, hop in (("channels", _channels), ("site", _site)):
            cpu, wall = await _measure(hop, calls)
            print(f"round {number} {name:>8}: {cpu:6.1f} µs of CPU a hop, {wall:6.1f} µs wall")


if __name__ == "__main__":
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--calls", type=int, default=20000)
    parser.add_argument("--rounds", type=int, default=3)
    args = parser.parse_args()
    uvloop.run(_main(args.calls, args.rounds))
