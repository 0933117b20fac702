"""Time controls and per-seat clocks of a match. Pure functions over plain JSON; times are epoch milliseconds.

Profiles (chosen at table creation, copied onto the match):

* **real time**: each seat has a bank; the seat's clock runs while the game awaits it, and a move adds the
  increment (never above the cap). A seat whose bank is spent still gets the increment for each move.
* **turn-based**: a fixed time per move (24 h, 72 h), for asynchronous play.
* **no limit**: friendly tables only.

Out-of-turn decisions that the game awaits from several seats at once (Spicy's "no challenge" on a last card) use
the game's own short window instead of the bank (``window_ms`` of the rules), and expiring there is not a fault.

The clock JSON: ``bank`` (ms left per seat), ``since`` (when each seat's clock started, or None), ``window``
(the window of a seat awaited out of turn, or None), ``timeouts`` (consecutive timeouts), ``absent`` (flags).
"""

from __future__ import annotations

from dataclasses import asdict, dataclass

from turnengine.plugin import gettext_noop

REALTIME, TURN_BASED, NO_LIMIT = "realtime", "turnbased", "none"
SECOND, MINUTE, HOUR = 1000, 60_000, 3_600_000
TIMEOUTS_BEFORE_ABSENT = 2


@dataclass(frozen=True)
class TimeControl:
    kind: str
    bank_ms: int = 0
    increment_ms: int = 0
    cap_ms: int = 0
    label: str = ""

    def to_json(self) -> dict:
        return {key: value for key, value in asdict(self).items() if key != "label"}

    @classmethod
    def from_json(cls, data: dict) -> TimeControl:
        return cls(**{key: data[key] for key in ("kind", "bank_ms", "increment_ms", "cap_ms") if key in data})


PROFILES: dict[str, TimeControl] = {
    "blitz": TimeControl(
        REALTIME, 2 * MINUTE, 5 * SECOND, 3 * MINUTE, gettext_noop("Quick: 2 min + 5 s a move")
    ),
    "normal": TimeControl(
        REALTIME, 5 * MINUTE, 10 * SECOND, 8 * MINUTE, gettext_noop("Normal: 5 min + 10 s a move")
    ),
    "slow": TimeControl(
        REALTIME, 15 * MINUTE, 20 * SECOND, 20 * MINUTE, gettext_noop("Slow: 15 min + 20 s a move")
    ),
    "daily": TimeControl(TURN_BASED, 24 * HOUR, label=gettext_noop("Turn-based: 24 hours a move")),
    "relaxed": TimeControl(TURN_BASED, 72 * HOUR, label=gettext_noop("Turn-based: 72 hours a move")),
    "unlimited": TimeControl(NO_LIMIT, label=gettext_noop("No time limit (friendly tables only)")),
}
DEFAULT_PROFILE = "normal"


def profile_json(name: str) -> dict:
    """What a match stores: the profile's name and its settings (so later changes to a profile leave it alone)."""
    return {"profile": name, **PROFILES[name].to_json()}


def initial_clock(control: TimeControl, num_players: int) -> dict:
    return {
        "bank": [control.bank_ms] * num_players,
        "since": [None] * num_players,
        "window": [None] * num_players,
        "timeouts": [0] * num_players,
        "absent": [False] * num_players,
    }


def transition(
    clock: dict,
    control: TimeControl,
    *,
    before: frozenset[int],
    after: frozenset[int],
    actor: int | None,
    now_ms: int,
    windows: dict[int, int | None],
) -> dict:
    """The clock after a committed transition: seats no longer awaited stop (real time: the time used is taken
    from the bank, and the seat that moved gets the increment), newly awaited seats start."""
    clock = {key: list(value) for key, value in clock.items()}
    for seat in sorted(before | after):
        running = clock["since"][seat] is not None
        if running and (seat not in after or seat == actor):
            _stop(clock, control, seat, now_ms, moved=seat == actor)
            running = False
        if seat in after and not running:
            _start(clock, control, seat, now_ms, windows.get(seat))
    return clock


def _stop(clock: dict, control: TimeControl, seat: int, now_ms: int, *, moved: bool) -> None:
    if control.kind == REALTIME and clock["window"][seat] is None:
        used = now_ms - clock["since"][seat]
        clock["bank"][seat] = max(0, clock["bank"][seat] - used)
        if moved:
            clock["bank"][seat] = min(control.cap_ms, clock["bank"][seat] + control.increment_ms)
    clock["since"][seat] = None
    clock["window"][seat] = None


def _start(clock: dict, control: TimeControl, seat: int, now_ms: int, window: int | None) -> None:
    clock["since"][seat] = now_ms
    clock["window"][seat] = window
    if control.kind == REALTIME and window is None:
        clock["bank"][seat] = max(clock["bank"][seat], control.increment_ms)


def deadlines(clock: dict, control: TimeControl) -> dict[int, int]:
    """Seat -> the epoch ms at which its running clock expires."""
    result = {}
    for seat, since in enumerate(clock["since"]):
        if since is None:
            continue
        if clock["window"][seat] is not None:
            result[seat] = since + clock["window"][seat]
        elif control.kind == REALTIME:
            result[seat] = since + clock["bank"][seat]
        elif control.kind == TURN_BASED:
            result[seat] = since + control.bank_ms
    return result


def next_deadline(clock: dict, control: TimeControl) -> int | None:
    return min(deadlines(clock, control).values(), default=None)


def expired_seat(clock: dict, control: TimeControl, now_ms: int) -> int | None:
    """The seat whose clock ran out first, if any has by ``now_ms``."""
    expired = [(deadline, seat) for seat, deadline in deadlines(clock, control).items() if deadline <= now_ms]
    return min(expired)[1] if expired else None
