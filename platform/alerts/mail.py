"""Turn e-mails: which players are due one, and the message itself (one per player, listing every table awaiting
them, in the language they last logged in with, with a signed unsubscribe link whose page asks first, and RFC 8058's
headers for mail programs' one-click unsubscribe: ``alerts.views.unsubscribe``). Sent by ``alerts.tasks`` on the
bulk queue, never from a request or a move.

A player is due an e-mail when a table has awaited them for ``TAPETE_TURN_MAIL_DELAY_SECONDS`` without one, they
have an address and e-mails on, they are not on vacation, and their last turn e-mail is older than the period
(``TAPETE_TURN_MAIL_PERIOD_SECONDS``; a digest: ``TAPETE_TURN_DIGEST_SECONDS``). A reminder goes once per turn when
``TAPETE_TURN_REMINDER_SHARE`` of a turn-based turn has passed.
"""

from __future__ import annotations

from datetime import timedelta

from django.conf import settings
from django.core.mail import EmailMultiAlternatives
from django.db import transaction
from django.template.loader import render_to_string
from django.urls import reverse
from django.utils import timezone, translation
from django.utils.translation import gettext, ngettext

from alerts.models import AlertSettings, Vacation
from alerts.preferences import language_of, unsubscribe_token
from turnengine.models import AwaitedTurn

MAIL = AlertSettings.Mail


def _period(mail: str) -> timedelta:
    seconds = (
        settings.TAPETE_TURN_DIGEST_SECONDS
        if mail == MAIL.DIGEST
        else settings.TAPETE_TURN_MAIL_PERIOD_SECONDS
    )
    return timedelta(seconds=seconds)


def _muted(now) -> set[int]:
    """Players who get no turn e-mail now: e-mails off, or on vacation."""
    off = set(AlertSettings.objects.filter(mail=MAIL.OFF).values_list("user_id", flat=True))
    away = set(Vacation.objects.filter(starts_at__lte=now, ends_at__gt=now).values_list("user_id", flat=True))
    return off | away


def due_players(now=None) -> list[int]:
    """The players due a turn e-mail now."""
    now = now or timezone.now()
    waited = now - timedelta(seconds=settings.TAPETE_TURN_MAIL_DELAY_SECONDS)
    turns = AwaitedTurn.objects.filter(mailed=False, since__lte=waited).exclude(user__email="")
    candidates = set(turns.values_list("user_id", flat=True)) - _muted(now)
    preferences = {row.user_id: row for row in AlertSettings.objects.filter(user_id__in=candidates)}
    due = []
    for user_id in sorted(candidates):
        row = preferences.get(user_id)
        mail = row.mail if row else MAIL.IMMEDIATE
        if row is None or row.last_mailed_at is None or row.last_mailed_at <= now - _period(mail):
            due.append(user_id)
    return due


def send_turns(user_id: int, now=None) -> int:
    """Send ``user_id`` one e-mail listing the tables awaiting them, if they are still due one; returns how many
    tables it named (0: nothing sent). The player's settings row is locked, so two workers send it once; a failed
    send rolls the marks back, and the task tries again."""
    now = now or timezone.now()
    with transaction.atomic():
        AlertSettings.objects.get_or_create(user_id=user_id)
        row = AlertSettings.objects.select_for_update().select_related("user").get(user_id=user_id)
        if user_id not in due_players(now):
            return 0
        turns = list(
            AwaitedTurn.objects.filter(user_id=user_id).select_related("match").order_by("since", "pk")
        )
        _send(row.user, turns, kind="turns")
        AwaitedTurn.objects.filter(pk__in=[turn.pk for turn in turns]).update(mailed=True)
        row.last_mailed_at = now
        row.save(update_fields=["last_mailed_at"])
    return len(turns)


def due_reminders(now=None) -> dict[int, list[int]]:
    """Player -> their awaited turns past the reminder share of their time and not reminded yet."""
    now = now or timezone.now()
    share = settings.TAPETE_TURN_REMINDER_SHARE
    turns = AwaitedTurn.objects.filter(reminded=False, deadline_at__gt=now).exclude(user__email="")
    # The share of the longest turn-based time left: anything later is not due yet.
    turns = turns.filter(deadline_at__lte=now + timedelta(hours=72) * (1 - share))
    due: dict[int, list[int]] = {}
    muted = _muted(now)
    for turn in turns.only("pk", "user_id", "since", "deadline_at"):
        if turn.user_id not in muted and now >= turn.since + (turn.deadline_at - turn.since) * share:
            due.setdefault(turn.user_id, []).append(turn.pk)
    return due


def send_reminder(user_id: int, turn_ids: list[int], now=None) -> int:
    """Remind ``user_id`` of the turns ``turn_ids`` still awaiting them and not reminded; returns how many."""
    with transaction.atomic():
        turns = list(
            AwaitedTurn.objects.select_for_update()
            .filter(user_id=user_id, pk__in=turn_ids, reminded=False)
            .select_related("match", "user")
        )
        if not turns:
            return 0
        _send(turns[0].user, turns, kind="reminder")
        AwaitedTurn.objects.filter(pk__in=[turn.pk for turn in turns]).update(reminded=True)
    return len(turns)


def _send(user, turns: list[AwaitedTurn], *, kind: str) -> None:
    site = settings.TAPETE_SITE_URL
    unsubscribe = site + reverse("alerts:unsubscribe", args=[unsubscribe_token(user)])
    with translation.override(language_of(user) or settings.LANGUAGE_CODE):
        for turn in turns:
            turn.game_name = gettext(turn.match.rules.name)
        context = {
            "user": user,
            "turns": [(turn, site + reverse("lobby:table", args=[turn.match_id])) for turn in turns],
            "your_move_url": site + reverse("alerts:your_move"),
            "settings_url": site + reverse("alerts:settings"),
            "unsubscribe_url": unsubscribe,
            "reminder": kind == "reminder",
        }
        if kind == "reminder":
            subject = ngettext(
                "Tapete: a table will soon stop waiting for your move",
                "Tapete: %(count)d tables will soon stop waiting for your move",
                len(turns),
            ) % {"count": len(turns)}
        else:
            subject = ngettext(
                "Tapete: a table is waiting for your move",
                "Tapete: %(count)d tables are waiting for your move",
                len(turns),
            ) % {"count": len(turns)}
        text = render_to_string("alerts/mail/turns.txt", context)
        html = render_to_string("alerts/mail/turns.html", context)
    message = EmailMultiAlternatives(
        subject,
        text,
        to=[user.email],
        headers={
            "List-Unsubscribe": f"<{unsubscribe}>",
            "List-Unsubscribe-Post": "List-Unsubscribe=One-Click",
        },
    )
    message.attach_alternative(html, "text/html")
    message.send()
