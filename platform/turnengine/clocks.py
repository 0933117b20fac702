"""Time controls and per-seat clocks of a match. Pure functions over plain JSON; times are epoch milliseconds.

Profiles (chosen at table creation, copied onto the match):

* **real time**: each seat has a bank; the seat's clock runs while the game awaits it, and a move adds the
  increment (never above the cap). A seat whose bank is spent still gets the increment for each move.
* **turn-based**: a fixed time per move (24 h, 72 h), for asynchronous play.
* **no limit**: friendly tables only.

Out-of-turn decisions that the game awaits from several seats at once (Spicy's "no challenge" on a last card) use
the game's own short window instead of the bank (``window_ms`` of the rules), and expiring there is not a fault.

Disconnection (real time only): a seat whose sockets are all gone is ``offline`` from that moment. If the game
awaits it, its deadline becomes the disconnection plus the table's **grace** (``grace_ms`` of the time control,
30 s by default) when that comes before its bank runs out; once the grace has passed, the engine plays for the seat
at once whenever the game awaits it (as for an absent seat), until the player reconnects. Turn-based tables keep
their hours: a player may well close the browser between two moves.

Reveal pause: after a reveal the players need to see (a Dudo, a challenge), the rules may ask for a short pause
(``reveal_pause_ms`` of the rules): the clocks that start then start that much later, so nobody's time runs while
the table shows the reveal.

The clock JSON: ``bank`` (ms left per seat), ``since`` (when each seat's clock started, or None; in the future
during a reveal pause), ``window`` (the window of a seat awaited out of turn, or None), ``timeouts`` (consecutive
timeouts), ``absent`` (flags), ``offline`` (when the seat's last socket closed, or None), ``left`` (the player left
the game: only ``back`` brings them back), ``computer_played`` (the computer has played for the seat at least once:
a ranked result ranks it last, ``turnengine.writer.final_result``), ``vacation`` (turn-based: the [start, end] of the
seat's player's vacation, when their clock does not run: :func:`after_vacation`). Clocks stored before ``offline``, ``left`` and
``computer_played`` existed read as all None / False.
"""

from __future__ import annotations

from dataclasses import asdict, dataclass
from datetime import datetime

from tapete_sdk.plugin import gettext_noop

REALTIME, TURN_BASED, NO_LIMIT = "realtime", "turnbased", "none"
SECOND, MINUTE, HOUR = 1000, 60_000, 3_600_000
TIMEOUTS_BEFORE_ABSENT = 2
DEFAULT_GRACE_MS = 30 * SECOND
MIN_GRACE_MS, MAX_GRACE_MS = 1 * SECOND, 10 * MINUTE


@dataclass(frozen=True)
class TimeControl:
    kind: str
    bank_ms: int = 0
    increment_ms: int = 0
    cap_ms: int = 0
    label: str = ""
    grace_ms: int = 0  # real time: how long a disconnected seat the game awaits keeps its turn (0: its bank)

    def to_json(self) -> dict:
        return {key: value for key, value in asdict(self).items() if key != "label"}

    @classmethod
    def from_json(cls, data: dict) -> TimeControl:
        keys = ("kind", "bank_ms", "increment_ms", "cap_ms", "grace_ms")
        return cls(**{key: data[key] for key in keys if key in data})


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


def of_match(match) -> TimeControl:
    """The time control a match was created with."""
    return TimeControl.from_json(match.time_control)


def epoch_ms(moment: datetime) -> int:
    return int(moment.timestamp() * 1000)


def profile_json(name: str, grace_ms: int = DEFAULT_GRACE_MS) -> dict:
    """What a match stores: the profile's name and its settings (so later changes to a profile leave it alone),
    with the table's disconnection grace on real-time profiles."""
    control = PROFILES[name].to_json()
    control["grace_ms"] = grace_ms if control["kind"] == REALTIME else 0
    return {"profile": name, **control}


def initial_clock(control: TimeControl, num_players: int) -> dict:
    return {
        "bank": [control.bank_ms] * num_players,
        "since": [None] * num_players,
        "window": [None] * num_players,
        "timeouts": [0] * num_players,
        "absent": [False] * num_players,
        "offline": [None] * num_players,
        "left": [False] * num_players,
    }


def offline_since(clock: dict, seat: int) -> int | None:
    return (clock.get("offline") or [None] * len(clock["bank"]))[seat]


def has_left(clock: dict, seat: int) -> bool:
    return bool((clock.get("left") or [False] * len(clock["bank"]))[seat])


def set_offline(clock: dict, seat: int, since_ms: int | None) -> None:
    """Mark a seat disconnected since ``since_ms`` (None: connected again); upgrades an older clock in place."""
    clock.setdefault("offline", [None] * len(clock["bank"]))[seat] = since_ms


def set_left(clock: dict, seat: int, left: bool) -> None:
    clock.setdefault("left", [False] * len(clock["bank"]))[seat] = left


def computer_played(clock: dict, seat: int) -> bool:
    return bool((clock.get("computer_played") or [False] * len(clock["bank"]))[seat])


def set_computer_played(clock: dict, seat: int) -> None:
    """Record that the computer played for ``seat`` (only when it does: a player's own move costs nothing)."""
    clock.setdefault("computer_played", [False] * len(clock["bank"]))[seat] = True


def grace_end(clock: dict, control: TimeControl, seat: int) -> int | None:
    """When a disconnected real-time seat's grace ends (epoch ms), or None if no grace applies to it."""
    offline = offline_since(clock, seat)
    if control.kind != REALTIME or not control.grace_ms or offline is None:
        return None
    return offline + control.grace_ms


def played_for(clock: dict, control: TimeControl, seat: int, now_ms: int) -> bool:
    """Whether the engine plays for ``seat`` at once when the game awaits it: absent, or disconnected beyond
    the grace."""
    if clock["absent"][seat]:
        return True
    end = grace_end(clock, control, seat)
    return end is not None and end <= now_ms


def all_away(clock: dict, control: TimeControl, now_ms: int) -> bool:
    """Whether no seat's player is there any more: every seat absent, left, or disconnected past the grace."""
    return all(played_for(clock, control, seat, now_ms) for seat in range(len(clock["bank"])))


def transition(
    clock: dict,
    control: TimeControl,
    *,
    before: frozenset[int],
    after: frozenset[int],
    actor: int | None,
    now_ms: int,
    windows: dict[int, int | None],
    pause_ms: int = 0,
) -> dict:
    """The clock after a committed transition: seats no longer awaited stop (real time: the time used is taken
    from the bank, and the seat that moved gets the increment), newly awaited seats start (``pause_ms`` later,
    after a reveal)."""
    clock = {key: list(value) for key, value in clock.items()}
    for seat in sorted(before | after):
        running = clock["since"][seat] is not None
        if running and (seat not in after or seat == actor):
            _stop(clock, control, seat, now_ms, moved=seat == actor)
            running = False
        if seat in after and not running:
            _start(clock, control, seat, now_ms + pause_ms, windows.get(seat))
    return clock


def _stop(clock: dict, control: TimeControl, seat: int, now_ms: int, *, moved: bool) -> None:
    if control.kind == REALTIME and clock["window"][seat] is None:
        used = max(0, now_ms - clock["since"][seat])  # a move during a reveal pause uses no time
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


def rearm(clock: dict, seats: set[int], now_ms: int) -> bool:
    """Restart the running clocks of ``seats`` at ``now_ms`` with the time each had when it started: the view they
    must answer reached them late (``realtime.delivery``). A running clock's time is taken from the bank only
    when it stops, so moving its start gives back all the time it ran. Returns whether a clock changed."""
    changed = False
    for seat in seats:
        since = clock["since"][seat]
        if since is not None and since < now_ms:
            clock["since"][seat] = now_ms
            changed = True
    return changed


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
            result[seat] = after_vacation(since + control.bank_ms, since, vacation_of(clock, seat))
        end = grace_end(clock, control, seat)
        if end is not None and seat in result:
            result[seat] = min(result[seat], max(since, end))
    return result


def vacation_of(clock: dict, seat: int) -> list[int] | None:
    """The seat's player's vacation ([start, end] epoch ms) while it concerns this table, or None."""
    return (clock.get("vacation") or [None] * len(clock["bank"]))[seat]


def set_vacation(clock: dict, seat: int, window: list[int] | None) -> None:
    """Pause the seat's turn-based clock from ``window[0]`` to ``window[1]`` (None: no vacation)."""
    clock.setdefault("vacation", [None] * len(clock["bank"]))[seat] = window


def after_vacation(deadline: int, since: int, window: list[int] | None) -> int:
    """A turn-based deadline moved on by the part of the player's vacation that falls within their turn: the time
    counted from ``since`` to the new deadline, less the vacation, is the time the turn had."""
    if window is None:
        return deadline
    start, end = max(since, window[0]), window[1]
    if start >= end or deadline <= start:
        return deadline
    return deadline + (end - start)


def next_deadline(clock: dict, control: TimeControl) -> int | None:
    return min(deadlines(clock, control).values(), default=None)


def expired_seat(clock: dict, control: TimeControl, now_ms: int) -> int | None:
    """The seat whose clock ran out first, if any has by ``now_ms``."""
    expired = [(deadline, seat) for seat, deadline in deadlines(clock, control).items() if deadline <= now_ms]
    return min(expired)[1] if expired else None
