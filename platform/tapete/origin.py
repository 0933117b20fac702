"""The websocket handshake's Origin check, in full: Django's CSRF rule for forms, applied to websockets.

A handshake is let through when its ``Host`` is one of ``ALLOWED_HOSTS`` and its ``Origin`` is the site's own
(the same scheme, host and port as the request) or one of ``CSRF_TRUSTED_ORIGINS``. Channels'
``AllowedHostsOriginValidator`` compares host names only, so ``http://127.0.0.1:9999``, ``https://localhost`` or
``chrome-extension://localhost`` passed for a site at ``http://localhost:8000``. The comparison itself (scheme, host,
port with each scheme's default) is Channels' ``OriginValidator.match_allowed_origin``; the request's scheme is
``wss`` from the server, or the proxy's ``SECURE_PROXY_SSL_HEADER`` as Django reads it for HTTP requests.
"""

from __future__ import annotations

from urllib.parse import urlparse

from channels.security.websocket import OriginValidator, WebsocketDenier
from django.conf import settings
from django.http.request import split_domain_port, validate_host


class SameOriginValidator(OriginValidator):
    def __init__(self, application):
        super().__init__(application, allowed_origins=[])

    async def __call__(self, scope, receive, send):
        if scope["type"] != "websocket":
            raise ValueError("SameOriginValidator only guards websocket connections")
        if self.allowed(scope):
            return await self.application(scope, receive, send)
        return await WebsocketDenier()(scope, receive, send)

    def allowed(self, scope) -> bool:
        headers = {name: value.decode("latin1") for name, value in scope.get("headers", [])}
        host, origin = headers.get(b"host", ""), headers.get(b"origin")
        domain, _port = split_domain_port(host)
        if not domain or not validate_host(domain, settings.ALLOWED_HOSTS) or not origin:
            return False
        parsed = urlparse(origin)
        scheme = "https" if _is_secure(scope, headers) else "http"
        patterns = [
            f"{scheme}://{host}",
            *(_channels_pattern(trusted) for trusted in settings.CSRF_TRUSTED_ORIGINS),
        ]
        return any(self.match_allowed_origin(parsed, pattern) for pattern in patterns)


def _is_secure(scope, headers: dict[bytes, str]) -> bool:
    if scope.get("scheme") in ("wss", "https"):
        return True
    proxy_header = getattr(settings, "SECURE_PROXY_SSL_HEADER", None)
    if not proxy_header:
        return False
    name, secure_value = proxy_header  # e.g. ("HTTP_X_FORWARDED_PROTO", "https"), as in request.META
    raw = name.removeprefix("HTTP_").replace("_", "-").lower().encode("latin1")
    return headers.get(raw, "").split(",")[0].strip() == secure_value


def _channels_pattern(trusted: str) -> str:
    """Django writes a trusted origin's subdomain wildcard ``https://*.example.com``; Channels ``https://.example.com``."""
    return trusted.replace("://*.", "://.", 1)
