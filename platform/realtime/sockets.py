"""The base of the site's websocket consumers: limits, one parser for client frames, errors, close codes.

:class:`FrameSocket` does for every socket what none should do on its own:

* counts the socket against the limits per user and per IP address (``realtime.ratelimit``) and refuses one
  too many with close code 4429;
* refuses a handshake by **accepting it and then closing** with a code and a reason (4401 not logged in, 4403
  suspended or banned, 4404 no such table, 4405 a table that allows no spectators, 4429 too many sockets): a close before the accept reaches a browser as a
  bare HTTP 403, where the code is lost. The reason also goes first as an ``error`` frame, since daphne does not
  pass a close frame's reason on;
* turns every client frame into a typed message through ``realtime.frames`` (one place for the protocol's
  shapes), after the user's frame bucket allowed it, and hands it to :meth:`FrameSocket.handle`;
* answers every refusal with an ``error`` frame and keeps the socket open: an :class:`EngineError` with its code,
  and any other exception as ``server_error``, logged in one line without the client's payload or a traceback;
* joins, for a socket opened with a Bot API token, the token's group (the token's ``socket_group``), so that
  revoking the token closes it at once in every process, with 4401 and the reason ``token_revoked``;
* gives up its channel-layer channel when it ends (``realtime.dispatch.MessageLoop``, ``realtime.channel_layer``),
  so that no Redis subscription outlives it;
* speaks the user's language (the language cookie, else ``Accept-Language``) in error messages and close reasons;
* never fails a handshake with HTTP 500 (:class:`HandshakeGuard`, around every websocket): when the socket cannot
  be opened (PostgreSQL unreachable while the session is read, the channel layer's Redis while Channels opens the
  socket's channel or :meth:`open` joins its groups, or any other failure), the handshake is accepted and closed
  with 4500, logged in one line, and the client tries again later.

Close codes and error codes are documented in ``docs/protocol.md``; ``tests/turnengine/test_protocol_doc.py`` checks
that the document and this module agree.
"""

from __future__ import annotations

import logging
import traceback

from channels.db import database_sync_to_async
from channels.generic.websocket import AsyncWebsocketConsumer
from django.conf import settings
from django.http import HttpRequest
from django.utils import translation

from realtime.dispatch import MessageLoop
from realtime.errors import MESSAGES, transport_error
from realtime.frames import KINDS, ClientMessage, parse_client_frame
from realtime.ratelimit import SocketRegister, TokenBucket
from turnengine import updates
from turnengine.errors import EngineError, engine_error

logger = logging.getLogger("tapete.websocket")

CLOSE_UNAUTHENTICATED = 4401
CLOSE_SUSPENDED = 4403
CLOSE_NOT_FOUND = 4404
CLOSE_NO_SPECTATORS = 4405  # a table that allows no spectators, opened by someone not seated there
CLOSE_TOO_MANY_SOCKETS = 4429
# The server failed while opening the socket (logged); try again later. Not 1011: a server may only send 1000 and
# 3000-4999 (RFC 6455 leaves the rest to the protocol itself), and autobahn, under daphne, raises on any other.
CLOSE_SERVER_ERROR = 4500
CLOSE_SLOW_READER = 4008  # by the server itself (tapete/serve.py): too much waited unread for the client
CLOSE_RESTARTING = 4012  # by the server itself (tapete/serve.py) on shutdown: reconnect at once (1012's meaning)

# Each close code's error code: its message is the close reason, and an ``error`` frame with it goes first, because
# daphne drops the reason of a close frame (its ``serverClose`` sends the code alone).
CLOSE_ERRORS = {
    CLOSE_UNAUTHENTICATED: "not_logged_in",
    CLOSE_SUSPENDED: "suspended",
    CLOSE_NOT_FOUND: "not_found",
    CLOSE_NO_SPECTATORS: "no_spectators",
    CLOSE_TOO_MANY_SOCKETS: "too_many_sockets",
}

# This process's open sockets and frame buckets (see realtime.ratelimit).
REGISTER = SocketRegister()


def scope_language(scope: dict) -> str:
    """The language Django's LocaleMiddleware would pick for this handshake (no i18n URL prefixes here)."""
    request = HttpRequest()
    request.COOKIES = scope.get("cookies") or {}
    for name, value in scope.get("headers") or []:
        if name == b"accept-language":
            request.META["HTTP_ACCEPT_LANGUAGE"] = value.decode("latin-1")
    return translation.get_language_from_request(request)


class HandshakeGuard:
    """ASGI middleware around the whole websocket stack (``tapete.asgi``): a failure before the handshake is
    answered is accepted and closed with 4500, logged in one line, where daphne would answer HTTP 500. Channels'
    session middleware reads the database before any consumer runs, Channels opens the socket's channel on the
    layer, and a consumer joins its groups before it accepts: each fails while PostgreSQL or the channel layer's
    Redis cannot be reached. A failure after the accept is the consumer's to handle."""

    def __init__(self, app) -> None:
        self.app = app

    async def __call__(self, scope, receive, send) -> None:
        accepted = False

        async def send_tracked(message: dict) -> None:
            nonlocal accepted
            if message["type"] in ("websocket.accept", "websocket.close"):
                accepted = True  # answered: a close before the accept is a deliberate refusal
            await send(message)

        try:
            await self.app(scope, receive, send_tracked)
        except Exception as error:
            if accepted:
                raise
            logger.warning(
                "websocket %s: the handshake failed with %s; closed with %d",
                scope.get("path"),
                type(error).__name__,
                CLOSE_SERVER_ERROR,
            )
            await send({"type": "websocket.accept"})
            await send({"type": "websocket.close", "code": CLOSE_SERVER_ERROR})


class FrameSocket(MessageLoop, AsyncWebsocketConsumer):
    """Subclasses implement :meth:`open` (after admission; call :meth:`refuse` or ``accept``), :meth:`handle`
    (one parsed message) and optionally :meth:`closed`; ``kinds`` is the allow-list of client frames."""

    kinds: frozenset[str] = KINDS
    admitted = False
    accepted = False

    async def accept(self, subprotocol=None, headers=None) -> None:
        self.accepted = True
        await super().accept(subprotocol, headers)

    async def connect(self) -> None:
        self.language = scope_language(self.scope)
        user = self.scope.get("user")
        self.user_key = f"user:{user.pk}" if user is not None and user.is_authenticated else None
        client = self.scope.get("client")
        self.ip_key = f"ip:{client[0]}" if client else None
        with translation.override(self.language):
            if not REGISTER.admit(
                self,
                user_key=self.user_key,
                ip=self.ip_key,
                per_user=settings.TAPETE_WS_SOCKETS_PER_USER,
                per_ip=settings.TAPETE_WS_SOCKETS_PER_IP,
            ):
                await self.refuse(CLOSE_TOO_MANY_SOCKETS)
                return
            self.admitted = True
            token = self.scope.get("api_token")
            self.token_group = token.socket_group if token is not None else None
            if self.token_group is not None:
                await self.channel_layer.group_add(self.token_group, self.channel_name)
                # Revoked between the handshake's check and joining the group: its close message went to nobody.
                if not await database_sync_to_async(token.still_live)():
                    await self.accept()
                    await self.close_with(CLOSE_UNAUTHENTICATED, "token_revoked")
                    return
            rate, burst = settings.TAPETE_WS_RATE_PER_SECOND, settings.TAPETE_WS_RATE_BURST
            key = self.user_key or self.ip_key
            # Without a user or an address (a test's scope) the socket gets a bucket of its own.
            self.bucket = REGISTER.bucket(key, rate=rate, burst=burst) if key else TokenBucket(rate, burst)
            try:
                await self.open()
            except Exception as error:  # noqa: BLE001  (logged in one line; the client gets a clean close)
                self.log_failure(None, error)
                if not self.accepted:  # a close before the accept would reach the client as a bare HTTP 403
                    await self.accept()
                await self.close(code=CLOSE_SERVER_ERROR)

    async def open(self) -> None:
        await self.accept()

    async def refuse(self, code: int) -> None:
        """Accept, then close with ``code``, so the client can tell the cases apart."""
        await self.accept()
        await self.close_with(code)

    async def close_with(self, code: int, reason: str | None = None) -> None:
        """Close with ``code`` and its reason (an error code; by default the code's own, ``CLOSE_ERRORS``), sent
        first as an ``error`` frame."""
        name = reason or CLOSE_ERRORS[code]
        error = transport_error(name) if name in MESSAGES else engine_error(name)  # not_found: the engine's
        await self.send_error(error)
        await self.close(code=code, reason=error.message)

    async def disconnect(self, code: int) -> None:
        if self.admitted:
            self.admitted = False
            REGISTER.release(self, user_key=self.user_key, ip=self.ip_key)
            if self.token_group is not None:
                await self.channel_layer.group_discard(self.token_group, self.channel_name)
        await self.closed()

    async def closed(self) -> None:
        """The socket closed: undo what :meth:`open` did."""

    async def receive(self, text_data: str | None = None, bytes_data: bytes | None = None) -> None:
        with translation.override(self.language):
            if not self.bucket.allow():
                await self.send_error(transport_error("rate_limited"))
                return
            message: ClientMessage | None = None
            try:
                message = parse_client_frame(
                    text_data, bytes_data, max_bytes=settings.TAPETE_WS_MAX_FRAME_BYTES, kinds=self.kinds
                )
                await self.handle(message)
            except EngineError as error:
                await self.send_error(error)
            except Exception as error:  # noqa: BLE001  (a frame must never kill the socket)
                self.log_failure(message, error)
                await self.send_error(transport_error("server_error"))

    async def handle(self, message: ClientMessage) -> None:
        raise transport_error("unknown_frame")

    def log_failure(self, message: ClientMessage | None, error: Exception) -> None:
        """One line: where it failed and the exception's class. Neither the frame nor the exception's text (which
        may quote the frame, as PostgreSQL's errors do) is logged."""
        where = traceback.extract_tb(error.__traceback__)[-1]
        logger.error(
            "%s: %s failed with %s at %s:%s (%s)",
            type(self).__name__,
            f"{type(message).__name__} frame" if message is not None else "handshake or unparsed frame",
            type(error).__name__,
            where.filename,
            where.lineno,
            self.user_key or self.ip_key,
        )

    async def send_error(self, error: EngineError) -> None:
        await self.send(text_data=updates.encode_frame("error", error.version, error.as_frame_data()))

    async def token_revoke(self, message: dict) -> None:
        """The Bot API token this socket was opened with was revoked (``botapi.tokens.token_revoke``)."""
        with translation.override(self.language):
            await self.close_with(CLOSE_UNAUTHENTICATED, "token_revoked")

    async def frame_relay(self, message: dict) -> None:
        """A frame committed elsewhere (``realtime.broadcast``), for this socket's groups."""
        await self.send(text_data=message["text"])


class NotFoundSocket(FrameSocket):
    """Every websocket path the site does not serve, and table paths whose id is not a table id: close 4404."""

    async def open(self) -> None:
        await self.refuse(CLOSE_NOT_FOUND)
