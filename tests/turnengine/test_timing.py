"""The engine's timing hooks (``turnengine.timing``), which the benchmarks' stage trace records: a move stamps its
stages on the database thread in order, nothing is recorded once the recorder is removed, and the stage trace
turns a move's stamps into its stages' durations."""

from __future__ import annotations

import random

import pytest

from bench.stage_trace import StampLog, recorder, stage_durations
from tests.conftest import play_one_random_action
from turnengine import timing


@pytest.fixture
def stamps():
    seen = []
    timing.install(lambda stage, match_id, version, ns: seen.append((stage, match_id, version, ns)))
    yield seen
    timing.install(None)


def test_a_move_stamps_its_stages_in_order_on_the_database_thread(start_table, stamps):
    match, users = start_table("perudo", 2)
    stamps.clear()
    version = match.version
    play_one_random_action(match, users, random.Random(1))
    stages = [stage for stage, *_ in stamps]
    assert stages == ["move", "locked", "changed", "written", "committed", "framed"]
    assert stamps[0][1:3] == (match.pk, version), "the move names its match and the version it was played at"
    times = [ns for *_, ns in stamps]
    assert times == sorted(times)
    timing.install(None)
    play_one_random_action(match, users, random.Random(2))
    assert len(stamps) == 6, "no recorder, no stamps"


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
    assert {"database thread", "  COMMIT", "handler entered -> last seat's relay done"} <= stages.keys()
    assert all(len(values) == 1 and values[0] >= 0 for values in stages.values())
