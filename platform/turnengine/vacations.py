"""A player's vacation at their tables: each running turn-based table where they sit gets the vacation's window in
its clock (``clocks.set_vacation``: their clock does not run within it), through the match writer, which moves the
deadline and tells the table (a ``presence`` frame with the new clocks). Coming back early ends the window at that
moment, so the paused time given back is exactly the time spent away.

A turn-based table that starts while a seated player is away gets their window in its first clock
(:func:`windows_at_start`, called by ``services.match_begin``: one query at the start, nothing per move). Who is
away is the alerts app's to say (``alerts.vacation``); it installs its look-up when the site starts
(``alerts.apps``), as the social app installs its block check in the engine's seats, so the engine never imports it.
"""

from __future__ import annotations

from collections.abc import Callable
from datetime import UTC, datetime

from turnengine import awaiting, clocks, writer
from turnengine.models import AwaitedTurn, Match, Seat
from turnengine.seat_frames import presence_frames


def _nobody_away(match_id: int, now: datetime) -> dict[int, tuple[datetime, datetime]]:
    return {}


_away_at: Callable[[int, datetime], dict[int, tuple[datetime, datetime]]] = _nobody_away


def install_away_lookup(lookup: Callable[[int, datetime], dict[int, tuple[datetime, datetime]]]) -> None:
    """``lookup(match_id, now)``: seat index -> (start, end) of the vacation its player is on at ``now``."""
    global _away_at
    _away_at = lookup


def windows_at_start(match: Match, now: datetime) -> None:
    """Write into the fresh clock of the starting ``match`` the vacation window of each seat whose player is away
    now (turn-based tables only: a real-time clock never pauses)."""
    if clocks.of_match(match).kind != clocks.TURN_BASED:
        return
    for seat, (start, end) in _away_at(match.pk, now).items():
        clocks.set_vacation(match.clock, seat, [clocks.epoch_ms(start), clocks.epoch_ms(end)])


def vacation_apply(user, window: tuple[int, int] | None) -> int:
    """Set ``window`` ([start, end] epoch ms; None clears it) on ``user``'s seats at running turn-based tables;
    returns how many tables changed."""
    changed = 0
    seats = Seat.objects.filter(user=user, match__status=Match.Status.ACTIVE).values_list("match_id", "index")
    for match_id, index in seats:
        with writer.locked(match_id) as change:
            match = change.match
            if match is None or match.status != Match.Status.ACTIVE or not match.clock or not awaiting.tracked(match):
                continue
            clock = {key: list(value) for key, value in match.clock.items()}
            clocks.set_vacation(clock, index, None if window is None else list(window))
            match.clock = clock
            change.commit(changed=("clock",), frames=presence_frames)
            deadline = clocks.deadlines(clock, clocks.of_match(match)).get(index)
            AwaitedTurn.objects.filter(match=match, seat=index).update(
                deadline_at=None if deadline is None else datetime.fromtimestamp(deadline / 1000, tz=UTC)
            )
            changed += 1
    return changed
