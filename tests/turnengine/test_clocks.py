"""The pure clock arithmetic: banks, increments, caps, turn-based limits and out-of-turn windows."""

from turnengine import clocks
from turnengine.clocks import REALTIME, TURN_BASED, TimeControl

REAL = TimeControl(REALTIME, bank_ms=10_000, increment_ms=2_000, cap_ms=11_000)
DAILY = TimeControl(TURN_BASED, bank_ms=86_400_000)


def _after(clock, control, before, after, actor, now, windows=None):
    return clocks.transition(
        clock,
        control,
        before=frozenset(before),
        after=frozenset(after),
        actor=actor,
        now_ms=now,
        windows=windows or {},
    )


def test_the_clock_of_an_awaited_seat_runs_and_its_deadline_is_its_bank():
    clock = _after(clocks.initial_clock(REAL, 2), REAL, [], [0], None, now=1_000)
    assert clocks.deadlines(clock, REAL) == {0: 11_000}
    assert clocks.expired_seat(clock, REAL, 10_999) is None
    assert clocks.expired_seat(clock, REAL, 11_000) == 0


def test_a_move_takes_the_time_used_and_adds_the_increment_up_to_the_cap():
    clock = _after(clocks.initial_clock(REAL, 2), REAL, [], [0], None, now=0)
    clock = _after(clock, REAL, [0], [1], 0, now=3_000)
    assert clock["bank"][0] == 10_000 - 3_000 + 2_000
    assert clock["since"] == [None, 3_000]
    clock = _after(clock, REAL, [1], [0], 1, now=3_500)
    assert clock["bank"][1] == 11_000  # 10 000 - 500 + 2 000 is capped at 11 000


def test_a_seat_out_of_time_still_gets_the_increment_for_each_move():
    clock = clocks.initial_clock(REAL, 2)
    clock["bank"][0] = 0
    clock = _after(clock, REAL, [], [0], None, now=0)
    assert clocks.deadlines(clock, REAL) == {0: 2_000}


def test_losing_the_turn_without_moving_earns_no_increment():
    clock = _after(clocks.initial_clock(REAL, 3), REAL, [], [1], None, now=0)
    clock = _after(
        clock, REAL, [1], [2], 0, now=4_000
    )  # seat 0 spoke out of turn (Salsa): seat 1's turn passed
    assert clock["bank"][1] == 6_000


def test_turn_based_gives_the_same_time_for_every_move():
    clock = _after(clocks.initial_clock(DAILY, 2), DAILY, [], [0], None, now=5)
    assert clocks.deadlines(clock, DAILY) == {0: 86_400_005}
    clock = _after(clock, DAILY, [0], [1], 0, now=80_000_000)
    clock = _after(clock, DAILY, [1], [0], 1, now=80_000_001)
    assert clocks.deadlines(clock, DAILY) == {0: 166_400_001}


def test_an_out_of_turn_window_does_not_touch_the_bank():
    clock = _after(clocks.initial_clock(REAL, 3), REAL, [0], [1, 2], 0, now=0, windows={1: 3_000, 2: 3_000})
    assert clocks.deadlines(clock, REAL) == {1: 3_000, 2: 3_000}
    clock = _after(clock, REAL, [1, 2], [2], 1, now=1_000)
    assert clock["bank"][1] == 10_000
    assert clocks.next_deadline(clock, REAL) == 3_000


def test_no_limit_has_no_deadline():
    control = clocks.PROFILES["unlimited"]
    clock = _after(clocks.initial_clock(control, 2), control, [], [0], None, now=0)
    assert clocks.next_deadline(clock, control) is None
