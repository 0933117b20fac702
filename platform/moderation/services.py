"""Moderation services: every moderator action is one of these calls, and each one writes exactly one audit entry
(who, what, whom, why, when), or refuses.

Every action needs a reason (:class:`ReasonRequired` otherwise) and is refused with a code and a readable message
(:class:`Refused`, a ``CodedError``) when it would change nothing: reversing a match twice or an unrated one,
refunding a player with nothing left to refund, hiding a hidden line, lifting a lifted sanction, banning a banned player, closing a handled report. The
``*_refusal`` functions return that refusal beforehand, for the moderators' confirmation pages
(``moderation.admin_actions``); the actions check again under their transaction.

Sanctions take effect at once and the player is told (``moderation.notices`` writes the sentences):

* a warning shows on the player's next page, and live on their open tables, until they acknowledge it;
* a mute refuses chat from the next line on, and the chat box says until when; lifting it opens the chat box of
  the player's open tables again at once;
* a suspension or a ban sends the player's open tables the reason and closes their sockets (code 4403 with a
  reason), shows the same message on every page and at log-in, refuses tables, and makes them leave their running
  games: a ranked seat is abandoned (the table goes on and is rated), a friendly seat is played by the bot.

A sanction taken from a report links it and resolves it, and on request the other open reports about the same
player at the same match.
"""

from __future__ import annotations

from datetime import timedelta

from django.db import transaction
from django.utils import timezone
from django.utils.translation import gettext as _
from tapete_sdk.plugin import CodedError

from accounts.models import User
from moderation.models import AuditEntry, ChatMute, ModeratorNote, NetworkNotice, Report, Sanction
from moderation.notices import format_moment
from moderation.sanctions import (
    DISCONNECT_MESSAGE,
    LIFTED_MESSAGE,
    LOCKOUT_KINDS,
    NOTICE_MESSAGE,
    active_sanction,
    user_group,
)
from ratings.models import RatingChange
from ratings.services import rating_refund, rating_reverse_match, refundable_changes
from turnengine import outbox, writer
from turnengine.errors import EngineError
from turnengine.models import ChatMessage, Match, Seat
from turnengine.timers import match_abort, seat_leave
from turnengine.updates import Update, encode_frame


class Refused(CodedError):
    """The action would change nothing, or cannot be done: a code, and a message that says why, for the moderator."""


class ReasonRequired(Refused):
    """A moderator action without a reason."""

    def __init__(self) -> None:
        super().__init__("reason_required", _("Give a reason: every moderation action needs one."))


# --- the audit log ---------------------------------------------------------------------------------------------


def require_reason(reason: str | None) -> str:
    if not reason or not reason.strip():
        raise ReasonRequired()
    return reason.strip()


def _audit(*, moderator, action: str, reason: str, target_user=None, match=None, **detail) -> AuditEntry:
    return AuditEntry.objects.create(
        moderator=moderator,
        action=action,
        reason=require_reason(reason),
        target_user=target_user,
        match=match,
        detail=detail,
    )


def record_action(*, moderator, action: str, reason: str, target_user=None, match=None, **detail) -> AuditEntry:
    """An upper app's moderator action (a tournament's disqualification or cancellation) written to the audit log
    in the action's own transaction; a reason is required."""
    return _audit(moderator=moderator, action=action, reason=reason, target_user=target_user, match=match, **detail)


def _refuse_if(refusal: Refused | None) -> None:
    if refusal is not None:
        raise refusal


# --- sanctions -------------------------------------------------------------------------------------------------


def sanction_refusal(*, user, kind: str, duration: timedelta | None = None) -> Refused | None:
    """Why sanctioning ``user`` so would change nothing (or may not be done), or None."""
    if user.is_bot:
        return Refused("computer_player", _("%(name)s is a computer player.") % {"name": user.username})
    if kind == Sanction.Kind.WARNING:
        return None
    if kind in (Sanction.Kind.MUTE, Sanction.Kind.SUSPENSION) and (
        duration is None or duration <= timedelta(0)
    ):
        return Refused("duration_required", _("Choose how long it lasts."))
    ban = active_sanction(user=user, kinds=(Sanction.Kind.BAN,))
    if ban is not None:
        return Refused("already_banned", _("%(name)s is already banned.") % {"name": user.username})
    if kind == Sanction.Kind.BAN:
        return None
    current = active_sanction(user=user, kinds=(kind,))
    if current is not None and current.ends_at is not None and current.ends_at >= timezone.now() + duration:
        return Refused(
            "already_sanctioned",
            _("%(name)s is already %(kind)s until %(until)s.")
            % {
                "name": user.username,
                "kind": current.get_kind_display().lower(),
                "until": format_moment(current.ends_at),
            },
        )
    return None


def related_open_reports(*, report: Report) -> list[Report]:
    """Other open reports about the same player at the same match (resolved with a sanction, on confirmation)."""
    if report.match_id is None:
        return []
    return list(
        Report.objects.filter(
            reported=report.reported, match=report.match, status=Report.Status.OPEN
        ).exclude(pk=report.pk)
    )


def moderation_sanction(
    *,
    moderator,
    user,
    kind: str,
    reason: str,
    public_reason: str = "",
    preset: str = "",
    duration: timedelta | None = None,
    report: Report | None = None,
    resolve_related: bool = False,
    also_resolve: list[Report] | tuple[Report, ...] = (),
) -> Sanction:
    """Warn, mute, suspend or ban ``user``, telling them the ``preset`` reason (a ``PresetReason`` key, read in
    their language) and ``public_reason`` (free text, as written); from a report, link and resolve it (and ``also_resolve``, and with
    ``resolve_related`` the other open reports about them at that match). One audit entry names the reports it
    resolved."""
    reason = require_reason(reason)
    now = timezone.now()
    with transaction.atomic():
        _refuse_if(sanction_refusal(user=user, kind=kind, duration=duration))
        if kind == Sanction.Kind.WARNING:
            ends_at = now
        else:
            ends_at = None if kind == Sanction.Kind.BAN else now + duration
        sanction = Sanction.objects.create(
            user=user,
            kind=kind,
            reason=reason,
            preset=preset,
            public_reason=public_reason.strip(),
            by=moderator,
            starts_at=now,
            ends_at=ends_at,
            report=report,
        )
        resolved = []
        if report is not None:
            closing = [
                report,
                *also_resolve,
                *(related_open_reports(report=report) if resolve_related else []),
            ]
            for item in {item.pk: item for item in closing}.values():
                item.refresh_from_db(fields=["status"])
                if item.status == Report.Status.OPEN and item.reported_id == user.pk:
                    _close_report(item, moderator, Report.Status.RESOLVED, now)
                    resolved.append(item.pk)
        _audit(
            moderator=moderator,
            action=kind,
            reason=reason,
            target_user=user,
            match=report.match if report is not None else None,
            sanction=sanction.pk,
            until=None if kind == Sanction.Kind.BAN else ends_at.isoformat(),
            preset=sanction.preset,
            public_reason=sanction.public_reason,
            reports_resolved=resolved,
        )
    if kind in LOCKOUT_KINDS:
        release_seats(user=user)
        _send_to_user(user.pk, {"type": DISCONNECT_MESSAGE, "sanction": sanction.pk})
    else:
        _send_to_user(user.pk, {"type": NOTICE_MESSAGE, "sanction": sanction.pk})
    return sanction


def moderation_warn(*, moderator, user, reason: str, **options) -> Sanction:
    return moderation_sanction(
        moderator=moderator, user=user, kind=Sanction.Kind.WARNING, reason=reason, **options
    )


def moderation_mute(*, moderator, user, reason: str, duration: timedelta, **options) -> Sanction:
    return moderation_sanction(
        moderator=moderator, user=user, kind=Sanction.Kind.MUTE, reason=reason, duration=duration, **options
    )


def moderation_suspend(*, moderator, user, reason: str, duration: timedelta, **options) -> Sanction:
    return moderation_sanction(
        moderator=moderator,
        user=user,
        kind=Sanction.Kind.SUSPENSION,
        reason=reason,
        duration=duration,
        **options,
    )


def moderation_ban(*, moderator, user, reason: str, **options) -> Sanction:
    return moderation_sanction(
        moderator=moderator, user=user, kind=Sanction.Kind.BAN, reason=reason, **options
    )


def running_matches(*, user) -> list[Match]:
    """The running matches where ``user`` sits (what a suspension or a ban makes them leave)."""
    return list(Match.objects.filter(status=Match.Status.ACTIVE, seats__user=user).order_by("pk"))


def release_seats(*, user) -> None:
    """A suspended or banned player leaves their running games: ranked seats are abandoned (the others play on and
    the result is rated), friendly seats are played by the bot (``timers.seat_leave`` does both)."""
    for match in running_matches(user=user):
        try:
            seat_leave(match_id=match.pk, user=user)
        except EngineError:  # it ended meanwhile
            continue


def lift_refusal(*, sanction: Sanction) -> Refused | None:
    if sanction.lifted_at is not None:
        return Refused("already_lifted", _("This sanction was already lifted."))
    if sanction.kind == Sanction.Kind.WARNING:
        return Refused("warning_not_liftable", _("A warning has nothing to lift."))
    if sanction.ends_at is not None and sanction.ends_at <= timezone.now():
        return Refused("sanction_over", _("This sanction is already over."))
    return None


def moderation_lift(*, moderator, sanction: Sanction, reason: str) -> None:
    reason = require_reason(reason)
    with transaction.atomic():
        sanction = Sanction.objects.select_for_update().get(pk=sanction.pk)
        _refuse_if(lift_refusal(sanction=sanction))
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
        if sanction.kind == Sanction.Kind.MUTE:  # the open tables' chat boxes open again, once this commits
            _send_to_user(sanction.user_id, {"type": LIFTED_MESSAGE, "sanction": sanction.pk})


def sanction_acknowledge(*, user, sanction_id: int) -> bool:
    """The player confirms reading a warning: it stops showing. Returns whether one was acknowledged."""
    return bool(
        Sanction.objects.filter(
            pk=sanction_id, user=user, kind=Sanction.Kind.WARNING, acknowledged_at__isnull=True
        ).update(acknowledged_at=timezone.now())
    )


# --- chat, matches, ratings ------------------------------------------------------------------------------------


def hide_refusal(*, message: ChatMessage) -> Refused | None:
    return Refused("already_hidden", _("This chat line is already hidden.")) if message.hidden else None


def moderation_hide_message(*, moderator, message: ChatMessage, reason: str) -> None:
    """Hide a chat line: it leaves every snapshot, and every open page of the table removes it at once."""
    reason = require_reason(reason)
    with transaction.atomic():
        message = ChatMessage.objects.select_for_update().select_related("match").get(pk=message.pk)
        _refuse_if(hide_refusal(message=message))
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
    match = message.match
    frame = encode_frame("chat_hidden", match.version, {"id": message.pk})
    outbox.send_on_commit(Update({match.group_name("all"): frame}))


def abort_refusal(*, match: Match) -> Refused | None:
    if match.status in (Match.Status.FINISHED, Match.Status.ABORTED):
        return Refused("match_over", _("Match #%(id)s is already over.") % {"id": match.pk})
    return None


def moderation_abort_match(*, moderator, match: Match, reason: str) -> None:
    """Stop a match without a result (and so without any rating change): its clocks stop, the seed is published
    and every open page says that a moderator aborted it (``timers.match_abort``, whose frames go on commit)."""
    reason = require_reason(reason)
    with writer.locked(match.pk) as change:
        locked = change.match
        if locked is None:
            raise Match.DoesNotExist
        _refuse_if(abort_refusal(match=locked))
        status_before = locked.status
        match_abort(change)
        _audit(
            moderator=moderator,
            action="abort_match",
            reason=reason,
            match=locked,
            status_before=status_before,
        )


def reversible_changes(*, match: Match) -> list[RatingChange]:
    """The rating changes of ``match`` that a reversal would undo."""
    return list(
        RatingChange.objects.filter(match=match, reversed_at__isnull=True)
        .select_related("user")
        .order_by("user_id")
    )


def reverse_refusal(*, match: Match) -> Refused | None:
    if not match.ranked:
        return Refused(
            "match_friendly", _("Match #%(id)s is friendly: it changed no rating.") % {"id": match.pk}
        )
    if RatingChange.objects.filter(match=match).exists() and not reversible_changes(match=match):
        return Refused(
            "already_reversed", _("The ratings of match #%(id)s were already reversed.") % {"id": match.pk}
        )
    if not reversible_changes(match=match):
        return Refused("no_rating_change", _("Match #%(id)s has changed no rating (yet).") % {"id": match.pk})
    return None


def moderation_reverse_ratings(*, moderator, match: Match, reason: str) -> int:
    """Undo every rating change of a ranked match (cheating, collusion); once."""
    reason = require_reason(reason)
    with transaction.atomic():
        _refuse_if(reverse_refusal(match=match))
        changes = [
            {"user": change.user.username, "delta": round(change.delta, 1)}
            for change in reversible_changes(match=match)
        ]
        count = rating_reverse_match(match=match, by=moderator, reason=reason)
        _audit(moderator=moderator, action="reverse_ratings", reason=reason, match=match, changes=changes)
    return count


def refund_refusal(*, user) -> Refused | None:
    if not refundable_changes(cheater=user):
        return Refused(
            "nothing_to_refund",
            _("%(name)s gained nothing, and nobody lost anything against them, in a rated match not reversed yet.")
            % {"name": user.username},
        )
    return None


def moderation_refund(*, moderator, user, reason: str) -> int:
    """A cheater's refund (as Lichess's): their rating gains are undone and every opponent gets back what they lost
    in the cheater's ranked matches (``ratings.services.rating_refund``); one audit entry lists each change."""
    reason = require_reason(reason)
    with transaction.atomic():
        _refuse_if(refund_refusal(user=user))
        changes = rating_refund(cheater=user, by=moderator, reason=reason)
        if not changes:  # another moderator's refund took them while this one waited for the locks
            _refuse_if(refund_refusal(user=user))
        _audit(
            moderator=moderator,
            action="refund",
            reason=reason,
            target_user=user,
            changes=[
                {"match": change.match_id, "user": change.user.username, "delta": round(change.delta, 1)}
                for change in changes
            ],
        )
    return len(changes)


# --- reports and notes -----------------------------------------------------------------------------------------


def report_refusal(*, report: Report) -> Refused | None:
    if report.status != Report.Status.OPEN:
        return Refused(
            "report_handled",
            _("Report #%(id)s was already handled (%(status)s).")
            % {"id": report.pk, "status": report.get_status_display().lower()},
        )
    return None


def _close_report(report: Report, moderator, status: str, now) -> None:
    report.status = status
    report.handled_by = moderator
    report.handled_at = now
    report.save(update_fields=["status", "handled_by", "handled_at"])


def report_close(*, moderator, report: Report, status: str, reason: str) -> None:
    """Resolve or dismiss a report without a sanction."""
    reason = require_reason(reason)
    with transaction.atomic():
        report = Report.objects.select_for_update().get(pk=report.pk)
        _refuse_if(report_refusal(report=report))
        _close_report(report, moderator, status, timezone.now())
        _audit(
            moderator=moderator,
            action=f"report_{status}",
            reason=reason,
            target_user=report.reported,
            match=report.match,
            report=report.pk,
        )


def moderation_add_note(*, moderator, user, text: str) -> ModeratorNote:
    """A staff-only note about a player; the note is its own reason in the audit log."""
    text = require_reason(text)
    with transaction.atomic():
        note = ModeratorNote.objects.create(user=user, by=moderator, text=text)
        _audit(moderator=moderator, action="note", reason=text, target_user=user, note=note.pk)
    return note


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


# --- telling open sockets ---------------------------------------------------------------------------------------


def _send_to_user(user_id: int, message: dict) -> None:
    """After the commit, send ``message`` to every open websocket of this user (``user.<id>`` group)."""
    outbox.send_on_commit(Update(messages={user_group(user_id): message}))


def disconnect_user(*, user_id: int) -> None:
    """After the commit, tell every open websocket of this user their lockout and close it."""
    _send_to_user(user_id, {"type": DISCONNECT_MESSAGE})


# --- personal mutes, same-network notices ------------------------------------------------------------------------


def chat_mute_toggle(*, user, username: str, mute: bool) -> list[str]:
    """Hide (or show again) another player's chat for ``user`` only; returns who ``user`` mutes now."""
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
            notice, _created = NetworkNotice.objects.update_or_create(
                match=match, ip_address=ip, defaults={"usernames": sorted(names)}
            )
            notices.append(notice)
    return notices


def network_notices_about(*, user) -> list[NetworkNotice]:
    """The same-network notices naming ``user``."""
    notices = (
        NetworkNotice.objects.filter(match__seats__user=user).select_related("match").order_by("-created_at")
    )
    return [notice for notice in notices.distinct() if user.username in notice.usernames]
