"""A browser's websocket's session stack: Channels' own ``AuthMiddlewareStack`` resolves the user from the session
cookie at the handshake, then the socket's application runs with the resolved scope less its session, and sends
straight to the server.

Run around the application, Channels' stack stays in the socket's call chain for the socket's life: its three
middlewares keep four copies of the scope, and the scope keeps the session (its data decoded), though nothing a
socket does after its handshake reads the session; and its ``SessionMiddleware`` wraps ``send`` so that an HTTP
response saves a modified session and sets its cookie, which for a websocket (it sends no HTTP response) saves and
sets nothing, yet reads the session's state through its lazy object on every frame the socket sends: about 2 % of a
loaded server's CPU (bench/RESULTS.md). Here the stack's innermost application hands the resolved scope back at
once, so the middlewares' frames, their copies and the session go as soon as the user is known: about 3.5 KiB less
per idle socket (``bench/idle_sockets.py``). Websockets only: HTTP goes to Django, whose own middleware saves the
session.
"""

from __future__ import annotations

from channels.auth import AuthMiddlewareStack


async def _resolved(scope, receive, send) -> dict:
    return scope


class SocketSessionStack:
    """ASGI middleware: ``inner`` runs with ``scope["user"]`` and ``scope["cookies"]`` as Channels' stack resolves
    them, and no ``scope["session"]``."""

    def __init__(self, inner) -> None:
        self.inner = inner
        self.resolve = AuthMiddlewareStack(_resolved)

    async def __call__(self, scope, receive, send):
        resolved = await self.resolve(scope, receive, send)
        del resolved["session"]
        return await self.inner(resolved, receive, send)


def socket_session_stack(inner) -> SocketSessionStack:
    return SocketSessionStack(inner)
