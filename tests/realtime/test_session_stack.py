"""A browser's websocket's session stack (``realtime.session_stack``): the user resolved from the cookie by Channels'
``AuthMiddlewareStack``, the scope handed on without the session (nothing keeps it for the socket's life), and the
socket's frames sent straight to the server, not through Channels' session wrapper, which would read the session on
every frame to save it on none."""

from __future__ import annotations

import pytest
from channels.db import database_sync_to_async
from channels.generic.websocket import AsyncWebsocketConsumer
from channels.sessions import InstanceSessionWrapper
from channels.testing import WebsocketCommunicator
from django.conf import settings

from accounts.sessions import SessionStore
from realtime.session_stack import socket_session_stack
from tests.turnengine.wsclient import session_cookie

pytestmark = [pytest.mark.django_db(transaction=True)]


class _WhoAmI(AsyncWebsocketConsumer):
    """Answers with the scope's user, its session cookie, whether the scope has a session, and whether its ``send``
    is the server's own."""

    async def connect(self):
        await self.accept()
        await self.send(
            text_data=f"{self.scope['user'].username}|{self.scope['cookies'].get(settings.SESSION_COOKIE_NAME)}|"
            f"{'session' in self.scope}|{self.base_send == self.scope['test.server_send']}"
        )


async def _who(cookie: str | None) -> list[str]:
    headers = [(b"cookie", f"{settings.SESSION_COOKIE_NAME}={cookie}".encode())] if cookie else []
    communicator = WebsocketCommunicator(socket_session_stack(_WhoAmI.as_asgi()), "/", headers=headers)
    communicator.scope["test.server_send"] = communicator.output_queue.put  # what the test server sends with
    connected, _ = await communicator.connect(timeout=5)
    assert connected
    answer = await communicator.receive_from(timeout=5)
    await communicator.disconnect()
    return answer.split("|")


async def test_a_signed_in_browsers_socket_has_its_user_and_cookies_no_session_and_sends_straight_to_the_server(
    make_user,
):
    user = await database_sync_to_async(make_user)("stacked")
    cookie = await session_cookie(user)
    assert await _who(cookie) == ["stacked", cookie, "False", "True"]


async def test_a_socket_without_a_cookie_is_anonymous():
    assert await _who(None) == ["", "None", "False", "True"]


async def test_a_signed_out_sessions_socket_is_anonymous(make_user):
    user = await database_sync_to_async(make_user)("gone")
    cookie = await session_cookie(user)
    await database_sync_to_async(lambda: SessionStore(session_key=cookie).delete())()
    assert await _who(cookie) == ["", cookie, "False", "True"]


def test_channels_session_wrapper_saves_and_sets_cookies_on_http_responses_only():
    """What leaving the wrapper out of a websocket relies on: it acts on no websocket message."""
    acted_on = {
        *InstanceSessionWrapper.save_message_types,
        *InstanceSessionWrapper.cookie_response_message_types,
    }
    assert acted_on == {"http.response.start"}
