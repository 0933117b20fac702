"""The CPU and wall time of publishing one move's frames to Redis: channels_redis' ``group_send`` once per group
(concurrently, as the site did) against the site's pipelined ``group_send_many`` (``realtime.channel_layer``).

Publishes ``--groups`` frames of ``--size`` bytes, ``--rounds`` times each way, alternating the two ways
``--repeats`` times, and prints the process's CPU (``time.process_time``) and the wall time per publish. Needs
``REDIS_URL``::

    REDIS_URL=redis://127.0.0.1:6379/9 PYTHONPATH=platform:. .venv/bin/python bench/publish_cost.py
"""

from __future__ import annotations

import argparse
import asyncio
import os
import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path[:0] = [str(ROOT / "platform"), str(ROOT)]
os.environ.setdefault("DJANGO_SETTINGS_MODULE", "tapete.settings")

import django  # noqa: E402

django.setup()

from channels.layers import get_channel_layer  # noqa: E402
from django.conf import settings  # noqa: E402

from realtime.channel_layer import RedisPubSubLayer, group_send_many  # noqa: E402


async def measure(args: argparse.Namespace) -> None:
    layer = get_channel_layer()
    if not isinstance(layer, RedisPubSubLayer):
        sys.exit("set REDIS_URL: this measures the Redis channel layer")
    message = {"type": "frame.relay", "text": "x" * args.size}
    groups = [f"bench.publish.{n}" for n in range(args.groups)]

    async def one_by_one() -> None:
        await asyncio.gather(*(layer.group_send(group, message) for group in groups))

    async def pipelined() -> None:
        await group_send_many(layer, [(group, message) for group in groups])

    for _ in range(args.repeats):
        for name, publish in (("group_send per group", one_by_one), ("group_send_many", pipelined)):
            for _ in range(args.rounds // 10):  # warm the connection and the code
                await publish()
            cpu, wall = time.process_time(), time.perf_counter()
            for _ in range(args.rounds):
                await publish()
            cpu, wall = time.process_time() - cpu, time.perf_counter() - wall
            print(
                f"{name:22} CPU {cpu / args.rounds * 1e6:6.0f} µs  wall {wall / args.rounds * 1e6:6.0f} µs"
                f"  per publish of {args.groups} frames"
            )


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--groups", type=int, default=3, help="frames per publish (a move: two seats, spectators)")
    parser.add_argument("--size", type=int, default=2900, help="bytes per frame (a mover's view: about 2.9 KB)")
    parser.add_argument("--rounds", type=int, default=2000)
    parser.add_argument("--repeats", type=int, default=3)
    args = parser.parse_args()
    if not settings.REDIS_URL:
        sys.exit("set REDIS_URL: this measures the Redis channel layer")
    print(f"load average before: {os.getloadavg()[0]:.2f}")
    asyncio.run(measure(args))


if __name__ == "__main__":
    main()
