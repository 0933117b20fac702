"""Websockets with a token: the table websocket (unchanged consumer, behind the token middleware) and the
account's event stream, through the real ASGI application."""

from __future__ import annotations

import asyncio
import json
from datetime import timedelta

import pytest
from channels.db import database_sync_to_async
from channels.testing import WebsocketCommunicator
from django.urls import reverse

from botapi.accounts import bot_account_convert
from botapi.tokens import token_create
from lobby import services as lobby
from moderation.services import moderation_suspend
from tapete.asgi import application
from tests.turnengine.wsclient import connect, receive_until
from turnengine import services
from turnengine.models import Match

pytestmark = [pytest.mark.django_db(transaction=True), pytest.mark.asyncio]


async def token_socket(path: str, raw: str | None, *, origin: bytes | None = None):
    headers = [(b"host", b"testserver")]
    if raw is not None:
        headers.append((b"authorization", f"Bearer {raw}".encode()))
    if origin is not None:
        headers.append((b"origin", origin))
    socket = WebsocketCommunicator(application, path, headers=headers)
    connected, _ = await socket.connect(timeout=5)
    return socket, connected


@database_sync_to_async
def _token(user, scopes=("play", "read")) -> str:
    return token_create(user=user, name="ws", scopes=list(scopes))[1]


@database_sync_to_async
def _two_seat_table(make_user, *, start: bool = True):
    users = [make_user(), make_user()]
    match = lobby.table_create(
        user=users[0], game="perudo", num_players=2, options={"startingDice": 2}, ranked=False
    )
    lobby.table_join(user=users[1], match_id=match.pk)
    if start:
        lobby.table_start(user=users[0], match_id=match.pk)
    match.refresh_from_db()
    return match, users


async def test_table_websocket_with_a_token_and_no_cookie_or_origin_plays(make_user):
    match, users = await _two_seat_table(make_user)
    socket, connected = await token_socket(f"/ws/match/{match.pk}/", await _token(users[0]))
    assert connected
    snapshot = await receive_until(socket, "view")
    assert snapshot["d"]["seat"] == 0
    assert snapshot["d"]["view"] == match.rules.view(match.state, 0)  # its own view, nothing more
    if snapshot["d"]["legal"]:
        await socket.send_json_to({"t": "act", "v": snapshot["v"], "d": snapshot["d"]["legal"][0]})
        assert (await receive_until(socket, "view"))["v"] == snapshot["v"] + 1
    await socket.disconnect()


@pytest.mark.parametrize(
    ("scopes", "revoke", "code"),
    [(("read",), False, 4403), (("play",), True, 4401)],
    ids=["no_play", "revoked"],
)
async def test_table_websocket_refuses_bad_tokens_with_a_close_code(make_user, scopes, revoke, code):
    match, users = await _two_seat_table(make_user)
    raw = await _token(users[0], scopes)
    if revoke:
        await database_sync_to_async(users[0].api_tokens.update)(revoked_at=match.started_at)
    socket, connected = await token_socket(f"/ws/match/{match.pk}/", raw)
    assert connected
    assert (await socket.receive_output(timeout=5)) == {"type": "websocket.close", "code": code}


async def test_without_a_token_the_session_stack_still_checks_the_origin(make_user):
    match, _users = await _two_seat_table(make_user)
    _socket, connected = await token_socket(f"/ws/match/{match.pk}/", None, origin=b"http://evil.example")
    assert not connected


async def test_suspension_closes_token_websockets_at_once(make_user, django_user_model):
    match, users = await _two_seat_table(make_user)
    socket, _ = await token_socket(f"/ws/match/{match.pk}/", await _token(users[0]))
    events, _ = await token_socket("/ws/events/", await _token(users[0]))
    await receive_until(socket, "view")
    moderator = await database_sync_to_async(django_user_model.objects.create_user)("mod", password="x")
    await database_sync_to_async(moderation_suspend)(
        moderator=moderator, user=users[0], reason="abuse", duration=timedelta(hours=1)
    )
    for closing in (socket, events):
        while True:
            output = await closing.receive_output(timeout=5)
            if output["type"] == "websocket.close":
                assert output["code"] == 4403
                break


EVENT_FIELDS = {"type", "match_id", "game", "seat", "version", "seated", "num_players", "ranked", "options"}
EVENT_FIELDS |= {"created_by", "status", "result"}


async def _events_until(socket, kind: str, **match) -> dict:
    while True:
        frame = await receive_until(socket, "event")
        # Public facts only: no view, no dice, no hand, no seed ever travels on the stream.
        assert set(frame["d"]) <= EVENT_FIELDS
        assert frame["d"].get("result") is None or frame["d"]["type"] == "game_end"
        if frame["d"]["type"] == kind and all(frame["d"].get(key) == value for key, value in match.items()):
            return frame["d"]


async def test_event_stream_tells_a_bot_of_challenges_starts_turns_and_the_end(make_user):
    human, bot = await database_sync_to_async(make_user)(), await database_sync_to_async(make_user)()
    await database_sync_to_async(bot_account_convert)(user=bot)
    events, connected = await token_socket("/ws/events/", await _token(bot, ("read",)))
    assert connected
    hello = json.loads(await events.receive_from(timeout=5))
    assert hello == {"t": "hello", "v": None, "d": {"username": bot.username, "bot": True}}

    # No frame is sent by hand here: each lobby service and move tells the stream through the match writer.
    match = await database_sync_to_async(lobby.table_create)(
        user=human, game="perudo", num_players=2, options={"startingDice": 1}, ranked=False, allow_bots=True
    )
    challenge = await _events_until(events, "challenge", match_id=match.pk)
    assert challenge["created_by"] == human.username and challenge["game"] == "perudo"

    await database_sync_to_async(lobby.table_join)(user=bot, match_id=match.pk)
    await database_sync_to_async(lobby.table_start)(user=human, match_id=match.pk)
    start = await _events_until(events, "game_start", match_id=match.pk)
    assert start["seat"] == 1

    @database_sync_to_async
    def play_human_until_bot_turn_or_end():
        """The human plays its first legal action whenever awaited; returns the versions awaiting the bot."""
        match.refresh_from_db()
        rules = match.rules
        while match.status == Match.Status.ACTIVE and 1 not in rules.awaited(match.state):
            action = rules.legal_actions(match.state, 0)[0]
            services.match_apply_action(
                match_id=match.pk, user=human, expected_version=match.version, action=action
            )
            match.refresh_from_db()
        return match.version if match.status == Match.Status.ACTIVE else None

    version = await play_human_until_bot_turn_or_end()
    if version is not None:
        turn = await _events_until(events, "your_turn", match_id=match.pk)
        assert turn["version"] == version and turn["seat"] == 1
    # The bot's program plays Dudo or bids until the one-die game ends.

    @database_sync_to_async
    def bot_plays_out():
        match.refresh_from_db()
        rules = match.rules
        while match.status == Match.Status.ACTIVE:
            seat = min(s for s in rules.awaited(match.state))
            user = bot if seat == 1 else human
            legal = rules.legal_actions(match.state, seat)
            action = next((a for a in legal if a["type"] == "dudo"), legal[0])
            services.match_apply_action(
                match_id=match.pk, user=user, expected_version=match.version, action=action
            )
            match.refresh_from_db()

    await bot_plays_out()
    end = await _events_until(events, "game_end", match_id=match.pk)
    assert end["status"] == "finished" and end["result"]["ranking"]
    await events.disconnect()


async def test_event_stream_resends_pending_turns_on_reconnect(make_user):
    match, users = await _two_seat_table(make_user)

    @database_sync_to_async
    def awaited_user():
        match.refresh_from_db()
        seat = min(match.rules.awaited(match.state))
        return seat, users[seat]

    seat, user = await awaited_user()
    raw = await _token(user, ("read",))
    for _ in range(2):
        events, _ = await token_socket("/ws/events/", raw)
        turn = await _events_until(events, "your_turn", match_id=match.pk)
        assert turn == {
            "type": "your_turn",
            "match_id": match.pk,
            "game": "perudo",
            "seat": seat,
            "version": 1,
        }
        await events.disconnect()


async def _closed_with(socket) -> tuple[int, dict | None]:
    """Read until the close: its code, and the last ``error`` frame before it."""
    error = None
    while True:
        output = await socket.receive_output(timeout=5)
        if output["type"] == "websocket.close":
            return output["code"], error
        frame = json.loads(output["text"])
        if frame["t"] == "error":
            error = frame["d"]


async def test_revoking_a_token_closes_its_open_websockets_at_once(make_user, client):
    match, users = await _two_seat_table(make_user)
    raw = await _token(users[0])
    kept = await _token(users[0])
    table, _ = await token_socket(f"/ws/match/{match.pk}/", raw)
    events, _ = await token_socket("/ws/events/", raw)
    other, _ = await token_socket("/ws/events/", kept)
    await receive_until(table, "view")
    await receive_until(events, "hello")
    await receive_until(other, "hello")

    @database_sync_to_async
    def revoke_on_the_profile():
        token = users[0].api_tokens.get(hint=raw[:8])
        client.force_login(users[0])
        return client.post(reverse("botapi:token_revoke", args=[token.pk]))

    assert (await revoke_on_the_profile()).status_code == 302
    for socket in (table, events):
        code, error = await _closed_with(socket)
        assert code == 4401 and error["code"] == "token_revoked"
    # The owner's other token, and its socket, are untouched.
    while not await other.receive_nothing(timeout=0.3):
        assert (await other.receive_output())["type"] == "websocket.send"
    await other.disconnect()


async def test_event_streams_count_against_the_sockets_per_user(make_user, settings):
    user = await database_sync_to_async(make_user)()
    raw = await _token(user, ("read",))
    sockets = []
    for _ in range(settings.TAPETE_WS_SOCKETS_PER_USER):
        socket, _ = await token_socket("/ws/events/", raw)
        await receive_until(socket, "hello")
        sockets.append(socket)
    extra, connected = await token_socket("/ws/events/", raw)
    assert connected
    code, error = await _closed_with(extra)
    assert code == 4429 and error["code"] == "too_many_sockets"
    for socket in sockets:
        await socket.disconnect()


@pytest.fixture
def reads(monkeypatch) -> list[int]:
    """The accounts whose event stream read its tables (``account_events``), in order, from now on."""
    from botapi import events as event_stream

    read = []
    read_events = event_stream.account_events

    def counted(*, user, tracked):
        read.append(user.pk)
        return read_events(user=user, tracked=tracked)

    monkeypatch.setattr(event_stream, "account_events", counted)
    return read


async def test_a_table_change_reads_the_tables_only_of_the_accounts_seated_there(make_user, reads):
    """One table opening: the creator's stream reads its tables again, a bot account's is told of the challenge
    from the notice itself, and the other accounts' streams read nothing."""
    creator, bot = await database_sync_to_async(make_user)(), await database_sync_to_async(make_user)()
    await database_sync_to_async(bot_account_convert)(user=bot)
    bystanders = [await database_sync_to_async(make_user)() for _ in range(5)]
    streams = {}
    for user in [creator, bot, *bystanders]:
        streams[user.pk], _ = await token_socket("/ws/events/", await _token(user, ("read",)))
        await receive_until(streams[user.pk], "hello")
    await asyncio.sleep(0.2)  # each stream's first reading, on opening
    reads.clear()

    match = await database_sync_to_async(lobby.table_create)(
        user=creator, game="perudo", num_players=2, options={"startingDice": 1}, ranked=False, allow_bots=True
    )
    waiting = await _events_until(streams[creator.pk], "table_waiting", match_id=match.pk)
    assert waiting["seated"] == 1
    challenge = await _events_until(streams[bot.pk], "challenge", match_id=match.pk)
    assert challenge["created_by"] == creator.username and challenge["options"]["startingDice"] == 1
    for user in bystanders:
        assert await streams[user.pk].receive_nothing(timeout=0.1)
    assert reads == [creator.pk]
    for socket in streams.values():
        await socket.disconnect()


async def test_an_event_stream_hears_a_move_at_its_table_and_nothing_else_said_there(make_user, reads):
    """The stream follows the table's group, where a move's views come together with the table's presence and
    chat: a socket opening and a chat line there make it read nothing and send nothing (and do not break it); the
    other player's move makes it read its tables and tell its turn."""
    match, users = await _two_seat_table(make_user)

    @database_sync_to_async
    def awaited_seat():
        match.refresh_from_db()
        return min(match.rules.awaited(match.state))

    mover = await awaited_seat()
    follower = users[1 - mover]
    events, _ = await token_socket("/ws/events/", await _token(follower, ("read",)))
    await _events_until(events, "game_start", match_id=match.pk)
    await asyncio.sleep(0.2)
    reads.clear()

    table, _ = await connect(f"/ws/match/{match.pk}/", users[mover])  # presence: the mover is online
    await receive_until(table, "view")
    await table.send_json_to({"t": "chat", "v": None, "d": {"text": "good luck"}})
    await receive_until(table, "chat")
    assert await events.receive_nothing(timeout=0.3)
    assert reads == []

    @database_sync_to_async
    def move():
        match.refresh_from_db()
        action = match.rules.legal_actions(match.state, mover)[0]
        services.match_apply_action(
            match_id=match.pk, user=users[mover], expected_version=match.version, action=action
        )
        match.refresh_from_db()
        return match.version

    version = await move()
    turn = await _events_until(events, "your_turn", match_id=match.pk)
    assert turn["version"] == version and turn["seat"] == 1 - mover
    assert reads == [follower.pk]
    await table.disconnect()
    await events.disconnect()


async def test_a_token_revoked_while_its_handshake_was_checked_is_closed_once_its_socket_joins(make_user):
    """The token router authenticated the token, then it was revoked before the socket joined the token's group
    (the revocation's close went to nobody): the socket looks again once it has joined."""
    from botapi.events import EventStreamConsumer

    user = await database_sync_to_async(make_user)()
    raw = await _token(user, ("read",))
    token = await database_sync_to_async(lambda: user.api_tokens.get(hint=raw[:8]))()
    await database_sync_to_async(user.api_tokens.update)(revoked_at=token.created_at)
    socket = WebsocketCommunicator(EventStreamConsumer.as_asgi(), "/ws/events/")
    socket.scope.update({"user": user, "api_token": token})
    connected, _ = await socket.connect(timeout=5)
    assert connected
    code, error = await _closed_with(socket)
    assert code == 4401 and error["code"] == "token_revoked"
