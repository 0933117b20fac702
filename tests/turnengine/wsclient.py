"""Test helpers to talk to the real ASGI application through Channels' WebsocketCommunicator."""

from __future__ import annotations

import json

from channels.db import database_sync_to_async
from channels.testing import WebsocketCommunicator
from django.conf import settings
from django.contrib.auth import BACKEND_SESSION_KEY, HASH_SESSION_KEY, SESSION_KEY
from django.contrib.sessions.backends.db import SessionStore

from tapete.asgi import application


def make_session_key(user) -> str:
    """A logged-in session for ``user``, as the log-in page would create it."""
    session = SessionStore()
    session[SESSION_KEY] = str(user.pk)
    session[BACKEND_SESSION_KEY] = settings.AUTHENTICATION_BACKENDS[0]
    session[HASH_SESSION_KEY] = user.get_session_auth_hash()
    session.save()
    return session.session_key


session_cookie = database_sync_to_async(make_session_key)


async def connect(
    path: str,
    user=None,
    origin: str = "http://testserver",
    client: str | None = None,
    cookie: str | None = None,
    accept_language: str | None = None,
) -> tuple[WebsocketCommunicator, bool]:
    """Open ``path`` as ``user`` (a real session cookie; ``cookie`` sends that one instead), from ``client`` (an IP
    address) if given."""
    headers = [(b"origin", origin.encode()), (b"host", b"testserver")]
    if accept_language is not None:
        headers.append((b"accept-language", accept_language.encode()))
    if user is not None:
        cookie = await session_cookie(user)
    if cookie is not None:
        headers.append((b"cookie", f"{settings.SESSION_COOKIE_NAME}={cookie}".encode()))
    communicator = WebsocketCommunicator(application, path, headers=headers)
    if client is not None:
        communicator.scope["client"] = [client, 50000]
    connected, _subprotocol = await communicator.connect(timeout=5)
    return communicator, connected


async def receive(communicator: WebsocketCommunicator, timeout: float = 5) -> dict:
    return json.loads(await communicator.receive_from(timeout=timeout))


async def receive_until(communicator: WebsocketCommunicator, kind: str, timeout: float = 5) -> dict:
    """Skip frames (presence, chat) until one of ``kind`` arrives."""
    while True:
        frame = await receive(communicator, timeout)
        if frame["t"] == kind:
            return frame


async def drain(communicator: WebsocketCommunicator) -> list[dict]:
    frames = []
    while not await communicator.receive_nothing(timeout=0.05):
        frames.append(await receive(communicator))
    return frames


async def closed_with(communicator: WebsocketCommunicator, timeout: float = 5) -> dict:
    """The close message the server sends next (skipping frames before it)."""
    while True:
        output = await communicator.receive_output(timeout)
        if output["type"] == "websocket.close":
            return output
