"""Vacation: a player pauses their turn-based clocks for a few days, at most ``TAPETE_VACATION_DAYS_PER_YEAR`` days
in a calendar year (as Board Game Arena's holiday mode); the other players see it at the table. The clocks
themselves are paused by the engine (``turnengine.vacations``); coming back early gives back exactly the time spent
away. A turn-based table that starts during a vacation starts with the player's clock paused
(:func:`away_at_table`, installed in the engine by ``alerts.apps``)."""

from __future__ import annotations

import math
from datetime import timedelta

from django import forms
from django.conf import settings
from django.contrib.auth import get_user_model
from django.db import transaction
from django.utils import timezone
from django.utils.translation import gettext_lazy as _

from alerts.models import Vacation
from turnengine import clocks
from turnengine.vacations import vacation_apply


def current(user, now=None) -> Vacation | None:
    now = now or timezone.now()
    return Vacation.objects.filter(user=user, starts_at__lte=now, ends_at__gt=now).first()


def days_used(user, now=None) -> int:
    """Days of vacation taken this calendar year (a day begun counts)."""
    now = now or timezone.now()
    year_start = now.replace(month=1, day=1, hour=0, minute=0, second=0, microsecond=0)
    seconds = sum(
        (vacation.ends_at - max(vacation.starts_at, year_start)).total_seconds()
        for vacation in Vacation.objects.filter(user=user, ends_at__gt=year_start)
    )
    return math.ceil(seconds / 86400)


def days_left(user, now=None) -> int:
    return max(0, settings.TAPETE_VACATION_DAYS_PER_YEAR - days_used(user, now))


class VacationForm(forms.Form):
    vacation_days = forms.IntegerField(label=_("Days of vacation"), min_value=1, max_value=365)


def start(user, *, days: int, now=None) -> Vacation | None:
    """Start a vacation of ``days`` days (cut to the days left this year); None when none is left or one runs."""
    now = now or timezone.now()
    with transaction.atomic():
        get_user_model().objects.select_for_update().filter(
            pk=user.pk
        ).first()  # one vacation started at a time
        days = min(days, days_left(user, now))
        if days <= 0 or current(user, now) is not None:
            return None
        vacation = Vacation.objects.create(user=user, starts_at=now, ends_at=now + timedelta(days=days))
    vacation_apply(user, (clocks.epoch_ms(vacation.starts_at), clocks.epoch_ms(vacation.ends_at)))
    return vacation


def end(user, now=None) -> Vacation | None:
    """Come back early: the vacation ends now, and each paused clock runs again from now."""
    now = now or timezone.now()
    vacation = current(user, now)
    if vacation is None:
        return None
    Vacation.objects.filter(pk=vacation.pk).update(ends_at=now)
    vacation.ends_at = now
    vacation_apply(user, (clocks.epoch_ms(vacation.starts_at), clocks.epoch_ms(now)))
    return vacation


def at_table(user_ids, now=None) -> dict[int, Vacation]:
    """The players among ``user_ids`` on vacation now, with their vacation (shown to the others at a table)."""
    now = now or timezone.now()
    vacations = Vacation.objects.filter(user_id__in=list(user_ids), starts_at__lte=now, ends_at__gt=now)
    return {vacation.user_id: vacation for vacation in vacations}


def away_at_table(match_id: int, now) -> dict[int, tuple]:
    """Seat index -> (start, end) of the vacation its player is on at ``now``, at the table ``match_id``: one query
    (``turnengine.vacations.windows_at_start``)."""
    rows = Vacation.objects.filter(
        user__seats__match_id=match_id, starts_at__lte=now, ends_at__gt=now
    ).order_by().values_list("user__seats__index", "starts_at", "ends_at")
    return {seat: (starts_at, ends_at) for seat, starts_at, ends_at in rows}
