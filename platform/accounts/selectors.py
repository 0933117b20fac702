"""Read-only queries about users for the profile page."""

from django.db.models import QuerySet

from accounts.models import User
from ratings.models import RatingChange
from turnengine.models import Match, Seat


def user_current_matches(*, user: User) -> QuerySet[Match]:
    """Tables the user sits at that are waiting for players or being played, newest first."""
    return (
        Match.objects.filter(seats__user=user, status__in=[Match.Status.OPEN, Match.Status.ACTIVE])
        .order_by("-created_at")
        .distinct()
    )


def user_finished_matches(*, user: User) -> QuerySet[Match]:
    """Matches the user played to the end, newest first."""
    return (
        Match.objects.filter(seats__user=user, status=Match.Status.FINISHED)
        .order_by("-finished_at")
        .distinct()
    )


def finished_games(*, user: User, matches) -> list[dict]:
    """Each finished match as the profile lists it: the player's place among the seats, whether they won (a tie
    for first shares the win), how many played, and the rating change of a ranked game."""
    matches = list(matches)
    seats = dict(Seat.objects.filter(match__in=matches, user=user).values_list("match_id", "index"))
    deltas = dict(
        RatingChange.objects.filter(match__in=matches, user=user, reversed_at__isnull=True).values_list(
            "match_id", "delta"
        )
    )
    games = []
    for match in matches:
        seat = seats.get(match.pk)
        ranking = (match.result or {}).get("ranking") or []
        place, tied = None, False
        ahead = 0
        for group in ranking:
            if seat in group:
                place, tied = ahead + 1, len(group) > 1
                break
            ahead += len(group)
        games.append(
            {
                "match": match,
                "place": place,
                "tied": tied,
                "won": place == 1,
                "players": match.num_players,
                "delta": None if match.pk not in deltas else round(deltas[match.pk]),
            }
        )
    return games
