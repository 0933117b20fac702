"""The per-token rate limit, shared by the HTTP API and the token websockets: ``TAPETE_API_RATE`` uses (for
example ``300/m``) per token and window, counted in Django's cache, so every process sharing the cache shares the
count (with the default local-memory cache, each process counts its own)."""

from __future__ import annotations

import time

from django.conf import settings
from django.core.cache import cache
from ninja.throttling import BaseThrottle

PERIODS = {"s": 1, "m": 60, "h": 3600, "d": 86400}


def parse_rate(rate: str) -> tuple[int, int]:
    """``"300/m"`` -> (300, 60)."""
    count, _, period = rate.partition("/")
    return int(count), PERIODS[period[:1]]


def token_allows(token_id: int) -> tuple[bool, float]:
    """Count one use of token ``token_id``; returns (allowed, seconds until the window ends)."""
    limit, period = parse_rate(settings.TAPETE_API_RATE)
    now = time.time()
    window = int(now // period)
    key = f"botapi:rate:{token_id}:{window}"
    cache.add(key, 0, timeout=period + 1)
    try:
        used = cache.incr(key)
    except ValueError:  # the key expired between add and incr
        cache.add(key, 1, timeout=period + 1)
        used = 1
    return used <= limit, (window + 1) * period - now


class TokenThrottle(BaseThrottle):
    """django-ninja's hook: runs after authentication, so ``request.auth`` is the token."""

    def allow_request(self, request) -> bool:
        allowed, self.retry_after = token_allows(request.auth.pk)
        return allowed

    def wait(self) -> float | None:
        return getattr(self, "retry_after", None)
