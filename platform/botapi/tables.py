"""What the Bot API returns: accounts, games, tables, a seat's snapshot and analyses, as plain JSON.

A running match is described only by public facts (who sits where, the status, the version) and, in
:func:`table_snapshot`, by the caller's own seat's view (a spectator's view for anyone not seated): the same frame
the table websocket sends, built by ``turnengine.services`` from ``rules.view``.
"""

from __future__ import annotations

import orjson
from django.db.models import Prefetch
from django.utils.translation import gettext as _

from botapi.analysis.presentation import analysis_context
from botapi.analysis.words import has_analysis
from botapi.errors import ApiError
from turnengine import bot_seats, clocks, seat_frames
from turnengine.models import Match, Seat

LIST_LIMIT = 100


def account_json(token) -> dict:
    return {
        "username": token.user.username,
        "bot": token.user.is_bot,
        "scopes": token.scopes,
        "token_name": token.name,
    }


def game_json(rules) -> dict:
    return {
        "key": rules.key,
        "name": rules.name,
        "min_players": rules.min_players,
        "max_players": rules.max_players,
        "options": [
            {
                "name": option.name,
                "kind": option.kind,
                "default": option.default,
                "label": _(option.label),
                "help": _(option.help),
                "choices": [value for value, _label in option.choices] or None,
                "minimum": option.minimum,
                "maximum": option.maximum,
            }
            for option in rules.options
        ],
        "bot_levels": list(bot_seats.levels(rules.key)),
        "time_controls": list(clocks.PROFILES),
    }


def _matches():
    return Match.objects.select_related("created_by").prefetch_related(
        Prefetch("seats", queryset=Seat.objects.select_related("user").order_by("index"))
    )


def match_or_404(match_id: int) -> Match:
    match = _matches().filter(pk=match_id).first()
    if match is None:
        raise ApiError("not_found")
    return match


def seat_of(match: Match, user) -> int | None:
    return next((seat.index for seat in match.seats.all() if seat.user_id == user.pk), None)


def table_list(*, user, game: str | None, status: str, mine: bool) -> list[dict]:
    matches = _matches().filter(status=status)
    if game:
        matches = matches.filter(game=game)
    if mine:
        matches = matches.filter(seats__user=user)
    order = "created_at" if status == Match.Status.OPEN else "-pk"
    return [table_json(match, user=user) for match in matches.order_by(order)[:LIST_LIMIT]]


def table_json(match: Match, *, user) -> dict:
    seats = list(match.seats.all())
    return {
        "id": match.pk,
        "game": match.game,
        "status": match.status,
        "num_players": match.num_players,
        "options": match.options,
        "ranked": match.ranked,
        "allow_bots": match.admits_bots,
        "time_control": (match.time_control or {}).get("profile"),
        "created_by": match.created_by.username,
        "seats": [
            {"seat": seat.index, "username": seat.user.username, "bot": seat.user.is_bot} for seat in seats
        ],
        "your_seat": next((seat.index for seat in seats if seat.user_id == user.pk), None),
        "version": match.version,
        "result": match.result if match.status == Match.Status.FINISHED else None,
        "websocket": f"/ws/match/{match.pk}/",
    }


def table_snapshot(match: Match, *, user) -> dict:
    """The websocket's snapshot frame for the caller's seat (the spectators' view if not seated)."""
    return orjson.loads(seat_frames.match_snapshot(match=match, seat=seat_of(match, user)))


def analysis_json(match: Match) -> dict:
    """The analysis of a finished match in the request's language; asks for it if an older match has none."""
    if not has_analysis(match.game):
        raise ApiError("no_analysis")
    if match.status != Match.Status.FINISHED:
        raise ApiError("match_not_finished")
    context = analysis_context(match=match)
    if context is None:
        raise ApiError("analysis_pending")
    return {
        "match_id": match.pk,
        "game": match.game,
        "summary": context["summary"],
        "notes": context["notes"],
        "highlights": context["highlights"],
        "data": context["data"],
    }
