"""The match websocket end to end through the real ASGI stack (session auth, origin check, channel layer)."""

from __future__ import annotations

import json
import random

import pytest
from channels.db import database_sync_to_async
from django.conf import settings
from tapete_sdk import registry
from tapete_sdk.plugin import player_counts_of, replay

from tests.conftest import FAST_OPTIONS
from tests.turnengine.wsclient import connect, drain, receive_until
from turnengine import seat_frames
from turnengine.models import Match, MatchAction

pytestmark = [pytest.mark.django_db(transaction=True), pytest.mark.asyncio]


@database_sync_to_async
def _start(start_table, game, num_players):
    return start_table(game, num_players, FAST_OPTIONS[game])


@database_sync_to_async
def _state_at(match_id: int, version: int) -> tuple[dict, list[dict]]:
    """The state after ``version`` and the events of that version, rebuilt from the action log."""
    match = Match.objects.get(pk=match_id)
    rows = list(MatchAction.objects.filter(match=match, version__lte=version).order_by("step"))
    state = replay(match.rules, match.options, match.num_players, [(row.seat, row.action) for row in rows])
    return state, [event for row in rows if row.version == version for event in row.events]


@pytest.mark.parametrize(
    ("game", "num_players"),
    [(rules.key, 3 if 3 in player_counts_of(rules) else rules.min_players) for rules in registry.all_games()],
)
async def test_a_complete_game_over_websockets_sends_each_seat_only_its_own_view(
    start_table, game, num_players
):
    match, users = await _start(start_table, game, num_players)
    rules = match.rules
    sockets = [(await connect(f"/ws/match/{match.pk}/", user))[0] for user in users]
    spectator_user = await database_sync_to_async(users[0].__class__.objects.create_user)("watcher")
    spectator, _ = await connect(f"/ws/match/{match.pk}/", spectator_user)
    visitor, _ = await connect(f"/ws/match/{match.pk}/", None)  # no account: the same spectators' frames
    everyone = [*sockets, spectator, visitor]
    latest = {}
    for seat, socket in enumerate(sockets):
        snapshot = await receive_until(socket, "view")
        assert snapshot["d"]["snapshot"] and snapshot["d"]["seat"] == seat
        latest[seat] = snapshot
    assert (await receive_until(spectator, "view"))["d"]["seat"] is None
    assert (await receive_until(visitor, "view"))["d"]["seat"] is None
    assert (await _spectators_counted(match.pk)) == 2  # so every move builds the spectators' frame
    rng = random.Random(7)
    frames_checked = 0
    for _ in range(3000):
        view = latest[0]["d"]
        if view["status"] != Match.Status.ACTIVE:
            break
        acting = [seat for seat in range(num_players) if latest[seat]["d"]["legal"]]
        seat = rng.choice(acting)
        await sockets[seat].send_json_to(
            {"t": "act", "v": latest[seat]["v"], "d": rng.choice(latest[seat]["d"]["legal"])}
        )
        watchers_frames = []
        for index, socket in enumerate(everyone):
            frame = await receive_until(socket, "view")
            viewer = index if index < num_players else None
            if viewer is None:
                watchers_frames.append(frame)
            state, events = await _state_at(match.pk, frame["v"])
            # What travels to a seat is exactly that seat's view, legal actions and visible events: nothing more.
            assert frame["d"]["view"] == rules.view(state, viewer)
            assert frame["d"]["legal"] == (rules.legal_actions(state, viewer) if viewer is not None else [])
            assert frame["d"]["events"] == seat_frames.visible_events(events, viewer)
            assert "seed" not in json.dumps(frame["d"]["view"]) or frame["d"]["status"] != "active"
            frames_checked += 1
            if viewer is not None:
                latest[viewer] = frame
        assert watchers_frames[0] == watchers_frames[1]  # the logged-in spectator's frame is the visitor's
    else:
        raise AssertionError("the game did not end")
    final = await database_sync_to_async(Match.objects.get)(pk=match.pk)
    assert final.status == Match.Status.FINISHED
    assert latest[0]["d"]["seed"] == final.seed and latest[0]["d"]["result"] == final.result
    assert frames_checked > num_players
    for socket in everyone:
        await socket.disconnect()
    assert (await _spectators_counted(match.pk)) == 0


async def _spectators_counted(match_id: int) -> int:
    return (await database_sync_to_async(Match.objects.get)(pk=match_id)).spectator_connections


async def _table_and_sockets(start_table, game="perudo"):
    match, users = await _start(start_table, game, 2)
    socket, connected = await connect(f"/ws/match/{match.pk}/", users[0])
    assert connected
    snapshot = await receive_until(socket, "view")
    await drain(socket)
    return match, users, socket, snapshot


async def _expect_error(socket, code):
    frame = await receive_until(socket, "error")
    assert frame["d"]["code"] == code, frame
    assert frame["d"]["message"]
    return frame


async def _version(match_id):
    return (await database_sync_to_async(Match.objects.get)(pk=match_id)).version


async def test_malformed_json_unknown_frames_and_bad_actions_get_errors_and_change_nothing(start_table):
    match, _users, socket, snapshot = await _table_and_sockets(start_table)
    await socket.send_to(text_data="{not json")
    await _expect_error(socket, "malformed")
    await socket.send_json_to(["a", "list"])
    await _expect_error(socket, "malformed")
    await socket.send_json_to({"t": "__class__", "d": {}})
    await _expect_error(socket, "unknown_frame")
    await socket.send_json_to({"t": "act", "v": "1", "d": {"type": "dudo"}})
    await _expect_error(socket, "malformed")
    await socket.send_json_to({"t": "act", "v": snapshot["v"], "d": {"type": "launch-missiles"}})
    await _expect_error(socket, "unknown_type")  # the rules library's own code
    assert await _version(match.pk) == snapshot["v"]


async def test_a_stale_version_gets_stale_with_the_current_version(start_table):
    match, _users, socket, snapshot = await _table_and_sockets(start_table)
    legal = snapshot["d"]["legal"] or [{"type": "dudo"}]
    await socket.send_json_to({"t": "act", "v": snapshot["v"] - 1, "d": legal[0]})
    frame = await _expect_error(socket, "stale")
    assert frame["v"] == snapshot["v"] and frame["d"]["version"] == snapshot["v"]


async def test_acting_at_a_foreign_table_is_refused(start_table, make_user):
    match, _users = await _start(start_table, "perudo", 2)
    stranger = await database_sync_to_async(make_user)()
    socket, connected = await connect(f"/ws/match/{match.pk}/", stranger)
    assert connected  # strangers may watch...
    snapshot = await receive_until(socket, "view")
    assert snapshot["d"]["seat"] is None and snapshot["d"]["legal"] == []
    await socket.send_json_to(
        {"t": "act", "v": snapshot["v"], "d": {"type": "bid", "quantity": 1, "face": 2}}
    )
    await _expect_error(socket, "not_seated")  # ...but never act
    assert await _version(match.pk) == snapshot["v"]


async def test_oversize_frames_are_refused(start_table):
    _match, _users, socket, snapshot = await _table_and_sockets(start_table)
    await socket.send_json_to(
        {"t": "chat", "v": snapshot["v"], "d": {"text": "x" * settings.TAPETE_WS_MAX_FRAME_BYTES}}
    )
    await _expect_error(socket, "too_large")


async def test_too_many_messages_per_second_are_refused(start_table):
    _match, _users, socket, _snapshot = await _table_and_sockets(start_table)
    burst = settings.TAPETE_WS_RATE_BURST
    # Frames the server answers at once (no database work), so the bucket cannot refill meanwhile.
    for _ in range(burst + 10):
        await socket.send_to(text_data="{")
    codes = [(await receive_until(socket, "error"))["d"]["code"] for _ in range(burst + 10)]
    assert codes[:burst] == ["malformed"] * burst
    assert "rate_limited" in codes[burst:]


async def test_a_connection_without_a_session_watches_as_a_spectator(start_table):
    match, _users = await _start(start_table, "perudo", 2)
    socket, connected = await connect(f"/ws/match/{match.pk}/", user=None)
    assert connected
    assert (await receive_until(socket, "view"))["d"]["seat"] is None
    assert (await _spectators_counted(match.pk)) == 1
    await socket.disconnect()
    assert (await _spectators_counted(match.pk)) == 0


async def test_a_connection_from_a_foreign_origin_is_refused(start_table):
    match, users = await _start(start_table, "perudo", 2)
    _socket, connected = await connect(f"/ws/match/{match.pk}/", users[0], origin="http://evil.example")
    assert not connected


async def test_chat_reaches_everyone_at_the_table_and_sync_resends_the_snapshot(start_table):
    match, users, first, _snapshot = await _table_and_sockets(start_table)
    second, _ = await connect(f"/ws/match/{match.pk}/", users[1])
    await receive_until(second, "view")
    await first.send_json_to({"t": "chat", "d": {"text": "<b>¡Dudo!</b>"}})
    for socket in (first, second):
        frame = await receive_until(socket, "chat")
        assert frame["d"] == {**frame["d"], "user": users[0].username, "text": "<b>¡Dudo!</b>"}
    await second.send_json_to({"t": "sync"})
    snapshot = await receive_until(second, "view")
    assert snapshot["d"]["snapshot"] and snapshot["d"]["chat"][-1]["text"] == "<b>¡Dudo!</b>"


async def _presence_becomes(socket, online: list[bool]) -> None:
    """Presence frames may arrive late (a frame for our own connect, say): wait for the expected one."""
    while [
        player["online"] for player in (await receive_until(socket, "presence"))["d"]["players"]
    ] != online:
        pass


async def test_presence_tells_the_table_who_is_online(start_table):
    match, users, first, _snapshot = await _table_and_sockets(start_table)
    second, _ = await connect(f"/ws/match/{match.pk}/", users[1])
    await _presence_becomes(first, [True, True])
    await second.disconnect()
    await _presence_becomes(first, [True, False])
