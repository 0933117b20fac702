"""Token authentication for websockets: an ASGI middleware in front of the site's websocket routes.

A websocket handshake that carries ``Authorization: Bearer <token>`` is authenticated by the token alone: the
consumers then see ``scope["user"]`` (the token's owner) and ``scope["api_token"]``, exactly as they would see a
session's user. No cookie is read and no Origin is checked on that path: the Origin check protects cookies, which a
browser attaches on its own, while a bearer token is only ever sent by a program that holds it. Every other
handshake goes to the session stack (cookie and Origin) unchanged.

The table websocket (``/ws/match/<id>/``) needs the ``play`` scope, the event stream (``/ws/events/``) ``read``.
A refused token is told why after the handshake, by a close code (the HTTP handshake itself cannot carry one):
4401 unknown or revoked token, 4403 owner suspended or scope missing, 4429 rate limited.
"""

from __future__ import annotations

from channels.db import database_sync_to_async

from botapi.models import SCOPE_PLAY, SCOPE_READ
from botapi.ratelimit import token_allows
from botapi.tokens import TokenError, bearer_token, token_authenticate

CLOSE_INVALID_TOKEN = 4401
CLOSE_FORBIDDEN = 4403
CLOSE_RATE_LIMITED = 4429
EVENTS_PATH = "/ws/events/"


def needed_scope(path: str) -> str:
    return SCOPE_READ if path.startswith(EVENTS_PATH) else SCOPE_PLAY


@database_sync_to_async
def _authenticate(raw: str, path: str):
    """(token, None) or (None, close code)."""
    try:
        token = token_authenticate(raw)
    except TokenError as error:
        return None, CLOSE_INVALID_TOKEN if error.code == "invalid_token" else CLOSE_FORBIDDEN
    if not token.has_scope(needed_scope(path)):
        return None, CLOSE_FORBIDDEN
    if not token_allows(token.pk)[0]:
        return None, CLOSE_RATE_LIMITED
    return token, None


class BearerTokenRouter:
    """Handshakes with a bearer token go to ``token_app``, with the user in the scope; the others to
    ``session_app``."""

    def __init__(self, *, token_app, session_app) -> None:
        self.token_app = token_app
        self.session_app = session_app

    async def __call__(self, scope, receive, send):
        header = dict(scope.get("headers") or []).get(b"authorization")
        raw = bearer_token(header.decode("latin-1")) if header else None
        if raw is None:
            return await self.session_app(scope, receive, send)
        token, refusal = await _authenticate(raw, scope.get("path", ""))
        if token is None:
            return await _refuse(receive, send, refusal)
        return await self.token_app({**scope, "user": token.user, "api_token": token}, receive, send)


async def _refuse(receive, send, code: int) -> None:
    """Accept, then close with ``code``, so the program learns why (a refused handshake is a bare HTTP 403)."""
    message = await receive()
    if message["type"] != "websocket.connect":
        return
    await send({"type": "websocket.accept"})
    await send({"type": "websocket.close", "code": code})
