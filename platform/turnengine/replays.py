"""Replays: the state of a match after any version, rebuilt from its action log, and who may see which seat's view.

A finished match reveals everything: anyone may step through it as any seat. While it runs, a player may step
through their own view only and everyone else through the public view, so a replay never leaks a hidden card; on a
ranked table with a spectator delay, the public view stops where the spectators' does (``turnengine.spectating``).
"""

from __future__ import annotations

from turnengine.models import Match, MatchAction
from turnengine.seat_frames import match_meta, visible_events
from turnengine.spectating import is_delayed, shown_version


def replay_seats(*, match: Match, user) -> list[int | None]:
    """The seats ``user`` may watch the replay as (None = the public view)."""
    if match.seed_is_public:
        return [None, *range(match.num_players)]
    own = (
        match.seats.filter(user=user).values_list("index", flat=True).first()
        if user.is_authenticated
        else None
    )
    return [own] if own is not None else [None]


def replay_frame(*, match: Match, seat: int | None, version: int) -> dict:
    """What ``seat`` saw right after ``version``: its view, its game log so far and the events of that step."""
    version = max(1, min(version, match.version))
    if seat is None and is_delayed(match):  # no further than the table's spectators see it
        version = max(1, min(version, shown_version(match)))
    rows = list(MatchAction.objects.filter(match=match, version__lte=version).order_by("step"))
    rules = match.rules
    state = rules.initial_state(match.options, match.num_players)
    for row in rows:
        state, _events = rules.apply_action(state, row.seat, row.action)
    every_event = [event for row in rows for event in row.events]
    latest = [event for row in rows if row.version == version for event in row.events]
    finished_here = match.seed_is_public and version == match.version
    return {
        **match_meta(match),
        "status": match.status if finished_here else Match.Status.ACTIVE,
        "result": match.result if finished_here else None,
        "seat": seat,
        "step": version,
        "total": shown_version(match) if seat is None else match.version,
        "view": rules.view(state, seat),
        "legal": [],
        "events": visible_events(every_event, seat),
        "new_events": visible_events(latest, seat),
    }
