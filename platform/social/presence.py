"""Who is online, for friends: a player is online while they hold a lobby socket (every page of a logged-in player
opens one, ``static/js/social.js``). Each socket is a :class:`~social.models.SiteSocket` row, written when it opens
and deleted when it closes, never bumped up and down; the player's first socket and their last one push a
``friend_presence`` frame to their friends who are online, once per change (nothing is polled, and nothing is added
to a move). Each row names the server process life that holds it (``realtime.liveness``, whose ticker keeps that
life registered while it holds a lobby socket); when the turn engine gives a life up, as its sweeper does a process
killed with ``kill -9`` or the next life of the same server does its previous one (``turnengine.presence``), it
calls :func:`forget_dead_lives` (installed in ``social.apps``): the rows of lives no longer registered are deleted
and the friends of who is offline now are told, as when their last socket closes.

Where a friend plays is read when the friends page asks (``social.selectors``), not pushed: the page fetches its
list again when a presence frame comes."""

from __future__ import annotations

from django.contrib.auth import get_user_model
from django.db import transaction

from social.frames import push
from social.friends import friend_ids
from social.models import SiteSocket
from turnengine.models import ServerProcess
from turnengine.presence import process_seen

User = get_user_model()


def _changed(user_id: int, username: str, online: bool) -> None:
    friends = _online_friend_ids(user_id)
    if friends:
        push(friends, "friend_presence", {"user": username, "online": online})


def _online_friend_ids(user_id: int) -> list[int]:
    return sorted(
        set(SiteSocket.objects.filter(user_id__in=friend_ids(user_id)).values_list("user_id", flat=True))
    )


def socket_open(*, key: str, user, server: str, life: str) -> None:
    with transaction.atomic():
        process_seen(life, server)  # registered before its row: the sweeper cannot forget the life meanwhile
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


def forget_dead_lives() -> None:
    """Forget the rows of server process lives the engine no longer registers (killed, or restarted), telling the
    friends of each player who is offline now. Each player's row is locked as their own sockets' changes lock it."""
    dead = SiteSocket.objects.exclude(life__in=ServerProcess.objects.values("pk"))
    for user_id, username in sorted(set(dead.values_list("user_id", "user__username"))):
        with transaction.atomic():
            User.objects.select_for_update(no_key=True).filter(pk=user_id).first()
            deleted, _ = dead.filter(user_id=user_id).delete()
            if deleted and not SiteSocket.objects.filter(user_id=user_id).exists():
                _changed(user_id, username, False)
