"""What the friends page and a profile's buttons read, each in a fixed number of queries whatever the number of
friends (no query per row)."""

from __future__ import annotations

from django.contrib.auth import get_user_model
from django.db.models import Exists, OuterRef, Q, Subquery

from social.friends import friend_state
from social.models import Block, Follow, Friendship, SiteSocket
from turnengine.models import Match, Seat

User = get_user_model()


def with_presence(users):
    """``users`` (a query) with ``online`` and, when they sit at a table being played or waiting, its ``table_id``,
    ``table_game`` (the latest such table) and ``table_closed`` (being played at a table that allows no
    spectators: named, not linked)."""
    current = Seat.objects.filter(
        user=OuterRef("pk"), match__status__in=(Match.Status.OPEN, Match.Status.ACTIVE)
    ).order_by("-match_id")
    return users.annotate(
        online=Exists(SiteSocket.objects.filter(user=OuterRef("pk"))),
        table_id=Subquery(current.values("match_id")[:1]),
        table_game=Subquery(current.values("match__game")[:1]),
        table_closed=Subquery(
            current.annotate(
                closed=Q(match__status=Match.Status.ACTIVE, match__spectators_allowed=False)
            ).values("closed")[:1]
        ),
    )


def friends_page(user) -> dict:
    """Friends (online first), requests both ways, whom one follows, who follows one, whom one blocked."""
    rows = Friendship.objects.filter(Q(low=user) | Q(high=user))
    accepted = [row.other(user.pk) for row in rows if row.accepted_at is not None]
    asked_by = [
        row.other(user.pk) for row in rows if row.accepted_at is None and row.requested_by_id != user.pk
    ]
    asked = [row.other(user.pk) for row in rows if row.accepted_at is None and row.requested_by_id == user.pk]
    friends = sorted(
        with_presence(User.objects.filter(pk__in=accepted)).only("pk", "username"),
        key=lambda friend: (not friend.online, friend.username.lower()),
    )
    names = dict(User.objects.filter(pk__in=asked_by + asked).values_list("pk", "username"))
    return {
        "friends": friends,
        "requests_in": sorted(names[pk] for pk in asked_by),
        "requests_out": sorted(names[pk] for pk in asked),
        "following": list(
            with_presence(User.objects.filter(followers__follower=user))
            .only("pk", "username")
            .order_by("username")
        ),
        "followers": Follow.objects.filter(followed=user).count(),
        "blocked": list(
            Block.objects.filter(blocker=user)
            .values_list("blocked__username", flat=True)
            .order_by("blocked__username")
        ),
    }


def relation(viewer, other) -> dict:
    """The state of the profile page's buttons: following, friendship (``none``, ``asked``, ``asked_by``,
    ``friends``) and blocked, in one query per table."""
    return {
        "following": Follow.objects.filter(follower=viewer, followed=other).exists(),
        "friend": friend_state(user=viewer, other=other),
        "blocked": Block.objects.filter(blocker=viewer, blocked=other).exists(),
    }
