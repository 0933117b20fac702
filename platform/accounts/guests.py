"""Guest accounts: a visitor plays at once, without signing up (as on Lichess).

A guest is a real account made on the fly, counted against the limit on accounts per client address like a
sign-up (``accounts.registration``: over it, the visitor reads why, with an HTTP 429) (``is_guest``), logged in with an unusable password: it sits at tables
like anyone, but is never rated and never sits at a ranked table (``lobby.services`` refuses). The guest keeps it by
choosing a name and password (``accounts.views.keep_account``): the same row, so its games and history stay
theirs. An abandoned guest (no log-in and no table activity for ``TAPETE_GUEST_TTL_SECONDS``) is cleaned up by the
periodic task ``accounts.tasks.cleanup_guests``: its tables are deleted with it, except those that involve a
registered player (seated, or chatting as a spectator) or moderation (a report, an audit entry: the evidence). A
guest whose rows stay (a seat or chat line at a kept table, a report about them) is kept as an inactive, unusable
row instead, so games keep every seat and reports their evidence.
"""

from __future__ import annotations

import secrets
from collections.abc import Callable
from datetime import datetime, timedelta
from functools import wraps

from django.conf import settings
from django.contrib.auth import login
from django.contrib.auth.views import redirect_to_login
from django.db import IntegrityError, transaction
from django.db.models import ProtectedError, Q, RestrictedError
from django.shortcuts import render
from django.utils import timezone

from accounts.models import User
from accounts.names import GUEST_PREFIX
from accounts.registration import TooManyAccounts, count_new_account
from turnengine.models import Match
from turnengine.writer import delete_tables_of
from web.throttle import client_address


def guest_create(*, address: str | None = None) -> User:
    """A new guest account with a fresh name (guest-k3x9q2) and no usable password, counted against ``address``'s
    limit on new accounts (:class:`~accounts.registration.TooManyAccounts` over it)."""
    count_new_account(address)
    while True:
        username = GUEST_PREFIX + secrets.token_hex(3)
        try:
            with transaction.atomic():
                user = User(username=username, is_guest=True)
                user.set_unusable_password()
                user.save()
                return user
        except IntegrityError:
            continue  # that name exists: draw another


def login_guest(request) -> User:
    """Make a guest account for this anonymous visitor and log it in."""
    user = guest_create(address=client_address(request))
    login(request, user, backend=settings.AUTHENTICATION_BACKENDS[0])
    return user


def login_or_guest(view):
    """Like ``login_required``, except that an anonymous POST (an explicit click: play, join, open a table)
    plays as a new guest instead of being sent to the log-in page; over the limit on new accounts, the visitor
    reads why (HTTP 429) and may log in instead."""

    @wraps(view)
    def wrapper(request, *args, **kwargs):
        if not request.user.is_authenticated:
            if request.method != "POST":
                return redirect_to_login(request.get_full_path())
            try:
                login_guest(request)
            except TooManyAccounts as refused:
                return render(request, "accounts/too_many_accounts.html", {"message": refused.message}, status=429)
        return view(request, *args, **kwargs)

    return wrapper


def abandoned_guests(*, now: datetime | None = None):
    """Guests with no log-in and no table activity for ``TAPETE_GUEST_TTL_SECONDS``."""
    cutoff = (now or timezone.now()) - timedelta(seconds=settings.TAPETE_GUEST_TTL_SECONDS)
    recent_tables = Match.objects.filter(Q(created_at__gte=cutoff) | Q(last_action_at__gte=cutoff))
    return (
        User.objects.filter(is_guest=True, date_joined__lt=cutoff)
        .filter(Q(last_login__isnull=True) | Q(last_login__lt=cutoff))
        .exclude(seats__match__in=recent_tables)
    )


_evidence: list[Callable[[], Q]] = []


def install_evidence(condition: Callable[[], Q]) -> None:
    """Another app's matches that a clean-up must keep, as a condition on matches: moderation installs its reports'
    and audit entries' (``ModerationConfig.ready``), the evidence of what a guest did."""
    _evidence.append(condition)


def tables_to_keep(*, staying):
    """The matches a clean-up must not delete: any that a registered player (one of ``staying``) sat or chatted
    at, and any that an installed condition keeps (a report or a moderator's audit entry points to it, or a report
    holds its chat lines)."""
    keep = Q(seats__user__in=staying) | Q(chat__user__in=staying)
    for condition in _evidence:
        keep |= condition()
    return Match.objects.filter(keep).values("pk")


def guests_cleanup(*, now: datetime | None = None) -> dict[str, int]:
    """Remove abandoned guests; returns how many were deleted and how many were kept as inactive rows."""
    guests = list(abandoned_guests(now=now))
    staying = User.objects.filter(is_bot=False).exclude(pk__in=[guest.pk for guest in guests])
    deleted = deactivated = 0
    delete_tables_of(guests, keep=tables_to_keep(staying=staying))
    for guest in guests:
        try:
            with transaction.atomic():
                guest.delete()
            deleted += 1
        except (ProtectedError, RestrictedError):
            if guest.is_active:
                guest.is_active = False
                guest.save(update_fields=["is_active"])
                deactivated += 1
    return {"deleted": deleted, "deactivated": deactivated}
