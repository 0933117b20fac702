"""A blocked player's chat never reaches the one who blocked them, enforced by the server: the blocker's table
sockets drop the lines (typed and quick) of the players they blocked, live and in every snapshot's chat, whether
they sit at the table or watch it; blocking or unblocking while the table is open takes effect at once (a fresh
snapshot replaces the page's chat). Everyone else reads every line."""

from __future__ import annotations

import json

import pytest
from channels.db import database_sync_to_async

from social import blocks
from tests.turnengine.wsclient import connect, receive, receive_until

pytestmark = [pytest.mark.django_db(transaction=True), pytest.mark.asyncio]


async def _chat_until(socket, text: str) -> list[dict]:
    """The chat lines ``socket`` receives up to and including the one saying ``text`` (bounded by receive's
    timeout), and any snapshot's chat met on the way."""
    lines = []
    while True:
        frame = await receive(socket)
        if frame["t"] == "chat":
            lines.append(frame["d"])
            if frame["d"]["text"] == text:
                return lines


async def _say(socket, text: str) -> None:
    await socket.send_to(text_data=json.dumps({"t": "chat", "d": {"text": text}}))


async def _snapshot_chat(socket) -> list[dict]:
    await socket.send_to(text_data=json.dumps({"t": "sync", "d": {}}))
    while True:
        frame = await receive_until(socket, "view")
        if frame["d"].get("snapshot"):
            return frame["d"]["chat"]


async def test_the_blocker_never_receives_the_blocked_players_lines(start_table, make_user):
    match, (ana, bruno, carla) = await database_sync_to_async(start_table)("perudo", 3)
    await database_sync_to_async(blocks.block)(user=ana, other=bruno)
    sockets = {}
    for user in (ana, bruno, carla):
        sockets[user.username], connected = await connect(f"/ws/match/{match.pk}/", user=user)
        assert connected
        await receive_until(sockets[user.username], "view")
    await _say(sockets[bruno.username], "psst, ana")
    await sockets[bruno.username].send_to(text_data=json.dumps({"t": "quick", "d": {"phrase": "gg"}}))
    heard = await _chat_until(sockets[carla.username], "Well played!")  # a quick line: its English words
    assert [(line["user"], line["phrase"]) for line in heard] == [(bruno.username, None), (bruno.username, "gg")]
    await _say(sockets[carla.username], "hello all")  # after bruno's two lines, for everyone
    assert [line["text"] for line in await _chat_until(sockets[carla.username], "hello all")] == ["hello all"]
    assert [line["text"] for line in await _chat_until(sockets[ana.username], "hello all")] == ["hello all"]
    snapshot = await _snapshot_chat(sockets[ana.username])
    assert [line["user"] for line in snapshot] == [carla.username]  # nor in the history a reload shows
    assert len(await _snapshot_chat(sockets[carla.username])) == 3

    # Unblocked from another page: the open table takes it at once, with the lines it had left out.
    await database_sync_to_async(blocks.unblock)(user=ana, other=bruno)
    fresh = await receive_until(sockets[ana.username], "view")
    assert fresh["d"]["snapshot"] and [line["user"] for line in fresh["d"]["chat"]] == [
        bruno.username, bruno.username, carla.username
    ]
    await _say(sockets[bruno.username], "friends again?")
    assert [line["text"] for line in await _chat_until(sockets[ana.username], "friends again?")] == [
        "friends again?"
    ]

    # Blocked again while the table is open: the page's chat is replaced, and new lines are dropped.
    await database_sync_to_async(blocks.block)(user=ana, other=bruno)
    fresh = await receive_until(sockets[ana.username], "view")
    assert fresh["d"]["snapshot"] and [line["user"] for line in fresh["d"]["chat"]] == [carla.username]
    await _say(sockets[bruno.username], "still there?")
    await _say(sockets[carla.username], "bye")
    assert [line["text"] for line in await _chat_until(sockets[ana.username], "bye")] == ["bye"]
    for socket in sockets.values():
        await socket.disconnect()


async def test_a_spectator_who_blocked_a_player_does_not_read_them_either(start_table, make_user):
    match, (ana, bruno) = await database_sync_to_async(start_table)("perudo", 2)
    watcher = await database_sync_to_async(make_user)()
    await database_sync_to_async(blocks.block)(user=watcher, other=ana)
    watching, _ = await connect(f"/ws/match/{match.pk}/", user=watcher)
    visitor, _ = await connect(f"/ws/match/{match.pk}/")  # blocks nobody: reads everything
    playing = {}
    for user in (ana, bruno):
        playing[user.username], _ = await connect(f"/ws/match/{match.pk}/", user=user)
    for socket in (watching, visitor, *playing.values()):
        await receive_until(socket, "view")
    await _say(playing[ana.username], "I bid high")
    await _say(playing[bruno.username], "we will see")
    assert [line["text"] for line in await _chat_until(watching, "we will see")] == ["we will see"]
    assert [line["text"] for line in await _chat_until(visitor, "we will see")] == ["I bid high", "we will see"]
    for socket in (watching, visitor, *playing.values()):
        await socket.disconnect()
