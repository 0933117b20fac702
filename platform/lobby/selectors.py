"""Read-only queries of the lobby."""

from django.db.models import Count, Prefetch, QuerySet

from ratings.selectors import match_pool, ratings_by_user
from turnengine.models import Match, Seat


def open_tables(*, game: str) -> QuerySet[Match]:
    """Tables of ``game`` waiting for players, oldest first, with their seated players."""
    return (
        Match.objects.filter(game=game, status=Match.Status.OPEN)
        .select_related("created_by")
        .prefetch_related(Prefetch("seats", queryset=Seat.objects.select_related("user").order_by("index")))
        .annotate(seated=Count("seats"))
        .order_by("created_at")
    )


def running_tables(*, game: str, limit: int = 20) -> QuerySet[Match]:
    """Tables of ``game`` being played that anyone may watch, newest first (a table that allows no spectators is
    not listed: its only link would be a "Watch" that refuses)."""
    return (
        Match.objects.filter(game=game, status=Match.Status.ACTIVE, spectators_allowed=True)
        .prefetch_related(Prefetch("seats", queryset=Seat.objects.select_related("user").order_by("index")))
        .order_by("-started_at")[:limit]
    )


def with_ratings(matches) -> list[Match]:
    """Attach ``players``: (username, rating in the table's pool or None, is a bot, is a guest), and
    ``player_names``, to each match, for the lobby."""
    matches = list(matches)
    for match in matches:
        seats = list(match.seats.all())
        ratings = ratings_by_user(
            game=match.game, pool=match_pool(match), user_ids=[seat.user_id for seat in seats]
        )
        match.player_names = [seat.user.username for seat in seats]
        match.players = [
            (
                seat.user.username,
                ratings[seat.user_id].display if seat.user_id in ratings else None,
                seat.user.is_bot,
                seat.user.is_guest,
            )
            for seat in seats
        ]
    return matches
