"""What the "Your move" page reads: a player's awaited tables, oldest first, with the other players' names."""

from __future__ import annotations

from django.utils.translation import gettext

from turnengine.models import AwaitedTurn, Seat


def awaited_tables(user) -> list[AwaitedTurn]:
    """``user``'s awaited turns, the longest-waiting first, each with ``opponents`` (the other players' names)."""
    turns = list(AwaitedTurn.objects.filter(user=user).select_related("match").order_by("since", "pk"))
    names: dict[int, list[str]] = {}
    seats = Seat.objects.filter(match_id__in=[turn.match_id for turn in turns]).exclude(user=user)
    for match_id, name in seats.order_by("match_id", "index").values_list("match_id", "user__username"):
        names.setdefault(match_id, []).append(name)
    for turn in turns:
        turn.opponents = names.get(turn.match_id, [])
        turn.game_name = gettext(turn.match.rules.name)
    return turns


def next_awaited(user, *, after: int | None = None) -> int | None:
    """The table that has waited longest for ``user``'s move; leaving the table ``after``, the one after it in that
    order (back to the first after the last), so that clicking on goes through them all."""
    tables = list(
        AwaitedTurn.objects.filter(user=user).order_by("since", "pk").values_list("match_id", flat=True)
    )
    if after in tables:
        position = tables.index(after)
        tables = tables[position + 1 :] + tables[:position]
    return tables[0] if tables else None
