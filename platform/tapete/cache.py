"""The cache with real services: Django's Redis cache, answering as an empty cache while Redis cannot be reached.

The cache holds counters of the HTTP limits (``web.throttle``, ``botapi.ratelimit``) and short-lived marks
(``botapi.analysis.schedule``): nothing whose absence costs more than a limit not applied while Redis is away.
Django's ``RedisCache`` raises redis-py's errors from every call then, and django-ratelimit catches none of them,
so sign-ups, log-ins and table creations answered HTTP 500 during a Redis outage. Neither has an option
for this (``RATELIMIT_FAIL_OPEN`` covers a cache that answers nothing, not one that raises). Here each call answers
what an empty cache would (the default, ``False``, ``{}``; ``incr`` raises ``ValueError``, as for a missing key),
and the outage is logged once when it starts and once when the cache answers again. django-ratelimit, with
``RATELIMIT_FAIL_OPEN``, then lets the request through.
"""

from __future__ import annotations

import logging

from django.core.cache.backends.base import DEFAULT_TIMEOUT
from django.core.cache.backends.redis import RedisCache
from redis.exceptions import RedisError

logger = logging.getLogger("tapete.cache")

UNREACHABLE = (RedisError, OSError)


class FailOpenRedisCache(RedisCache):
    unreachable = False  # shared by every thread's instance: it only decides what is logged

    def _answer(self, call, fallback, *args):
        try:
            result = call(*args)
        except UNREACHABLE as error:
            if not FailOpenRedisCache.unreachable:
                FailOpenRedisCache.unreachable = True
                logger.error(
                    "cache unreachable (%s): the HTTP limits let everything through until it answers", error
                )
            if fallback is ValueError:
                raise ValueError("the cache is unreachable") from error
            return fallback
        if FailOpenRedisCache.unreachable:
            FailOpenRedisCache.unreachable = False
            logger.warning("cache reachable again: the HTTP limits apply")
        return result

    def add(self, key, value, timeout=DEFAULT_TIMEOUT, version=None):
        return self._answer(super().add, False, key, value, timeout, version)

    def get(self, key, default=None, version=None):
        return self._answer(super().get, default, key, default, version)

    def set(self, key, value, timeout=DEFAULT_TIMEOUT, version=None):
        return self._answer(super().set, None, key, value, timeout, version)

    def touch(self, key, timeout=DEFAULT_TIMEOUT, version=None):
        return self._answer(super().touch, False, key, timeout, version)

    def delete(self, key, version=None):
        return self._answer(super().delete, False, key, version)

    def get_many(self, keys, version=None):
        return self._answer(super().get_many, {}, keys, version)

    def has_key(self, key, version=None):
        return self._answer(super().has_key, False, key, version)

    def incr(self, key, delta=1, version=None):
        return self._answer(super().incr, ValueError, key, delta, version)

    def set_many(self, data, timeout=DEFAULT_TIMEOUT, version=None):
        return self._answer(super().set_many, list(data), data, timeout, version)

    def delete_many(self, keys, version=None):
        return self._answer(super().delete_many, None, keys, version)

    def clear(self):
        return self._answer(super().clear, False)
