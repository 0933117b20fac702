"""Read-only queries of the lobby."""

from django.db.models import Count, Prefetch, QuerySet

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
    """Tables of ``game`` being played (for spectators), newest first."""
    return (
        Match.objects.filter(game=game, status=Match.Status.ACTIVE)
        .prefetch_related(Prefetch("seats", queryset=Seat.objects.select_related("user").order_by("index")))
        .order_by("-started_at")[:limit]
    )
