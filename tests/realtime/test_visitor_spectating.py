"""Visitors without an account watch a live table through the real ASGI stack: every frame such a socket receives
is audited for other seats' secrets, and a ranked table's spectator delay shows them the game moves late."""

from __future__ import annotations

import json
import random

import pytest
from channels.db import database_sync_to_async
from tapete_sdk.plugin import replay

from tests.conftest import FAST_OPTIONS
from tests.turnengine.wsclient import connect, receive, receive_until
from turnengine import seat_frames
from turnengine.models import Match, MatchAction
from turnengine.replays import replay_frame

pytestmark = [pytest.mark.django_db(transaction=True), pytest.mark.asyncio]

# What a visitor's socket may receive at all (docs/protocol.md, server → client).
VISITOR_KINDS = {"view", "presence", "spectators", "chat", "heartbeat", "lobby"}


@database_sync_to_async
def _start(start_table, game, num_players, **fields):
    match, users = start_table(game, num_players, FAST_OPTIONS[game])
    if fields:
        Match.objects.filter(pk=match.pk).update(**fields)
        match.refresh_from_db()
    return match, users


@database_sync_to_async
def _state_at(match_id: int, version: int) -> tuple[dict, list[dict]]:
    match = Match.objects.get(pk=match_id)
    rows = list(MatchAction.objects.filter(match=match, version__lte=version).order_by("step"))
    state = replay(match.rules, match.options, match.num_players, [(row.seat, row.action) for row in rows])
    return state, [event for row in rows if row.version == version for event in row.events]


async def _all_frames(socket, quiet: float = 0.15) -> list[dict]:
    """Every frame that arrives until the socket has been quiet for ``quiet`` seconds."""
    frames = []
    while not await socket.receive_nothing(timeout=quiet):
        frames.append(await receive(socket))
    return frames


def _secret_values(state: dict, rules, num_players: int) -> list[str]:
    """What a seat sees that spectators do not: each value of a seat's view that differs from the spectators'."""
    public = rules.view(state, None)
    secrets = []
    for seat in range(num_players):
        for key, value in rules.view(state, seat).items():
            if key not in ("seat",) and value != public.get(key) and value not in (None, [], {}, False, True):
                secrets.append(json.dumps({key: value}, sort_keys=True))
    return secrets


async def test_a_visitor_receives_no_hidden_information_in_any_frame(start_table):
    match, users = await _start(start_table, "perudo", 3)
    rules = match.rules
    sockets = [(await connect(f"/ws/match/{match.pk}/", user))[0] for user in users]
    visitor, connected = await connect(f"/ws/match/{match.pk}/", None)
    assert connected
    latest = {seat: await receive_until(socket, "view") for seat, socket in enumerate(sockets)}
    received = await _all_frames(visitor)
    rng = random.Random(11)
    for _ in range(60):
        if latest[0]["d"]["status"] != Match.Status.ACTIVE:
            break
        seat = next(seat for seat in range(3) if latest[seat]["d"]["legal"])
        await sockets[seat].send_json_to(
            {"t": "act", "v": latest[seat]["v"], "d": rng.choice(latest[seat]["d"]["legal"])}
        )
        for index, socket in enumerate(sockets):
            latest[index] = await receive_until(socket, "view")
        received += await _all_frames(visitor)
    views = [frame for frame in received if frame["t"] == "view"]
    assert len(views) > 20 and {frame["t"] for frame in received} <= VISITOR_KINDS
    for frame in received:
        text = json.dumps(frame)
        assert "visible_to" not in text and '"legal": [{' not in text
        if frame["t"] != "view":
            assert "view" not in frame["d"] and "my_dice" not in text
            continue
        state, events = await _state_at(match.pk, frame["v"])
        assert frame["d"]["seat"] is None and frame["d"]["legal"] == []
        assert frame["d"]["view"] == rules.view(state, None)  # exactly the spectators' view
        if not frame["d"].get("snapshot"):
            assert frame["d"]["events"] == seat_frames.visible_events(events, None)
        if frame["d"]["status"] == Match.Status.ACTIVE:
            assert frame["d"]["seed"] is None
            for secret in _secret_values(state, rules, 3):  # no seat's dice, in any form
                assert secret[1:-1] not in json.dumps(frame["d"]["view"], sort_keys=True)
    for socket in [*sockets, visitor]:
        await socket.disconnect()


async def test_a_ranked_table_with_a_delay_shows_spectators_the_game_moves_late(start_table):
    delay = 2
    match, users = await _start(start_table, "chinesecheckers", 2, ranked=True, spectator_delay=delay)
    rules = match.rules
    sockets = [(await connect(f"/ws/match/{match.pk}/", user))[0] for user in users]
    latest = {seat: await receive_until(socket, "view") for seat, socket in enumerate(sockets)}
    for _ in range(3):  # a few moves before anyone watches
        seat = next(seat for seat in range(2) if latest[seat]["d"]["legal"])
        await sockets[seat].send_json_to({"t": "act", "v": latest[seat]["v"], "d": latest[seat]["d"]["legal"][0]})
        for index, socket in enumerate(sockets):
            latest[index] = await receive_until(socket, "view")
    visitor, _ = await connect(f"/ws/match/{match.pk}/", None)
    snapshot = await receive_until(visitor, "view")
    version = snapshot["v"]
    assert snapshot["d"]["shown_version"] == version - delay and snapshot["d"]["delay"] == delay
    assert snapshot["d"]["clock"] is None  # the live clock would say who is to play now
    assert snapshot["d"]["view"] == rules.view((await _state_at(match.pk, version - delay))[0], None)
    for _ in range(4):
        seat = next(seat for seat in range(2) if latest[seat]["d"]["legal"])
        await sockets[seat].send_json_to({"t": "act", "v": latest[seat]["v"], "d": latest[seat]["d"]["legal"][0]})
        for index, socket in enumerate(sockets):
            latest[index] = await receive_until(socket, "view")
        frame = await receive_until(visitor, "view")
        state, events = await _state_at(match.pk, frame["v"] - delay)
        assert frame["v"] == latest[0]["v"] and frame["d"]["shown_version"] == frame["v"] - delay
        assert frame["d"]["view"] == rules.view(state, None)
        assert frame["d"]["events"] == seat_frames.visible_events(events, None)
        assert latest[0]["d"]["view"] == rules.view((await _state_at(match.pk, frame["v"]))[0], 0)
    # The public replay of the running table stops where its spectators are.
    current = await database_sync_to_async(Match.objects.get)(pk=match.pk)
    stepped = await database_sync_to_async(replay_frame)(match=current, seat=None, version=10**6)
    assert stepped["step"] == current.version - delay and stepped["total"] == current.version - delay
    for socket in [*sockets, visitor]:
        await socket.disconnect()


async def test_the_table_hears_who_watches_when_a_spectator_comes_and_goes(start_table, make_user):
    match, users = await _start(start_table, "perudo", 2)
    player, _ = await connect(f"/ws/match/{match.pk}/", users[0])
    assert (await receive_until(player, "view"))["d"]["spectators"] == {"count": 0, "users": [], "more": 0}
    watcher = await database_sync_to_async(make_user)("watcher")
    logged_in, _ = await connect(f"/ws/match/{match.pk}/", watcher)
    frame = await receive_until(player, "spectators")
    assert frame["d"] == {"count": 1, "users": ["watcher"], "more": 0}
    visitor, _ = await connect(f"/ws/match/{match.pk}/", None)
    assert (await receive_until(player, "spectators"))["d"] == {"count": 2, "users": ["watcher"], "more": 0}
    await logged_in.disconnect()
    assert (await receive_until(player, "spectators"))["d"] == {"count": 1, "users": [], "more": 0}
    snapshot = await receive_until(visitor, "view")
    assert snapshot["d"]["spectators"]["count"] >= 1
    for socket in (player, visitor):
        await socket.disconnect()
