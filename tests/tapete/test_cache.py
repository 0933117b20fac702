"""The Redis cache answers as an empty cache while Redis cannot be reached (tapete/cache.py), so the HTTP limits
let requests through instead of failing them. Here it points at a local port where nothing listens, as a Redis
that is down: no Redis server is needed."""

from __future__ import annotations

import logging

import pytest
from django.test import RequestFactory

from tapete.cache import FailOpenRedisCache
from tests.servers import free_port
from web import throttle


@pytest.fixture
def unreachable_cache(settings):
    location = f"redis://127.0.0.1:{free_port()}/0"
    params = {"OPTIONS": {"socket_connect_timeout": 1, "socket_timeout": 1}}
    settings.CACHES = {
        "default": {"BACKEND": "tapete.cache.FailOpenRedisCache", "LOCATION": location, **params}
    }
    settings.RATELIMIT_ENABLE = True
    from django.core.cache import caches

    cache = caches["default"]
    assert isinstance(cache, FailOpenRedisCache)
    yield cache
    FailOpenRedisCache.unreachable = False


def test_an_unreachable_cache_answers_as_an_empty_one_and_says_so_once(unreachable_cache, caplog):
    with caplog.at_level(logging.WARNING, logger="tapete.cache"):
        assert unreachable_cache.get("key", "default") == "default"
        assert unreachable_cache.add("key", 1) is False
        assert unreachable_cache.get_many(["key"]) == {}
        unreachable_cache.set("key", 1)
        with pytest.raises(ValueError):
            unreachable_cache.incr("key")  # as for a missing key
    assert [record.message.split(" (")[0] for record in caplog.records] == ["cache unreachable"]


def test_the_http_limits_let_requests_through_while_the_cache_is_unreachable(unreachable_cache, settings):
    settings.TAPETE_ACCOUNTS_PER_ADDRESS = "1/h"
    settings.TAPETE_LOGIN_FAILURES_PER_ADDRESS = "1/h"
    request = RequestFactory().post("/accounts/login/", REMOTE_ADDR="192.0.2.7")
    for _ in range(3):
        assert throttle.FAILED_LOGINS_PER_ADDRESS.wait_seconds(request) == 0
        throttle.FAILED_LOGINS_PER_ADDRESS.count(request)
        assert throttle.ACCOUNTS_PER_ADDRESS.take("192.0.2.7") == 0
