"""A browser's websocket's session stack: Channels' cookie, session and auth middleware, without the session
middleware's wrapped ``send``.

Channels' ``SessionMiddleware`` wraps the application's ``send`` so that an HTTP response saves a modified session
and sets its cookie. A websocket sends no HTTP response (the wrapper saves and sets nothing for its messages), yet
the wrapper reads the session's state through its lazy object on every frame the socket sends: about 2 % of a
loaded server's CPU (bench/RESULTS.md). Here the session is resolved exactly as Channels does, then the socket sends
straight to the server. Websockets only: HTTP goes to Django, whose own middleware saves the session.
"""

from __future__ import annotations

from channels.auth import AuthMiddleware
from channels.sessions import CookieMiddleware, InstanceSessionWrapper, SessionMiddleware


class SocketSessionMiddleware(SessionMiddleware):
    """Channels' ``SessionMiddleware.__call__`` with the server's ``send`` passed on instead of the wrapper's."""

    async def __call__(self, scope, receive, send):
        wrapper = InstanceSessionWrapper(scope, send)
        await wrapper.resolve_session()
        return await self.inner(wrapper.scope, receive, send)


def socket_session_stack(inner):
    """Channels' ``AuthMiddlewareStack`` with :class:`SocketSessionMiddleware` for its session middleware."""
    return CookieMiddleware(SocketSessionMiddleware(AuthMiddleware(inner)))
