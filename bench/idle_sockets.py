"""Idle sockets: how fast one server process takes seats connecting one after another, and what each idle connected
socket costs it in memory.

Creates ``--seats / 2`` started 2-seat tables of ``--game``, starts one server of ``bench.echo:application`` (the
site with the echo routes) under ``python -m tapete.serve`` (or targets a running one with ``--target``), and
connects every seat to it one after another: a seat is connected when it has its first view (the handshake, the
session read, the snapshot). Prints the time to connect them all, each seat's handshake and first-view times and
the CPU a seat cost the server, PostgreSQL and the load generator while they connected (as ``ws_load.py`` reads it),
then the server's resident memory (``VmRSS`` of ``/proc/<pid>/status``, read by the server itself through
``/ws/echo/memory/`` after a full garbage collection and ``--settle`` seconds) before and after, and the growth per
idle connected socket. Before the baseline, ``--warm`` seats connect and close, so the first connections' one-off
costs (imports, caches) are not counted as the sockets'. ``--breakdown`` also prints where that memory went, per
socket (tracemalloc's growth by line, by the site's calling line and by package, and the objects by type:
``bench/echo.py``'s ``/ws/echo/breakdown/``); tracing slows the server and costs memory of its own, so such a run's
times and resident memory are not the ones to quote.

Embedded default::

    PYTHONPATH=platform:. .venv/bin/python bench/idle_sockets.py --seats 200

PostgreSQL + Redis (the issue's figure: 1,000 seats)::

    DATABASE_URL=postgres://postgres@127.0.0.1:5432/tapete_bench REDIS_URL=redis://127.0.0.1:6379/1 \\
      PYTHONPATH=platform:. .venv/bin/python bench/idle_sockets.py --seats 1000
"""

from __future__ import annotations

import argparse
import asyncio
import sys
import time

import orjson
import websockets
from django.core.management import call_command

from bench.proc_usage import CpuWindow
from bench.ws_load import backend_name, create_tables, open_socket, percentile, report_cpu, usage_selectors
from tests.servers import daphne_servers


async def connect_seat(address: str, match_id: int, key: str) -> tuple[object, float, float]:
    """(the socket, seconds to its handshake, seconds to its first view)."""
    started = time.perf_counter()
    socket = await open_socket(address, f"/ws/match/{match_id}/", key)
    handshake = time.perf_counter() - started
    while orjson.loads(await asyncio.wait_for(socket.recv(), 30))["t"] != "view":
        pass
    return socket, handshake, time.perf_counter() - started


async def server_memory(probe) -> tuple[int, int | None]:
    """(the server's pid, its resident KiB after a full collection)."""
    await probe.send("{}")
    answer = orjson.loads(await asyncio.wait_for(probe.recv(), 30))
    return answer["pid"], answer["rss_kib"]


async def measure(args, address: str, tables, warm) -> dict:
    probe = await open_socket(address, "/ws/echo/memory/", None)  # open throughout: counted in both readings
    warming = [await connect_seat(address, match_id, key) for match_id, keys in warm for key in keys]
    for socket, _handshake, _view in warming:
        await socket.close()
    await asyncio.sleep(args.settle)
    pid, before = await server_memory(probe)
    if args.breakdown:
        breakdown = await open_socket(address, "/ws/echo/breakdown/", None)
        await breakdown.send(orjson.dumps({"do": "before"}).decode())
        await asyncio.wait_for(breakdown.recv(), 120)
    seats = [(match_id, key) for match_id, keys in tables for key in keys][: args.seats]
    connected, handshakes, views, errors = [], [], [], {}
    cpu = CpuWindow(usage_selectors([address]))
    cpu.start()
    started = time.perf_counter()
    for match_id, key in seats:
        try:
            socket, handshake, view = await connect_seat(address, match_id, key)
        except (OSError, TimeoutError, websockets.WebSocketException) as error:
            errors[type(error).__name__] = errors.get(type(error).__name__, 0) + 1
            continue
        connected.append(socket)
        handshakes.append(handshake * 1000)
        views.append(view * 1000)
    elapsed = time.perf_counter() - started
    spent = cpu.stop()
    print(f"{len(connected)} seats connected in {elapsed:.1f} s; settling {args.settle:g} s", file=sys.stderr)
    await asyncio.sleep(args.settle)
    _pid, after = await server_memory(probe)
    grown = None
    if args.breakdown:
        await breakdown.send(orjson.dumps({"do": "after", "per": max(1, len(connected))}).decode())
        grown = orjson.loads(await asyncio.wait_for(breakdown.recv(), 600))
        await breakdown.close()
    for socket in connected:
        await socket.close()
    await probe.close()
    return {
        "pid": pid,
        "before": before,
        "after": after,
        "elapsed": elapsed,
        "connected": len(connected),
        "handshakes": handshakes,
        "views": views,
        "errors": errors,
        "cpu": spent,
        "breakdown": grown,
    }


def report(args, result: dict) -> None:
    connected, elapsed = result["connected"], result["elapsed"]
    print(
        f"stack: {backend_name()}, 1 server process, game {args.game}, {args.seats} seats one after another"
    )
    print(
        f"connected {connected} seats in {elapsed:.2f} s ({connected / elapsed:.1f} seats/s); errors: "
        f"{result['errors'] or 'none'}"
    )
    for label, values in (("handshake", result["handshakes"]), ("handshake to first view", result["views"])):
        print(
            f"  each seat's {label} ms: p50 {percentile(values, 0.5):.1f}  p95 {percentile(values, 0.95):.1f}  "
            f"p99 {percentile(values, 0.99):.1f}  max {max(values, default=float('nan')):.1f}"
        )
    report_cpu(result["cpu"], connected, elapsed, unit="seat")
    if result["breakdown"]:
        print_breakdown(result["breakdown"])
    before, after = result["before"], result["after"]
    if before is None or after is None or not connected:
        print("server resident memory: n/a (no /proc on the server's machine)")
        return
    print(
        f"server process {result['pid']} resident memory (VmRSS after a gc and {args.settle:g} s): "
        f"{before:,} KiB before, {after:,} KiB with the seats connected: "
        f"{(after - before) / connected:.1f} KiB per idle connected socket"
    )


def print_breakdown(grown: dict) -> None:
    print(f"traced growth per idle socket: {grown['total_kib']:.2f} KiB")
    for key, title, unit in (
        ("sites", "by the site's calling line (else the innermost outside the standard library)", "KiB"),
        ("lines", "by the allocating line", "KiB"),
        ("packages", "by package (the innermost frame outside the standard library)", "KiB"),
        ("objects", "objects the garbage collector tracks, by type", ""),
    ):
        print(f"  {title}, per socket:")
        for name, value in grown[key]:
            print(f"    {value:>9.2f} {unit:<3} {name}")
    attributes = grown["attributes"]
    print(
        f"  each match socket's attributes, the objects new since the baseline they reach ({attributes['sockets']}):"
    )
    for name, size in attributes["bytes"].items():
        print(f"    {size / 1024:>9.2f} KiB {name}")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--seats", type=int, default=1000, help="seats to connect (two per table)")
    parser.add_argument("--game", default="chinesecheckers")
    parser.add_argument("--warm", type=int, default=20, help="seats connected and closed before the baseline")
    parser.add_argument("--settle", type=float, default=3.0, help="seconds before each memory reading")
    parser.add_argument("--server", default="tapete.serve", help="the module the server runs (or daphne)")
    parser.add_argument("--breakdown", action="store_true", help="also print where the memory went (traced)")
    parser.add_argument("--target", help="host:port of a running server of bench.echo:application")
    args = parser.parse_args()
    call_command("migrate", verbosity=0)
    tables = create_tables(args.game, (args.seats + 1) // 2 + (args.warm + 1) // 2)
    warm, tables = tables[: (args.warm + 1) // 2], tables[(args.warm + 1) // 2 :]
    print(f"{len(tables)} tables created", file=sys.stderr)
    if args.target:
        result = asyncio.run(measure(args, args.target, tables, warm))
    else:
        # Every seat comes from 127.0.0.1: lift the per-address socket limit.
        env = {"DJANGO_DEBUG": "false", "TAPETE_WS_SOCKETS_PER_IP": "1000000"}
        if args.breakdown:  # the traced server is slow: no socket dropped for a late pong
            env.update(TAPETE_WS_PING_INTERVAL="3600", TAPETE_WS_PING_TIMEOUT="3600")
        with daphne_servers(1, env, "bench.echo:application", args.server) as [port]:
            result = asyncio.run(measure(args, f"127.0.0.1:{port}", tables, warm))
    report(args, result)


if __name__ == "__main__":
    main()
