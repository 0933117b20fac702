"""Read-only rating queries: a player's rating in a pool, leaderboards, a player's history."""

from __future__ import annotations

from django.db.models import OuterRef, QuerySet, Subquery

from ratings.elo import INITIAL_RATING, PROVISIONAL_GAMES
from ratings.models import Rating, RatingChange
from ratings.pools import pool_for

LEADERBOARD_MIN_GAMES = 5


def match_pool(match) -> str:
    """The pool a table is rated in: its game's pool for its player count, apart for tables open to bot accounts."""
    return pool_for(game=match.game, num_players=match.num_players, admits_bots=match.admits_bots)


def ratings_by_user(*, game: str, pool: str, user_ids) -> dict[int, Rating]:
    return {
        rating.user_id: rating for rating in Rating.objects.filter(game=game, pool=pool, user_id__in=user_ids)
    }


def rating_of(*, game: str, pool: str, user_id: OuterRef) -> Subquery:
    """A player's rating in a pool (None if they have none) as a subquery, for a query whose rows name players
    (``user_id``: the outer query's column): one query where :func:`ratings_by_user` would be a second."""
    return Subquery(Rating.objects.filter(user_id=user_id, game=game, pool=pool).values("rating")[:1])


def rating_value(*, user, game: str, pool: str) -> float:
    rating = Rating.objects.filter(user=user, game=game, pool=pool).values_list("rating", flat=True).first()
    return INITIAL_RATING if rating is None else rating


def leaderboard(*, game: str, pool: str, limit: int = 100) -> QuerySet[Rating]:
    """Human players with enough rated games, best first (bots are never counted as humans)."""
    return (
        Rating.objects.filter(game=game, pool=pool, games__gte=LEADERBOARD_MIN_GAMES, user__is_bot=False)
        .select_related("user")
        .order_by("-rating", "user__username")[:limit]
    )


def user_ratings(*, user) -> QuerySet[Rating]:
    return Rating.objects.filter(user=user).order_by("game", "pool")


def user_history(*, user, game: str, pool: str) -> QuerySet[RatingChange]:
    return RatingChange.objects.filter(user=user, game=game, pool=pool, reversed_at__isnull=True).order_by(
        "created_at", "pk"
    )


def is_provisional(games: int) -> bool:
    return games < PROVISIONAL_GAMES
