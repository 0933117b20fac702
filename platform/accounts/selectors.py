"""Read-only queries about users for the profile page."""

from django.db.models import QuerySet

from accounts.models import User
from turnengine.models import Match


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
