"""HTTP limits on what a script would repeat: failed log-ins (per account and address, per address), sign-ups and
table creations.

Each limit is a django-ratelimit window (rates in settings, ``TAPETE_*_PER_*``) counted in the cache, which is
Redis, shared by every web process, with real services. A limit is checked before the work and counted only
when the thing it limits happens (a failed log-in, a new account, a new table), so a user who keeps within it never
meets it. What the user reads when over it comes from ``Limit.message``. While the cache cannot be reached, no limit
applies (``tapete.cache``, ``RATELIMIT_FAIL_OPEN``): an outage of Redis must not refuse sign-ups and log-ins.
"""

from __future__ import annotations

from dataclasses import dataclass

from django.conf import settings
from django.utils.translation import gettext, gettext_noop, ngettext
from django_ratelimit.core import get_usage


def _posted_username_and_address(_group: str, request) -> str:
    """An account's failures are counted per client address (as django-axes can): a stranger's wrong passwords
    lock that stranger out of the account, never its owner elsewhere. The address limit bounds a stranger who
    changes addresses (a whole IPv6 /64 counts as one address there)."""
    return f"{request.POST.get('username', '').strip().lower()}|{request.META.get('REMOTE_ADDR', '')}"


@dataclass(frozen=True)
class Limit:
    group: str
    rate_setting: str
    key: object  # django-ratelimit's key: "ip", "user" or a function of (group, request)
    text: str  # a gettext_noop'd sentence with %(wait)s

    def _usage(self, request, increment: bool) -> dict | None:
        rate = getattr(settings, self.rate_setting)
        return get_usage(request, group=self.group, key=self.key, rate=rate, increment=increment)

    def wait_seconds(self, request) -> int:
        """0 while within the limit, else the seconds until the window ends (at least 1)."""
        usage = self._usage(request, increment=False)
        if usage is None or usage["count"] < usage["limit"]:
            return 0
        return max(usage["time_left"], 1)

    def count(self, request) -> None:
        self._usage(request, increment=True)

    def message(self, seconds: int) -> str:
        return gettext(self.text) % {"wait": _duration(seconds)}


def _duration(seconds: int) -> str:
    if seconds < 60:
        return ngettext("%(count)d second", "%(count)d seconds", seconds) % {"count": seconds}
    minutes = -(-seconds // 60)
    return ngettext("%(count)d minute", "%(count)d minutes", minutes) % {"count": minutes}


FAILED_LOGINS_PER_ACCOUNT = Limit(
    "login-account",
    "TAPETE_LOGIN_FAILURES_PER_ACCOUNT",
    _posted_username_and_address,
    gettext_noop("Too many failed log-ins for this account. Try again in %(wait)s, or reset your password."),
)
FAILED_LOGINS_PER_ADDRESS = Limit(
    "login-address",
    "TAPETE_LOGIN_FAILURES_PER_ADDRESS",
    "ip",
    gettext_noop("Too many failed log-ins from your network. Try again in %(wait)s."),
)
SIGNUPS_PER_ADDRESS = Limit(
    "signup-address",
    "TAPETE_SIGNUPS_PER_ADDRESS",
    "ip",
    gettext_noop("Too many accounts were created from your network. Try again in %(wait)s."),
)
TABLES_PER_USER = Limit(
    "table-create",
    "TAPETE_TABLES_PER_USER",
    "user",
    gettext_noop("You have opened many tables in a short time. Try again in %(wait)s."),
)
