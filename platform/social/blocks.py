"""Blocking: a blocked player cannot follow, befriend or invite the one who blocked them, nor join a table that
player created (``turnengine.seat_blocks``, installed in ``social.apps``); the blocker's sockets never receive their
chat at a table, live or in a snapshot (``turnengine.chat``: :func:`blocked_ids` is installed as whose lines a
reader's sockets drop, and a block or an unblock tells the blocker's open table sockets to read it again). Blocking
ends what ties the two: follows both ways, a friendship or a request, and pending invitations between them."""

from __future__ import annotations

from django.contrib.auth import get_user_model
from django.db import IntegrityError, transaction
from django.db.models import Q

from social.errors import SocialError
from social.frames import blocks_changed
from social.models import Block, Follow, Friendship, Invitation
from web.compiled import Compiled

User = get_user_model()


def blocks(blocker_id: int, blocked_id: int) -> bool:
    """Whether ``blocker_id`` blocked ``blocked_id`` (the engine's seat check)."""
    return Block.objects.filter(blocker_id=blocker_id, blocked_id=blocked_id).exists()


def blocked_either_way(a_id: int, b_id: int) -> bool:
    return Block.objects.filter(
        Q(blocker_id=a_id, blocked_id=b_id) | Q(blocker_id=b_id, blocked_id=a_id)
    ).exists()


def block(*, user, other) -> Block:
    if other.pk == user.pk:
        raise SocialError("yourself")
    with transaction.atomic():
        try:
            with transaction.atomic():
                made = Block.objects.create(blocker=user, blocked=other)
        except IntegrityError:  # blocked already (two clicks, or two tabs at once)
            made = Block.objects.get(blocker=user, blocked=other)
        Follow.objects.filter(Q(follower=user, followed=other) | Q(follower=other, followed=user)).delete()
        low, high = sorted((user.pk, other.pk))
        Friendship.objects.filter(low_id=low, high_id=high).delete()
        Invitation.objects.filter(
            Q(sender=user, recipient=other) | Q(sender=other, recipient=user),
            status=Invitation.Status.PENDING,
        ).delete()
        blocks_changed(user.pk)
    return made


def unblock(*, user, other) -> None:
    with transaction.atomic():
        if Block.objects.filter(blocker=user, blocked=other).delete()[0]:
            blocks_changed(user.pk)


# Read by every table socket as it opens: compiled once (web.compiled says why).
_BLOCKED = Compiled(
    lambda blocker_id: Block.objects.filter(blocker_id=blocker_id).values_list("blocked_id"), blocker_id=int
)


def blocked_ids(user) -> frozenset[int]:
    """Whom ``user`` blocked: their chat lines never reach ``user``'s sockets."""
    return frozenset(blocked for (blocked,) in _BLOCKED.rows(blocker_id=user.pk))
