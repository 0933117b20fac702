"""The websocket Origin check compares scheme, host and port (tapete/origin.py), through the real ASGI stack."""

import pytest
from channels.testing import WebsocketCommunicator

from tapete.asgi import application

# Channels closes stale database connections when a socket closes, so even a handshake touches the database.
pytestmark = pytest.mark.django_db

SITE = "localhost:8000"  # as the browser's Host header names the site


async def _handshake(origin: str | None, host: str = SITE, extra: list | None = None) -> bool:
    headers = [(b"host", host.encode())] + ([(b"origin", origin.encode())] if origin else []) + (extra or [])
    communicator = WebsocketCommunicator(application, "/ws/lobby/", headers=headers)
    connected, _ = await communicator.connect(timeout=5)
    await communicator.disconnect()
    return connected


async def test_the_sites_own_origin_is_let_through():
    assert await _handshake("http://localhost:8000")


@pytest.mark.parametrize(
    "origin",
    [
        "http://localhost:9999",  # another port on the same host
        "http://127.0.0.1:9999",  # the three an audit tried: another host and port, ...
        "https://localhost",  # ... another scheme and port, ...
        "chrome-extension://localhost",  # ... a browser extension naming the same host
        "http://127.0.0.1:8000",  # an allowed host, but not the one the page was served from
        "null",  # sandboxed frames and file:// pages
    ],
)
async def test_an_origin_that_differs_in_scheme_host_or_port_is_refused(origin):
    assert not await _handshake(origin)


async def test_a_handshake_without_origin_is_refused():
    assert not await _handshake(None)


async def test_a_host_outside_allowed_hosts_is_refused_even_with_its_own_origin():
    assert not await _handshake("http://evil.example", host="evil.example")


async def test_behind_a_tls_proxy_the_https_origin_is_the_sites_own(settings):
    settings.SECURE_PROXY_SSL_HEADER = ("HTTP_X_FORWARDED_PROTO", "https")
    forwarded = [(b"x-forwarded-proto", b"https")]
    assert await _handshake("https://localhost:8000", extra=forwarded)
    assert not await _handshake("http://localhost:8000", extra=forwarded)
    # Without the proxy's word the connection is plain, so an https page is another origin.
    assert not await _handshake("https://localhost:8000")


async def test_trusted_origins_are_compared_in_full(settings):
    settings.CSRF_TRUSTED_ORIGINS = ["https://play.example.com", "https://*.tapete.example"]
    assert await _handshake("https://play.example.com")
    assert await _handshake("https://fr.tapete.example")
    assert not await _handshake("http://play.example.com")
    assert not await _handshake("https://play.example.com:8443")
