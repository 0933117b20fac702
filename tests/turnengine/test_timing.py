"""The timing hooks (``turnengine.timing``), which the benchmarks' stage trace records: they sit only at the move's
two boundaries in the transport (the mover's socket, each socket's relay), the engine takes none, and the stage trace
turns a move's stamps into its stages' durations."""

from __future__ import annotations

import random
from pathlib import Path

import pytest

from bench.stage_trace import StampLog, recorder, stage_durations
from tests.conftest import play_one_random_action
from turnengine import timing

ROOT = Path(__file__).resolve().parents[2]


@pytest.fixture
def stamps():
    seen = []
    timing.install(lambda stage, match_id, version, ns: seen.append((stage, match_id, version, ns)))
    yield seen
    timing.install(None)


def test_the_engine_takes_no_stamp_the_transport_stamps_its_two_boundaries(start_table, stamps):
    match, users = start_table("perudo", 2)
    stamps.clear()
    play_one_random_action(match, users, random.Random(1))
    assert stamps == [], "a move through the engine alone stamps nothing"
    consumer_and_delivery = {
        name: (ROOT / "platform" / "realtime" / name).read_text() for name in ("consumers.py", "delivery.py")
    }
    assert 'timing.stamp("act"' in consumer_and_delivery["consumers.py"]
    assert 'timing.stamp("relay"' in consumer_and_delivery["delivery.py"]
    stamping = sorted(
        str(path.relative_to(ROOT))
        for path in (ROOT / "platform").rglob("*.py")
        if "timing.stamp(" in path.read_text()
    )
    assert stamping == ["platform/realtime/consumers.py", "platform/realtime/delivery.py"]


def test_the_stage_trace_reads_a_moves_stamps_as_its_stages(start_table, tmp_path):
    match, users = start_table("perudo", 2)
    log = StampLog(str(tmp_path))
    record = recorder(log)
    timing.install(record)
    try:
        version = match.version
        timing.stamp(
            "act", match.pk, version
        )  # what the socket stamps around the move, and each seat's relay
        play_one_random_action(match, users, random.Random(3))
        for _seat in range(2):
            timing.stamp("relay", match.pk, version + 1)
            timing.stamp("relayed", match.pk, version + 1)
        timing.stamp("acted", match.pk, version)
    finally:
        timing.install(None)
    log.flush()
    moves, stages = stage_durations(str(tmp_path))
    assert moves == 1
    assert {"handler (database thread, own view, broadcast)", "handler entered -> last seat's relay done"} <= set(
        stages
    )
    assert all(len(values) == 1 and values[0] >= 0 for values in stages.values())
