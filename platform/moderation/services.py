"""Moderation services: every moderator action is one of these calls, and each one writes the audit log.

Sanctions take effect at once: a mute refuses chat from the next line on; a suspension or a ban closes the player's
open websockets (through the ``user.<id>`` channel group every socket joins), refuses log-in and joining tables
until it ends; a ban also makes the player abandon their ranked games in progress.
"""

from __future__ import annotations

from datetime import timedelta

from asgiref.sync import async_to_sync
from channels.layers import get_channel_layer
from django.db import transaction
from django.utils import timezone

from moderation.models import AuditEntry, ChatMute, NetworkNotice, Report, Sanction
from ratings.services import rating_reverse_match
from turnengine.models import ChatMessage, Match, Seat

DISCONNECT_MESSAGE = "session.revoke"


def user_group(user_id: int) -> str:
    return f"user.{user_id}"


def active_sanction(*, user, kinds: tuple[str, ...]) -> Sanction | None:
    """The sanction of one of ``kinds`` in force now for ``user``, if any (the one ending last)."""
    if user is None or not user.is_authenticated:
        return None
    now = timezone.now()
    return (
        Sanction.objects.filter(user=user, kind__in=kinds, lifted_at__isnull=True, starts_at__lte=now)
        .exclude(ends_at__lte=now)
        .order_by("-ends_at")
        .first()
    )


def is_locked_out(user) -> bool:
    """Suspended or banned: no log-in, no websocket, no table."""
    return active_sanction(user=user, kinds=(Sanction.Kind.SUSPENSION, Sanction.Kind.BAN)) is not None


def _audit(*, moderator, action: str, reason: str, target_user=None, match=None, **detail) -> AuditEntry:
    if not reason or not reason.strip():
        raise ValueError("every moderation action needs a reason")
    return AuditEntry.objects.create(
        moderator=moderator, action=action, reason=reason, target_user=target_user, match=match, detail=detail
    )


def _sanction(*, moderator, user, kind: str, reason: str, duration: timedelta | None) -> Sanction:
    now = timezone.now()
    with transaction.atomic():
        sanction = Sanction.objects.create(
            user=user,
            kind=kind,
            reason=reason,
            by=moderator,
            starts_at=now,
            ends_at=None if duration is None else now + duration,
        )
        _audit(
            moderator=moderator,
            action=kind,
            reason=reason,
            target_user=user,
            until=None if sanction.ends_at is None else sanction.ends_at.isoformat(),
        )
    return sanction


def moderation_warn(*, moderator, user, reason: str) -> Sanction:
    return _sanction(
        moderator=moderator, user=user, kind=Sanction.Kind.WARNING, reason=reason, duration=timedelta(0)
    )


def moderation_mute(*, moderator, user, reason: str, duration: timedelta) -> Sanction:
    return _sanction(
        moderator=moderator, user=user, kind=Sanction.Kind.MUTE, reason=reason, duration=duration
    )


def moderation_suspend(*, moderator, user, reason: str, duration: timedelta) -> Sanction:
    sanction = _sanction(
        moderator=moderator, user=user, kind=Sanction.Kind.SUSPENSION, reason=reason, duration=duration
    )
    disconnect_user(user_id=user.pk)
    return sanction


def moderation_ban(*, moderator, user, reason: str) -> Sanction:
    """A ban without end; the player's ranked games in progress count as abandoned."""
    from turnengine.broadcast import broadcast_sync
    from turnengine.timers import seat_leave

    sanction = _sanction(moderator=moderator, user=user, kind=Sanction.Kind.BAN, reason=reason, duration=None)
    running = Match.objects.filter(status=Match.Status.ACTIVE, ranked=True, seats__user=user).values_list(
        "pk", flat=True
    )
    for match_id in running:
        broadcast_sync(seat_leave(match_id=match_id, user=user))
    disconnect_user(user_id=user.pk)
    return sanction


def moderation_lift(*, moderator, sanction: Sanction, reason: str) -> None:
    with transaction.atomic():
        sanction.lifted_at = timezone.now()
        sanction.save(update_fields=["lifted_at"])
        _audit(
            moderator=moderator,
            action="lift",
            reason=reason,
            target_user=sanction.user,
            sanction=sanction.pk,
            kind=sanction.kind,
        )


def moderation_hide_message(*, moderator, message: ChatMessage, reason: str) -> None:
    with transaction.atomic():
        message.hidden = True
        message.save(update_fields=["hidden"])
        _audit(
            moderator=moderator,
            action="hide_message",
            reason=reason,
            target_user=message.user,
            match=message.match,
            message=message.pk,
            text=message.text,
        )


def moderation_abort_match(*, moderator, match: Match, reason: str) -> None:
    """Stop a match without a result (and so without any rating change); the seed is published."""
    from turnengine.broadcast import broadcast_sync
    from turnengine.services import build_update

    with transaction.atomic():
        match = Match.objects.select_for_update().get(pk=match.pk)
        if match.status in (Match.Status.FINISHED, Match.Status.ABORTED):
            raise ValueError("this match is already over")
        match.status = Match.Status.ABORTED
        match.deadline_at = None
        match.version += 1
        match.finished_at = timezone.now()
        match.save(update_fields=["status", "deadline_at", "version", "finished_at"])
        _audit(moderator=moderator, action="abort_match", reason=reason, match=match)
    if match.state is not None:
        broadcast_sync(build_update(match, []))


def moderation_reverse_ratings(*, moderator, match: Match, reason: str) -> int:
    with transaction.atomic():
        count = rating_reverse_match(match=match, by=moderator, reason=reason)
        _audit(moderator=moderator, action="reverse_ratings", reason=reason, match=match, changes=count)
    return count


def report_close(*, moderator, report: Report, status: str, reason: str) -> None:
    with transaction.atomic():
        report.status = status
        report.handled_by = moderator
        report.handled_at = timezone.now()
        report.save(update_fields=["status", "handled_by", "handled_at"])
        _audit(
            moderator=moderator,
            action=f"report_{status}",
            reason=reason,
            target_user=report.reported,
            match=report.match,
            report=report.pk,
        )


def report_create(
    *,
    reporter,
    reported,
    reason: str,
    comment: str,
    match: Match | None = None,
    move: int | None = None,
    chat_message_ids: list[int] | None = None,
) -> Report:
    if reporter == reported:
        raise ValueError("you cannot report yourself")
    with transaction.atomic():
        report = Report.objects.create(
            reporter=reporter, reported=reported, reason=reason, comment=comment, match=match, move=move
        )
        if chat_message_ids and match is not None:
            report.chat_messages.set(ChatMessage.objects.filter(pk__in=chat_message_ids, match=match))
    return report


def disconnect_user(*, user_id: int) -> None:
    """After the commit, close every open websocket of this user."""

    def send():
        async_to_sync(get_channel_layer().group_send)(user_group(user_id), {"type": DISCONNECT_MESSAGE})

    transaction.on_commit(send)


def chat_mute_toggle(*, user, username: str, mute: bool) -> list[str]:
    """Hide (or show again) another player's chat for ``user`` only; returns who ``user`` mutes now."""
    from accounts.models import User

    other = User.objects.filter(username=username).first()
    if other is not None and other != user:
        if mute:
            ChatMute.objects.get_or_create(user=user, muted=other)
        else:
            ChatMute.objects.filter(user=user, muted=other).delete()
    return muted_usernames(user=user)


def muted_usernames(*, user) -> list[str]:
    return sorted(ChatMute.objects.filter(user=user).values_list("muted__username", flat=True))


def network_notices_for(*, match: Match) -> list[NetworkNotice]:
    """Record seats of a ranked match that share an IP address (collusion is the main risk in bluffing games)."""
    if not match.ranked:
        return []
    by_ip: dict[str, list[str]] = {}
    for seat in Seat.objects.filter(match=match, ip_address__isnull=False).select_related("user"):
        by_ip.setdefault(seat.ip_address, []).append(seat.user.username)
    notices = []
    for ip, names in by_ip.items():
        if len(names) > 1:
            notice, _ = NetworkNotice.objects.update_or_create(
                match=match, ip_address=ip, defaults={"usernames": sorted(names)}
            )
            notices.append(notice)
    return notices
