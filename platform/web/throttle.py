"""Limits on what a script would repeat: failed log-ins (per account and address, per address), new accounts and new
tables.

Each limit is a django-ratelimit window (rates in settings, ``TAPETE_*_PER_*``) counted in the cache, which is
Redis, shared by every web process, with real services. The log-in limits are checked on the request before the
work and counted only when a log-in fails, so a user who keeps within them never meets them. The limits on what
is made (accounts, tables) are taken by the services that make it (``accounts.registration``,
``lobby.services``), whatever the entry point: :meth:`Limit.take` counts one use for a key (an address from
:func:`client_address`, an account) in one atomic increment, so two processes racing for the last use cannot both
get it. What the user reads when over a limit comes from ``Limit.message``. While the cache cannot be reached, no
limit applies (``tapete.cache``, ``RATELIMIT_FAIL_OPEN``): an outage of Redis must not refuse sign-ups and log-ins.
"""

from __future__ import annotations

import ipaddress
from dataclasses import dataclass

from django.conf import settings
from django.utils.translation import gettext, gettext_noop, ngettext
from django_ratelimit.core import get_usage


def _posted_username_and_address(_group: str, request) -> str:
    """An account's failures are counted per client address (as django-axes can): a stranger's wrong passwords
    lock that stranger out of the account, never its owner elsewhere. The address limit bounds a stranger who
    changes addresses (a whole IPv6 /64 counts as one address there)."""
    return f"{request.POST.get('username', '').strip().lower()}|{request.META.get('REMOTE_ADDR', '')}"


def client_address(request) -> str | None:
    """The client's network as the limits count it, as django-ratelimit's ``"ip"`` key does: the IPv4 address, or
    the IPv6 prefix of ``RATELIMIT_IPV6_MASK`` bits (one household's /64 by default: its other addresses are
    free for the asking)."""
    address = request.META.get("REMOTE_ADDR")
    return network_of(address) if address else None


def network_of(address: str) -> str:
    """The network of the client address ``address`` as the limits count it (see :func:`client_address`)."""
    if ":" in address:
        mask = getattr(settings, "RATELIMIT_IPV6_MASK", 64)
    else:
        mask = getattr(settings, "RATELIMIT_IPV4_MASK", 32)
    return str(ipaddress.ip_network(f"{address}/{mask}", strict=False).network_address)


@dataclass(frozen=True)
class Limit:
    group: str
    rate_setting: str
    key: object  # django-ratelimit's key: "ip", "user" or a function of (group, request)
    text: str  # a gettext_noop'd sentence with %(wait)s

    def _usage(self, request, increment: bool, key=None) -> dict | None:
        rate = getattr(settings, self.rate_setting)
        return get_usage(request, group=self.group, key=key or self.key, rate=rate, increment=increment)

    def wait_seconds(self, request) -> int:
        """0 while within the limit, else the seconds until the window ends (at least 1)."""
        usage = self._usage(request, increment=False)
        if usage is None or usage["count"] < usage["limit"]:
            return 0
        return max(usage["time_left"], 1)

    def count(self, request) -> None:
        self._usage(request, increment=True)

    def take(self, value: str) -> int:
        """Count one use for ``value`` (not a request: the limits the services take); returns 0 if it was within
        the limit, else the seconds until the window ends (at least 1). One atomic increment decides."""
        usage = self._usage(None, increment=True, key=lambda _group, _request: value)
        if usage is None or not usage["should_limit"]:
            return 0
        return max(usage["time_left"], 1)

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
# Every new account from one address: sign-ups, guests and guests kept (``accounts.registration``).
ACCOUNTS_PER_ADDRESS = Limit(
    "account-address",
    "TAPETE_ACCOUNTS_PER_ADDRESS",
    "ip",
    gettext_noop("Too many accounts were created from your network. Try again in %(wait)s."),
)
# Every new table, from any entry point (``lobby.services``): per account, and per address over all its accounts.
TABLES_PER_USER = Limit(
    "table-create",
    "TAPETE_TABLES_PER_USER",
    "user",
    gettext_noop("You have opened many tables in a short time. Try again in %(wait)s."),
)
TABLES_PER_ADDRESS = Limit(
    "table-create-address",
    "TAPETE_TABLES_PER_ADDRESS",
    "ip",
    gettext_noop("Many tables were opened from your network in a short time. Try again in %(wait)s."),
)
