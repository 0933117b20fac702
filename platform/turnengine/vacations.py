"""A player's vacation at their tables: each running turn-based table where they sit gets the vacation's window in
its clock (``clocks.set_vacation``: their clock does not run within it), through the match writer, which moves the
deadline and tells the table (a ``presence`` frame with the new clocks). Coming back early ends the window at that
moment, so the paused time given back is exactly the time spent away."""

from __future__ import annotations

from datetime import UTC, datetime

from turnengine import awaiting, clocks, writer
from turnengine.models import AwaitedTurn, Match, Seat
from turnengine.seat_frames import presence_frames


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
