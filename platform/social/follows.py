"""Following a player: one way, as on Lichess; the followed player is not asked."""

from __future__ import annotations

from django.db import IntegrityError, transaction

from social.blocks import blocked_either_way
from social.errors import SocialError
from social.models import Follow


def check_pair(user, other) -> None:
    """What every tie between two players needs (a follow, a friendship): not oneself, no bot or guest, no block."""
    if other.pk == user.pk:
        raise SocialError("yourself")
    if other.is_bot:
        raise SocialError("bot_social")
    if user.is_guest or other.is_guest:
        raise SocialError("guest_social")
    if blocked_either_way(user.pk, other.pk):
        raise SocialError("blocked")


def follow(*, user, other) -> None:
    check_pair(user, other)
    try:
        with transaction.atomic():
            Follow.objects.create(follower=user, followed=other)
    except IntegrityError:
        pass  # followed already: following twice is following


def unfollow(*, user, other) -> None:
    Follow.objects.filter(follower=user, followed=other).delete()


def is_following(*, user, other) -> bool:
    return Follow.objects.filter(follower=user, followed=other).exists()
