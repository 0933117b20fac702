"""What is in force for a player: the sanctions that lock them out or mute them, and what their pages must say.
Read by the site's middleware, the log-in, the sockets and the chat; written by ``moderation.services`` only."""

from __future__ import annotations

from dataclasses import dataclass
from datetime import datetime

from django.db.models import Exists, QuerySet
from django.db.models.functions import Now
from django.utils import timezone

from moderation.models import Sanction

DISCONNECT_MESSAGE = "session.revoke"  # a suspension or a ban: the consumer tells the player, then closes
NOTICE_MESSAGE = "moderation.notice"  # a warning or a mute: the consumer tells the player
LIFTED_MESSAGE = "moderation.lifted"  # a mute was lifted: the consumer opens the player's chat box again
LOCKOUT_KINDS = (Sanction.Kind.SUSPENSION, Sanction.Kind.BAN)


def user_group(user_id: int) -> str:
    return f"user.{user_id}"


def active_sanction(*, user, kinds: tuple[str, ...]) -> Sanction | None:
    """The sanction of one of ``kinds`` in force now for ``user``, if any (a ban first, then the one ending last)."""
    if user is None or not user.is_authenticated:
        return None
    now = timezone.now()
    active = in_force(kinds, now).filter(user=user).order_by("-starts_at")
    return max(active, key=lambda s: (s.ends_at is None, s.ends_at or now), default=None)


def in_force(kinds: tuple[str, ...], now: datetime | Now | None = None) -> QuerySet[Sanction]:
    """Every sanction of one of ``kinds`` in force at ``now`` (started, not ended, not lifted)."""
    now = now or timezone.now()
    return Sanction.objects.filter(kind__in=kinds, lifted_at__isnull=True, starts_at__lte=now).exclude(ends_at__lte=now)


def lockout_of(user_id: int) -> Exists:
    """Whether ``user_id`` is locked out now (the database's clock), as an expression: another query's annotation
    reads it in the same round trip (the match socket's handshake: ``realtime.consumers.MatchConsumer._resolve``)."""
    return Exists(in_force(LOCKOUT_KINDS, Now()).filter(user_id=user_id))


def is_locked_out(user) -> bool:
    """Suspended or banned: no log-in, no websocket, no table."""
    return active_sanction(user=user, kinds=LOCKOUT_KINDS) is not None


def locked_out_among(user_ids) -> set[int]:
    """Which of ``user_ids`` are locked out now (:func:`is_locked_out` for many players in one query)."""
    return set(in_force(LOCKOUT_KINDS).filter(user_id__in=list(user_ids)).values_list("user_id", flat=True))


@dataclass
class Restrictions:
    """What a player's pages must tell them: a lockout, a mute, warnings not yet acknowledged."""

    lockout: Sanction | None = None
    mute: Sanction | None = None
    warnings: tuple[Sanction, ...] = ()


def player_restrictions(*, user) -> Restrictions:
    """All of it in one query (the site's middleware asks on every page of a logged-in player)."""
    if user is None or not user.is_authenticated:
        return Restrictions()
    now = timezone.now()
    rows = list(
        Sanction.objects.filter(user=user, lifted_at__isnull=True, starts_at__lte=now)
        .exclude(kind=Sanction.Kind.WARNING, acknowledged_at__isnull=False)
        .exclude(ends_at__lte=now, kind__in=[*LOCKOUT_KINDS, Sanction.Kind.MUTE])
    )

    def last_ending(kinds):
        found = [s for s in rows if s.kind in kinds]
        return max(found, key=lambda s: (s.ends_at is None, s.ends_at or now), default=None)

    return Restrictions(
        lockout=last_ending(LOCKOUT_KINDS),
        mute=last_ending((Sanction.Kind.MUTE,)),
        warnings=tuple(
            sorted((s for s in rows if s.kind == Sanction.Kind.WARNING), key=lambda s: s.starts_at)
        ),
    )
