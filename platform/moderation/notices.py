"""What a sanctioned player reads, in their language and their time zone: one sentence per sanction, used by the
log-in page, the page shown while locked out, the warning banner, the chat box and the table's live frames.

The time zone is the player's own (``User.time_zone``, detected from the browser by ``accounts.timezones``); on a
websocket the language comes from the language cookie or the browser's ``Accept-Language``, as on a page.
"""

from __future__ import annotations

from datetime import datetime
from zoneinfo import ZoneInfo

from django.conf import settings
from django.urls import reverse
from django.utils import formats, timezone, translation
from django.utils.translation import gettext as _

from accounts.timezones import zone_named
from moderation.models import Sanction
from moderation.sanctions import LOCKOUT_KINDS, active_sanction

# A websocket close reason is at most 123 bytes of UTF-8 (RFC 6455, 5.5): the frame before it says the rest.
CLOSE_REASON_BYTES = 123


def format_moment(moment: datetime, zone: ZoneInfo | None = None) -> str:
    """A date and time in ``zone`` (default: the active one), in the active language, with the zone named."""
    zone = zone or timezone.get_current_timezone()
    local = timezone.localtime(moment, zone)
    return f"{formats.date_format(local, 'DATETIME_FORMAT')} ({zone.key})"


def sanction_headline(sanction: Sanction, zone: ZoneInfo | None = None) -> str:
    """What happened and until when, without the reason."""
    until = format_moment(sanction.ends_at, zone) if sanction.ends_at is not None else None
    if sanction.kind == Sanction.Kind.WARNING:
        return _("A moderator warned you.")
    if sanction.kind == Sanction.Kind.MUTE:
        return _("A moderator muted you in chat until %(until)s.") % {"until": until}
    if sanction.kind == Sanction.Kind.SUSPENSION:
        return _("Your account is suspended until %(until)s.") % {"until": until}
    return _("Your account is banned.")


def sanction_message(sanction: Sanction, zone: ZoneInfo | None = None) -> str:
    """The headline, then the reason as far as it is public."""
    headline = sanction_headline(sanction, zone)
    reason = sanction.told_reason()
    if reason:
        return _("%(headline)s Reason: %(reason)s") % {"headline": headline, "reason": reason}
    return headline


def close_reason(sanction: Sanction, zone: ZoneInfo | None = None) -> str:
    """The headline cut to what a close frame may carry, at a character boundary."""
    encoded = sanction_headline(sanction, zone).encode()
    return encoded[:CLOSE_REASON_BYTES].decode("utf-8", "ignore")


def mute_reason(user) -> str | None:
    """Why ``user`` may not chat now (the mute in force, in their language and zone), or None: the table chat's
    check (``turnengine.chat``)."""
    mute = active_sanction(user=user, kinds=(Sanction.Kind.MUTE,))
    return None if mute is None else sanction_message(mute, user_zone(user))


def lockout_reason(user) -> str | None:
    """Why ``user``, whose password was right, may not log in (the suspension or ban in force), or None: the site's
    log-in form's explanation (``accounts.login``, installed by ``ModerationConfig.ready``)."""
    sanction = active_sanction(user=user, kinds=LOCKOUT_KINDS)
    return None if sanction is None else sanction_message(sanction, user_zone(user))


def user_zone(user) -> ZoneInfo:
    """The player's stored zone, else the active one (the browser's on a page, the site's on a websocket)."""
    return zone_named(getattr(user, "time_zone", "")) or timezone.get_current_timezone()


def scope_language(scope: dict) -> str:
    """The language a websocket's page was shown in: the language cookie, else the browser's first supported."""
    candidates = [scope.get("cookies", {}).get(settings.LANGUAGE_COOKIE_NAME, "")]
    headers = dict(scope.get("headers") or [])
    accept = headers.get(b"accept-language", b"").decode("latin-1")
    candidates += [part.split(";")[0].strip() for part in accept.split(",")]  # in the browser's order
    for code in candidates:
        try:
            return translation.get_supported_language_variant(code)
        except LookupError:
            continue
    return settings.LANGUAGE_CODE


def sanction_frame_data(sanction: Sanction, zone: ZoneInfo) -> dict:
    """The ``sanction`` frame's data: what a table page shows (``docs/protocol.md``)."""
    data = {
        "id": sanction.pk,
        "kind": sanction.kind,
        "until": sanction.ends_at.isoformat() if sanction.ends_at and sanction.kind != "warning" else None,
        "message": sanction_message(sanction, zone),
    }
    if sanction.kind == Sanction.Kind.WARNING:
        data["acknowledge_url"] = reverse("moderation:acknowledge", args=[sanction.pk])
    return data


def socket_notice(*, user, scope: dict, sanction_id: int | None) -> tuple[dict | None, str]:
    """For a consumer: the frame data of warning or mute ``sanction_id``, or of the lockout in force (None if none
    is any more), and the close reason of a lockout."""
    with translation.override(scope_language(scope)):
        zone = user_zone(user)
        sanction = Sanction.objects.filter(pk=sanction_id, user=user).first() if sanction_id else None
        if sanction is None or sanction.kind in LOCKOUT_KINDS:
            sanction = active_sanction(user=user, kinds=LOCKOUT_KINDS)  # None if lifted meanwhile
        if sanction is None:
            return None, ""
        return sanction_frame_data(sanction, zone), close_reason(sanction, zone)


def lifted_notice(*, user, scope: dict, sanction_id: int) -> tuple[str, dict]:
    """For a consumer, once mute ``sanction_id`` is lifted: the frame that opens the chat box again
    (``sanction_lifted``), or, if another mute still holds, that one's ``sanction`` frame."""
    with translation.override(scope_language(scope)):
        mute = active_sanction(user=user, kinds=(Sanction.Kind.MUTE,))
        if mute is not None:
            return "sanction", sanction_frame_data(mute, user_zone(user))
    return "sanction_lifted", {"id": sanction_id, "kind": Sanction.Kind.MUTE.value}
