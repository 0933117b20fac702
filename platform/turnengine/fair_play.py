"""Abandonment records and playbans: serial leavers of ranked games are counted, shown and barred for a while.

A seat **abandons** a ranked game when, at its end, its player had left it, was absent (the computer played for
them after their time ran out twice) or had been disconnected past the table's grace, or when the game ended
because nobody was connected any more (``turnengine.writer.final_result`` marks ``Seat.abandoned``). A player's
**record** is how many of their last ``TAPETE_ABANDON_WINDOW`` finished ranked games they abandoned; it is shown on
their profile and on the moderators' player page.

When a ranked game ends, each player who abandoned it and whose record reaches ``TAPETE_PLAYBAN_MIN_ABANDONMENTS``
at a rate of at least ``TAPETE_PLAYBAN_RATE`` gets a **playban**: no ranked table (create, join, rematch, Bot API)
for the next of ``TAPETE_PLAYBAN_MINUTES`` (15 min, 1 h, 1 day by default), escalating with each playban of the last
``TAPETE_PLAYBAN_MEMORY_DAYS`` days, as Lichess does. Friendly tables stay open to them. The engine's writer checks
it under the table's lock (``turnengine.writer.seat_player``), so no entry point can skip it.
"""

from __future__ import annotations

from dataclasses import dataclass
from datetime import datetime, timedelta

from django.conf import settings
from django.utils import formats, timezone
from django.utils.timesince import timesince
from django.utils.translation import gettext

from ratings.models import Playban
from turnengine.models import Match, Seat


@dataclass(frozen=True)
class AbandonmentRecord:
    """How many of a player's last ``games`` finished ranked games they abandoned."""

    abandoned: int
    games: int

    @property
    def rate(self) -> float:
        return self.abandoned / self.games if self.games else 0.0

    @property
    def percent(self) -> int:
        return round(100 * self.rate)


def abandonment_record(*, user) -> AbandonmentRecord:
    """The player's record over their last ``TAPETE_ABANDON_WINDOW`` finished ranked games."""
    flags = list(
        Seat.objects.filter(user=user, match__ranked=True, match__status=Match.Status.FINISHED)
        .order_by("-match__finished_at", "-match_id")
        .values_list("abandoned", flat=True)[: settings.TAPETE_ABANDON_WINDOW]
    )
    return AbandonmentRecord(abandoned=sum(flags), games=len(flags))


def active_playban(*, user, now: datetime | None = None) -> Playban | None:
    """The playban in force for ``user`` now (the one ending last), if any."""
    now = now or timezone.now()
    return Playban.objects.filter(user_id=user.pk, starts_at__lte=now, ends_at__gt=now).order_by("-ends_at").first()


def playbanned_among(user_ids, now: datetime | None = None) -> set[int]:
    """Which of ``user_ids`` have a playban in force now (:func:`active_playban` for many players in one query)."""
    now = now or timezone.now()
    return set(
        Playban.objects.filter(user_id__in=list(user_ids), starts_at__lte=now, ends_at__gt=now)
        .values_list("user_id", flat=True)
    )


def playban_message(playban: Playban) -> str:
    """Why the player may not play ranked tables, and until when, in the current language and time zone."""
    return gettext(
        "You abandoned %(abandoned)s of your last %(games)s ranked games: ranked tables are closed to you until "
        "%(end)s (friendly tables stay open)."
    ) % {
        "abandoned": playban.abandoned,
        "games": playban.games,
        "end": formats.date_format(timezone.localtime(playban.ends_at), "DATETIME_FORMAT"),
    }


def playban_notice(*, user) -> str | None:
    """What a barred player is told wherever ranked play is offered to them (None: no playban in force)."""
    playban = active_playban(user=user) if user.is_authenticated else None
    return None if playban is None else playban_message(playban)


def playban_durations() -> str:
    """The escalating durations of ``TAPETE_PLAYBAN_MINUTES`` in words of the current language ("15 minutes, 1 hour,
    1 day"), for the rules a ranked table shows."""
    start = timezone.now()
    return ", ".join(timesince(start, start + timedelta(minutes=minutes)) for minutes in settings.TAPETE_PLAYBAN_MINUTES)


def playbans_after_finish(*, match, now: datetime | None = None) -> list[Playban]:
    """Bar the players who abandoned the finished ranked ``match`` and whose record is now too high. Call inside
    the transaction that records the result."""
    if not match.ranked:
        return []
    now = now or timezone.now()
    issued = []
    for seat in Seat.objects.filter(match=match, abandoned=True).select_related("user"):
        record = abandonment_record(user=seat.user)
        if record.abandoned < settings.TAPETE_PLAYBAN_MIN_ABANDONMENTS or record.rate < settings.TAPETE_PLAYBAN_RATE:
            continue
        recent = Playban.objects.filter(
            user=seat.user, starts_at__gte=now - timedelta(days=settings.TAPETE_PLAYBAN_MEMORY_DAYS)
        ).count()
        steps = settings.TAPETE_PLAYBAN_MINUTES
        minutes = steps[min(recent, len(steps) - 1)]
        issued.append(
            Playban.objects.create(
                user=seat.user,
                match=match,
                starts_at=now,
                ends_at=now + timedelta(minutes=minutes),
                abandoned=record.abandoned,
                games=record.games,
            )
        )
    return issued
