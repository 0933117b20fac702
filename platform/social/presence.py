"""Who is online, for friends: a player is online while they hold a lobby socket (every page of a logged-in player
opens one, ``static/js/social.js``). Each socket is a :class:`~social.models.SiteSocket` row, written when it opens
and deleted when it closes, never bumped up and down; the player's first socket and their last one push a
``friend_presence`` frame to their friends who are online, once per change (nothing is polled, and nothing is added
to a move). The first socket of a new life of a server process forgets the rows the previous life of the same
server left (a restart after ``kill -9``).

Where a friend plays is read when the friends page asks (``social.selectors``), not pushed: the page fetches its
list again when a presence frame comes."""

from __future__ import annotations

from django.contrib.auth import get_user_model
from django.db import transaction

from social.frames import push
from social.friends import friend_ids
from social.models import SiteSocket

User = get_user_model()


def _changed(user_id: int, username: str, online: bool) -> None:
    friends = _online_friend_ids(user_id)
    if friends:
        push(friends, "friend_presence", {"user": username, "online": online})


def _online_friend_ids(user_id: int) -> list[int]:
    return sorted(
        set(SiteSocket.objects.filter(user_id__in=friend_ids(user_id)).values_list("user_id", flat=True))
    )


def socket_open(*, key: str, user, server: str, life: str, first_of_life: bool) -> None:
    with transaction.atomic():
        if first_of_life:
            socket_forget_server(server, keep_life=life)
        # The player's row, locked: their sockets opening and closing at once count one after the other.
        User.objects.select_for_update(no_key=True).filter(pk=user.pk).first()
        was_online = SiteSocket.objects.filter(user=user).exists()
        SiteSocket.objects.get_or_create(key=key, defaults={"user": user, "server": server, "life": life})
        if not was_online:
            _changed(user.pk, user.username, True)


def socket_close(*, key: str, user) -> None:
    with transaction.atomic():
        User.objects.select_for_update(no_key=True).filter(pk=user.pk).first()
        deleted, _ = SiteSocket.objects.filter(key=key).delete()
        if deleted and not SiteSocket.objects.filter(user=user).exists():
            _changed(user.pk, user.username, False)


def socket_forget_server(server: str, *, keep_life: str) -> None:
    """Forget the rows a previous life of ``server`` left, telling the friends of who is offline now."""
    left = SiteSocket.objects.filter(server=server).exclude(life=keep_life)
    users = set(left.values_list("user_id", "user__username"))
    left.delete()
    for user_id, username in sorted(users):
        if not SiteSocket.objects.filter(user_id=user_id).exists():
            _changed(user_id, username, False)
