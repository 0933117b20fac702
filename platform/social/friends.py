"""Friends: both ways. A request is a :class:`~social.models.Friendship` row not yet accepted; the other player
accepts (the row becomes a friendship) or declines (it goes). One row per pair, held by a unique constraint: two
requests crossing at the same moment meet on that row, the second finds the first's request and accepts it, and
the two become one friendship."""

from __future__ import annotations

from django.db import IntegrityError, transaction
from django.db.models import Q
from django.utils import timezone

from social.errors import SocialError
from social.follows import check_pair
from social.frames import push
from social.models import Friendship


def _pair(user_id: int, other_id: int):
    low, high = sorted((user_id, other_id))
    return Friendship.objects.filter(low_id=low, high_id=high)


def friend_request(*, user, other) -> Friendship:
    """Ask ``other`` to be friends; when ``other`` already asked ``user``, this accepts their request."""
    check_pair(user, other)
    low, high = sorted((user.pk, other.pk))
    with transaction.atomic():
        try:
            with transaction.atomic():
                row = Friendship.objects.create(low_id=low, high_id=high, requested_by=user)
        except IntegrityError:  # a row for this pair exists (or a crossing request just committed one)
            row = _pair(user.pk, other.pk).select_for_update().get()
        else:
            push([other.pk], "friend_request", {"from": user.username})
            return row
        if row.accepted_at is not None:
            raise SocialError("already_friends")
        if row.requested_by_id == user.pk:
            raise SocialError("already_requested")
        row.accepted_at = timezone.now()  # they asked first: asking back is accepting
        row.save(update_fields=["accepted_at"])
        push([other.pk], "friend_accepted", {"by": user.username})
    return row


def friend_accept(*, user, other) -> Friendship:
    with transaction.atomic():
        row = _pair(user.pk, other.pk).select_for_update().filter(accepted_at__isnull=True).first()
        if row is None or row.requested_by_id == user.pk:
            raise SocialError("no_request")
        row.accepted_at = timezone.now()
        row.save(update_fields=["accepted_at"])
        push([other.pk], "friend_accepted", {"by": user.username})
    return row


def friend_remove(*, user, other) -> None:
    """Decline ``other``'s request, withdraw one's own, or end a friendship: the pair's row goes either way."""
    _pair(user.pk, other.pk).delete()


def friend_state(*, user, other) -> str:
    """``friends``, ``asked`` (user asked other), ``asked_by`` (other asked user) or ``none``."""
    row = _pair(user.pk, other.pk).first()
    if row is None:
        return "none"
    if row.accepted_at is not None:
        return "friends"
    return "asked" if row.requested_by_id == user.pk else "asked_by"


def friend_ids(user_id: int):
    """The ids of ``user_id``'s friends (accepted both ways), in one query."""
    rows = Friendship.objects.filter(Q(low_id=user_id) | Q(high_id=user_id), accepted_at__isnull=False)
    return [row.other(user_id) for row in rows.only("low_id", "high_id")]
