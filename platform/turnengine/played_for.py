"""Which logged moves the computer played for a seat: the engine plays a seat whose player ran out of time or of the
disconnection grace (the row carries a ``seat_timeout`` or ``seat_autoplayed`` notice), was marked absent
(``seat_absent``) or left the game (a ``left`` connection line), until they come back (``back``, or ``reconnected``
with ``back``). Read from the action log and the kept connection lines, for whoever shows a match's moves
(the post-game analysis, the moderators' match page)."""

from __future__ import annotations

from turnengine.models import Match

PLAYED_FOR_NOTICES = ("seat_timeout", "seat_autoplayed")


def computer_played_steps(match: Match) -> set[int]:
    """The steps of ``match``'s log that the computer played for a seat rather than its player."""
    notices = list(match.presence_notices.order_by("version", "pk").values_list("version", "notice"))
    away: set[int] = set()
    steps: set[int] = set()
    for step, version, seat, events in match.actions.order_by("step").values_list(
        "step", "version", "seat", "events"
    ):
        while notices and notices[0][0] < version:
            _follow(away, notices.pop(0)[1])
        while notices and notices[0][0] == version and notices[0][1].get("type") == "left":
            _follow(away, notices.pop(0)[1])  # the moves a leave itself set off are the computer's
        if seat >= 0 and (
            seat in away
            or any(event.get("type") in PLAYED_FOR_NOTICES and event.get("seat") == seat for event in events)
        ):
            steps.add(step)
        away.update(event.get("seat") for event in events if event.get("type") == "seat_absent")
    return steps


def _follow(away: set[int], notice: dict) -> None:
    if notice.get("type") == "left":
        away.add(notice.get("seat"))
    elif notice.get("type") == "back" or (notice.get("type") == "reconnected" and notice.get("back")):
        away.discard(notice.get("seat"))
