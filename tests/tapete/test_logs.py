"""A Redis outage logs one line per record, not the libraries' tracebacks (``tapete.logs``): channels_redis' pub/sub
layer is cut from Redis by a TCP proxy, and what its receive loop logs through the site's log handler is read back.
Needs the Redis server named by REDIS_URL. Real seconds pass here, by nature."""

from __future__ import annotations

import asyncio
import io
import logging
import os
from urllib.parse import urlsplit

import pytest
from django.conf import settings

from realtime.channel_layer import RedisPubSubLayer
from tests.faults import TcpProxy

REDIS_URL = os.environ.get("REDIS_URL", "")
pytestmark = [pytest.mark.redis, pytest.mark.skipif(not REDIS_URL, reason="needs REDIS_URL (CI sets it)")]


def site_handler() -> logging.StreamHandler:
    """The console handler ``settings.LOGGING`` installs on the root logger."""
    return next(
        handler
        for handler in logging.getLogger().handlers
        if type(handler) is logging.StreamHandler and handler.name == "console"
    )


def test_a_redis_outage_logs_one_line_per_record_without_the_library_tracebacks():
    target = urlsplit(REDIS_URL)
    handler = site_handler()
    written = io.StringIO()
    previous = handler.setStream(written)
    root_level = logging.getLogger().level
    logging.getLogger().setLevel(logging.INFO)  # as the site runs (DJANGO_LOG_LEVEL unset)

    async def cut_for_a_while(proxy: TcpProxy) -> None:
        layer = RedisPubSubLayer(
            hosts=[{"address": f"redis://127.0.0.1:{proxy.port}{target.path}"}],
            prefix=f"{settings.TAPETE_REDIS_PREFIX}logs.",
        )
        await layer.new_channel()
        proxy.cut()
        await asyncio.sleep(2.5)  # the pub/sub receive loop retries (and logs) once a second
        proxy.restore()
        await layer.flush()

    try:
        with TcpProxy(target.hostname, target.port or 6379) as proxy:
            asyncio.run(cut_for_a_while(proxy))
    finally:
        handler.setStream(previous)
        logging.getLogger().setLevel(root_level)
    lines = written.getvalue().splitlines()
    outage_lines = [line for line in lines if "Redis unreachable" in line]
    assert outage_lines, f"the library logged nothing the test could see: {lines}"
    assert all(line.startswith("channels_redis.pubsub: Unexpected exception") for line in outage_lines)
    assert not [line for line in lines if line.startswith("Traceback") or line.startswith("  File ")]
