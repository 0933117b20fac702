"""The embedded default's relay: a Celery worker (another process) hands its frames to the web process's sockets."""

import json

import pytest
from channels.db import database_sync_to_async
from django.test import Client

from realtime.broadcast import relay_body
from tests.turnengine.wsclient import connect, receive_until
from turnengine.updates import Update

pytestmark = [pytest.mark.django_db(transaction=True), pytest.mark.asyncio]


async def test_frames_posted_with_the_token_reach_the_sockets_and_others_are_refused(start_table, settings):
    settings.TAPETE_RELAY_TOKEN = "s3cret"
    match, users = await database_sync_to_async(start_table)("perudo", 2)
    socket, _ = await connect(f"/ws/match/{match.pk}/", users[0])
    await receive_until(socket, "view")
    frame = json.dumps({"t": "chat", "v": 1, "d": {"user": "worker", "text": "relayed"}})
    body = relay_body(Update({match.group_name("all"): frame}))
    client = Client()
    post = database_sync_to_async(client.post)
    refused = await post(
        "/internal/relay/", body, content_type="application/json", headers={"X-Tapete-Relay-Token": "wrong"}
    )
    assert refused.status_code == 403
    for malformed in (b"not json", b"[]", b'{"frames": {"g": 1}, "messages": {}}', b'{"frames": {}}'):
        answer = await post(
            "/internal/relay/",
            malformed,
            content_type="application/json",
            headers={"X-Tapete-Relay-Token": "s3cret"},
        )
        assert answer.status_code == 400, malformed
    accepted = await post(
        "/internal/relay/", body, content_type="application/json", headers={"X-Tapete-Relay-Token": "s3cret"}
    )
    assert accepted.status_code == 204
    assert (await receive_until(socket, "chat"))["d"]["text"] == "relayed"
    await socket.disconnect()


async def test_the_relay_is_closed_without_a_configured_token(settings):
    settings.TAPETE_RELAY_TOKEN = ""
    response = await database_sync_to_async(Client().post)(
        "/internal/relay/", {}, content_type="application/json", headers={"X-Tapete-Relay-Token": ""}
    )
    assert response.status_code == 403
