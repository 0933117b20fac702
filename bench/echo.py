"""Bare echo consumers on the same stack as the match socket (auth, origin check, channel layer): the baselines that
``bench/ws_load.py`` compares move round trips against. ``bench.echo:application`` is the site's ASGI application
with these routes added; the site itself never serves them.

* ``/ws/echo/`` sends each frame straight back to its socket.
* ``/ws/echo/<pair>/`` is the move's round trip without the engine: a frame from either socket of a pair goes
  through the channel layer to the pair's group, so it reaches both sockets, connected to different processes
  like the two seats of a table, exactly as a move's views do.
* ``/ws/echo/memory/`` answers each frame, after a full garbage collection, with the serving process's pid and
  resident memory (``{"pid": ..., "rss_kib": ...}``, ``null`` without ``/proc``): what ``bench/idle_sockets.py``
  reads before and after it connects its idle seats.
* ``/ws/echo/breakdown/`` is ``bench/idle_sockets.py --breakdown``'s: ``{"do": "before"}`` starts tracemalloc (4
  frames) if it is not tracing and keeps a snapshot and a count of the garbage collector's objects by type;
  ``{"do": "after", "per": n}`` answers with what grew since, per ``n`` sockets: the top allocations by
  ``file:line``, by the first frame in the site's own code (else the innermost outside the standard library), by
  package, the objects by type, and what each attribute of the open match sockets holds (the objects it alone
  reaches that were not there before). Tracing costs memory and time: such a run's other figures are not the
  socket's.
"""

import gc
import json
import os
import sys
import tracemalloc
import types
from collections import Counter

from channels.generic.websocket import AsyncWebsocketConsumer
from django.urls import path

from bench.proc_usage import rss_kib
from realtime.dispatch import MessageLoop
from tapete.asgi import site_application
from tapete.routing import websocket_urlpatterns


class EchoConsumer(MessageLoop, AsyncWebsocketConsumer):
    async def receive(self, text_data=None, bytes_data=None):
        await self.send(text_data=text_data, bytes_data=bytes_data)


class PairEchoConsumer(MessageLoop, AsyncWebsocketConsumer):
    async def connect(self):
        self.group = f"echo.{self.scope['url_route']['kwargs']['pair']}"
        await self.channel_layer.group_add(self.group, self.channel_name)
        await self.accept()

    async def disconnect(self, code):
        await self.channel_layer.group_discard(self.group, self.channel_name)

    async def receive(self, text_data=None, bytes_data=None):
        await self.channel_layer.group_send(self.group, {"type": "frame.relay", "text": text_data})

    async def frame_relay(self, message):
        await self.send(text_data=message["text"])


class MemoryConsumer(MessageLoop, AsyncWebsocketConsumer):
    async def receive(self, text_data=None, bytes_data=None):
        gc.collect()
        await self.send(text_data=json.dumps({"pid": os.getpid(), "rss_kib": rss_kib()}))


def object_counts() -> Counter:
    return Counter(type(item).__qualname__ for item in gc.get_objects())


def _site_frame(traceback: tracemalloc.Traceback) -> str:
    """The innermost frame of the site's own code, else the innermost outside the standard library."""
    frames = list(reversed(traceback))  # innermost first
    for frame in frames:
        if "/site-packages/" not in frame.filename and not frame.filename.startswith(sys.base_prefix):
            return f"{frame.filename.rsplit('/work/', 1)[-1]}:{frame.lineno}"
    for frame in frames:
        if not frame.filename.startswith(sys.base_prefix):
            return f"{frame.filename.rsplit('/site-packages/', 1)[-1]}:{frame.lineno}"
    return f"{frames[0].filename.rsplit('/', 1)[-1]}:{frames[0].lineno}"


def _package(traceback: tracemalloc.Traceback) -> str:
    """The package of the innermost frame outside the standard library (else ``stdlib``)."""
    for frame in reversed(traceback):
        if "/site-packages/" in frame.filename:
            return frame.filename.split("/site-packages/", 1)[1].split("/", 1)[0]
        if not frame.filename.startswith(sys.base_prefix):
            return "/".join(frame.filename.rsplit("/work/", 1)[-1].split("/")[-2:-1]) or frame.filename
    return "stdlib"


SHARED = (type, types.ModuleType, types.FunctionType, types.BuiltinFunctionType, types.MethodType)


def deep_size(root, old_ids: set[int], seen: set[int]) -> int:
    """Bytes of ``root`` and what it reaches, leaving out what ``seen`` holds, what existed before (``old_ids``),
    classes, modules and functions."""
    total, stack = 0, [root]
    while stack:
        item = stack.pop()
        if id(item) in seen or id(item) in old_ids or isinstance(item, SHARED):
            continue
        seen.add(id(item))
        total += sys.getsizeof(item)
        stack.extend(gc.get_referents(item))
    return total


def attribute_sizes(old_ids: set[int]) -> dict:
    """Per open match socket, the mean bytes each attribute reaches (the consumer's own slots first, so what two
    attributes share counts once, for the first) and the whole consumer's."""
    from realtime.consumers import MatchConsumer

    consumers = [item for item in gc.get_objects() if isinstance(item, MatchConsumer)]
    sizes: Counter = Counter()
    others = {id(item) for item in consumers}
    for consumer in consumers:
        seen = set(others) - {id(consumer)}
        sizes["(the consumer and its __dict__)"] += sys.getsizeof(consumer) + sys.getsizeof(consumer.__dict__)
        seen.update((id(consumer), id(consumer.__dict__)))
        for name, value in consumer.__dict__.items():
            sizes[name] += deep_size(value, old_ids, seen)
    count = max(1, len(consumers))
    return {
        "sockets": len(consumers),
        "bytes": {name: round(size / count) for name, size in sizes.most_common()},
    }


class BreakdownConsumer(MessageLoop, AsyncWebsocketConsumer):
    before: tuple | None = None

    async def receive(self, text_data=None, bytes_data=None):
        asked = json.loads(text_data)
        gc.collect()
        if asked["do"] == "before":
            if not tracemalloc.is_tracing():
                tracemalloc.start(4)
            BreakdownConsumer.before = (tracemalloc.take_snapshot(), object_counts())
            BreakdownConsumer.old_ids = {id(item) for item in gc.get_objects()}
            await self.send(text_data="{}")
            return
        snapshot, counts = tracemalloc.take_snapshot(), object_counts()
        old_snapshot, old_counts = BreakdownConsumer.before
        per = asked["per"]
        diffs = snapshot.compare_to(old_snapshot, "traceback")
        by_site, by_package = Counter(), Counter()
        for diff in diffs:
            by_site[_site_frame(diff.traceback)] += diff.size_diff
            by_package[_package(diff.traceback)] += diff.size_diff
        lines = [
            (
                "/".join(diff.traceback[0].filename.rsplit("/", 2)[-2:]) + f":{diff.traceback[0].lineno}",
                diff.size_diff,
            )
            for diff in snapshot.compare_to(old_snapshot, "lineno")
        ]

        def top(pairs, count=30):
            return [
                [name, round(size / per / 1024, 2)]
                for name, size in sorted(pairs, key=lambda p: -p[1])[:count]
            ]

        attributes = attribute_sizes(BreakdownConsumer.old_ids)
        grown = {name: counts[name] - old_counts.get(name, 0) for name in counts}
        await self.send(
            text_data=json.dumps(
                {
                    "total_kib": round(sum(diff.size_diff for diff in diffs) / per / 1024, 2),
                    "lines": top(lines),
                    "sites": top(by_site.items()),
                    "packages": top(by_package.items(), 20),
                    "attributes": attributes,
                    "objects": [
                        [name, round(grown_by / per, 2)]
                        for name, grown_by in sorted(grown.items(), key=lambda p: -p[1])[:40]
                    ],
                }
            )
        )


application = site_application(
    [
        path("ws/echo/", EchoConsumer.as_asgi()),
        path("ws/echo/memory/", MemoryConsumer.as_asgi()),
        path("ws/echo/breakdown/", BreakdownConsumer.as_asgi()),
        path("ws/echo/<int:pair>/", PairEchoConsumer.as_asgi()),
        *websocket_urlpatterns,  # the site's routes, its catch-all last
    ]
)
