"""Regression tests for what an outside audit of the site found (each section below names one finding): each attack
it made is refused with a code, crashes nothing and changes nothing. These run on SQLite and, in CI, on PostgreSQL
(where a NUL character used to close the socket with 1011)."""

from __future__ import annotations

from datetime import timedelta

import orjson
import pytest
from channels.db import database_sync_to_async
from django.urls import reverse

from moderation import services as moderation
from tests.conftest import FAST_OPTIONS
from tests.turnengine.wsclient import closed_with, connect, drain, receive_until
from turnengine.models import Match, MatchAction

pytestmark = [pytest.mark.django_db(transaction=True)]


@database_sync_to_async
def _start(start_table, game="perudo", num_players=2):
    return start_table(game, num_players, FAST_OPTIONS[game])


@database_sync_to_async
def _match(match_id: int) -> Match:
    return Match.objects.get(pk=match_id)


@database_sync_to_async
def _logged(match_id: int) -> list[dict]:
    return list(
        MatchAction.objects.filter(match_id=match_id).order_by("step").values_list("action", flat=True)
    )


async def _seated(start_table, game="perudo"):
    match, users = await _start(start_table, game)
    sockets = []
    for user in users:
        socket, connected = await connect(f"/ws/match/{match.pk}/", user)
        assert connected
        sockets.append((socket, await receive_until(socket, "view")))
    for socket, _snapshot in sockets:
        # Each opening sends everyone a presence frame once its row is written, after that socket's snapshot: wait for
        # the one that shows every seat online (the last written), not for a silence, which a slow machine outlasts.
        while not (frame := await receive_until(socket, "presence"))["d"]["players"] or not all(
            player["online"] for player in frame["d"]["players"]
        ):
            pass
        await drain(socket)
    return match, users, sockets


async def _error(socket) -> dict:
    frame = await receive_until(socket, "error")
    assert frame["d"]["message"]
    return frame["d"]


async def _still_open(socket) -> None:
    await socket.send_json_to({"t": "sync"})
    while not (await receive_until(socket, "view"))["d"].get("snapshot"):
        pass  # views of moves sent before


# --- finding 1: NUL and other control characters ---------------------------------------------------------------


CONTROL_CHARACTER_FRAMES = [
    {"t": "chat", "d": {"text": "a\u0000b"}},
    {"t": "chat", "d": {"text": "line\nbreak"}},
    {"t": "mute", "d": {"username": "a\u0000b"}},
    {"t": "act", "v": 1, "d": {"type": "bid", "quantity": 1, "face": 2, "x": "a\u0000b"}},
    {"t": "act", "v": 1, "d": {"type": "bid", "quantity": 1, "face": 2, "a\u0085": 1}},
]


async def test_control_characters_and_binary_frames_are_refused_with_a_code_and_the_socket_stays_open(
    start_table,
):
    match, _users, [(socket, snapshot), _other] = await _seated(start_table)
    logged = await _logged(match.pk)
    for frame in CONTROL_CHARACTER_FRAMES:
        await socket.send_to(text_data=orjson.dumps(frame).decode())
        assert (await _error(socket))["code"] == "control_character", frame
    await socket.send_to(bytes_data=orjson.dumps({"t": "sync"}))  # binary frames: the protocol is JSON text
    assert (await _error(socket))["code"] == "malformed"
    await _still_open(socket)
    assert (await _match(match.pk)).version == snapshot["v"] and await _logged(match.pk) == logged
    await socket.disconnect()


# --- finding 6: the engine stores the canonical action, never the client's object ------------------------------


async def test_an_action_with_junk_and_a_forged_seat_is_stored_and_broadcast_in_its_canonical_form(
    start_table,
):
    match, _users, sockets = await _seated(start_table)
    seat, (socket, snapshot) = next((s, pair) for s, pair in enumerate(sockets) if pair[1]["d"]["legal"])
    legal = snapshot["d"]["legal"][0]
    junk = {**legal, "junk": "<script>" + "A" * 7000, "seat": 1 - seat, "type": legal["type"]}
    await socket.send_json_to({"t": "act", "v": snapshot["v"], "d": junk})
    view = await receive_until(socket, "view")
    assert view["v"] == snapshot["v"] + 1
    assert "junk" not in orjson.dumps(view).decode()
    stored = await _logged(match.pk)
    assert legal in stored and not any("junk" in action for action in stored)


async def test_a_type_confused_action_is_refused_by_the_rules(start_table):
    match, _users, sockets = await _seated(start_table)
    socket, snapshot = next(pair for pair in sockets if pair[1]["d"]["legal"])
    bid = next(action for action in snapshot["d"]["legal"] if action["type"] == "bid")
    for confused in ({**bid, "face": float(bid["face"])}, {**bid, "quantity": True}):
        await socket.send_json_to({"t": "act", "v": snapshot["v"], "d": confused})
        assert (await _error(socket))["code"] == "wrong_type"
    assert (await _match(match.pk)).version == snapshot["v"]


# --- finding 3: handshakes and frames that used to crash -------------------------------------------------------


async def test_unknown_paths_bad_ids_and_unknown_tables_are_accepted_then_closed_with_4404(make_user):
    user = await database_sync_to_async(make_user)()
    paths = ["/ws/match/abc/", "/ws/match/1/extra/", "/ws/nowhere/", "/ws/", "/", "/ws/match/987654/"]
    for path in [*paths, "/ws/match/99999999999999999999999/"]:  # the last is beyond PostgreSQL's bigint
        socket, connected = await connect(path, user)
        assert connected, path
        assert (await _error(socket))["code"] == "not_found"
        closed = await closed_with(socket)
        assert closed["code"] == 4404 and closed["reason"], path


async def test_the_lobby_socket_answers_garbage_with_errors_and_stays_open():
    socket, connected = await connect("/ws/lobby/")
    assert connected
    await socket.send_to(text_data="{not json")
    assert (await _error(socket))["code"] == "malformed"
    await socket.send_to(bytes_data=b"\x00\xff binary")
    assert (await _error(socket))["code"] == "malformed"
    await socket.send_json_to({"t": "act", "v": 1, "d": {}})
    assert (await _error(socket))["code"] == "unknown_frame"
    await socket.send_to(text_data="{}")
    assert (await _error(socket))["code"] == "malformed"  # still answering: the socket is open
    await socket.disconnect()


# --- finding 4: close codes as documented ----------------------------------------------------------------------


async def test_no_session_and_a_forged_cookie_watch_as_visitors_who_may_only_read(start_table):
    match, _users = await _start(start_table)
    for cookie in (None, "forged-session-key"):
        socket, connected = await connect(f"/ws/match/{match.pk}/", None, cookie=cookie)
        assert connected
        snapshot = await receive_until(socket, "view")
        assert snapshot["d"]["seat"] is None  # the spectators' view
        for frame in ({"t": "chat", "d": {"text": "hi"}}, {"t": "quick", "d": {"phrase": "gg"}}):
            await socket.send_json_to(frame)
            assert (await _error(socket))["code"] == "login_required"
        await socket.send_json_to({"t": "act", "v": snapshot["v"], "d": {}})
        assert (await _error(socket))["code"] == "not_seated"
        await socket.disconnect()


async def test_a_suspended_player_is_refused_with_a_close_code_and_a_reason(start_table, make_user):
    match, users = await _start(start_table)
    moderator = await database_sync_to_async(make_user)()
    await database_sync_to_async(moderation.moderation_suspend)(
        moderator=moderator, user=users[1], reason="abuse", duration=timedelta(days=1)
    )
    socket, connected = await connect(f"/ws/match/{match.pk}/", users[1])
    assert connected
    closed = await closed_with(socket)
    assert closed["code"] in (4401, 4403)  # a suspended account may already have lost its session
    assert closed["reason"]


# --- finding 5: idempotent intents and the budget of version-moving intents ------------------------------------


async def test_a_repeated_leave_or_back_changes_nothing_and_sends_nothing(start_table):
    match, _users, [(socket, snapshot), (other, _snap)] = await _seated(start_table)
    await socket.send_json_to({"t": "back"})  # not absent: nothing to do
    assert await other.receive_nothing(timeout=0.3)
    assert (await _match(match.pk)).version == snapshot["v"]
    await socket.send_json_to({"t": "leave"})
    left = (await receive_until(other, "view"))["v"]
    await drain(other)
    for _ in range(5):
        await socket.send_json_to({"t": "leave"})
    await _still_open(socket)
    assert await other.receive_nothing(timeout=0.3)
    assert (await _match(match.pk)).version == left


async def test_leaving_and_coming_back_in_a_loop_runs_out_of_budget(start_table, settings):
    settings.TAPETE_SEAT_INTENTS = 2
    match, _users, [(socket, _snapshot), _other] = await _seated(start_table)
    for _ in range(2):
        await socket.send_json_to({"t": "leave"})
        await receive_until(socket, "presence")
        await socket.send_json_to({"t": "back"})
        await receive_until(socket, "presence")
    version = (await _match(match.pk)).version
    await socket.send_json_to({"t": "leave"})
    assert (await _error(socket))["code"] == "intent_budget"
    assert (await _match(match.pk)).version == version


# --- item 7 (websocket side): sockets per user and per IP, frames per user -------------------------------------


async def test_sockets_beyond_the_limit_per_user_are_closed_with_4429(start_table, settings):
    settings.TAPETE_WS_SOCKETS_PER_USER = 2
    match, users = await _start(start_table)
    path = f"/ws/match/{match.pk}/"
    kept = [(await connect(path, users[0]))[0] for _ in range(2)]
    extra, connected = await connect(path, users[0])
    assert connected and (await closed_with(extra))["code"] == 4429
    await kept[0].disconnect()  # a closed socket frees its place
    again, _ = await connect(path, users[0])
    assert (await receive_until(again, "view"))["d"]["snapshot"]


async def test_the_default_limit_lets_a_player_keep_nine_table_tabs_the_lobby_and_another_page_open(start_table):
    # Every page of a logged-in player holds the lobby socket (the header's "Your move", invitations); a table's page
    # holds its match socket too. Measured in a browser: with 8 sockets, the fourth table tab of a player who had the
    # lobby open could not play (its match socket was refused). docs/protocol.md gives the count.
    match, users = await _start(start_table)
    tabs = 9
    tables = [(await connect(f"/ws/match/{match.pk}/", users[0]))[0] for _ in range(tabs)]
    lobbies = [(await connect("/ws/lobby/", users[0]))[0] for _ in range(tabs + 2)]
    for socket in tables:
        assert (await receive_until(socket, "view"))["d"]["snapshot"]
    for socket in lobbies:
        await drain(socket)
        await socket.send_to(text_data="{")
        assert (await _error(socket))["code"] == "malformed"  # open, and answering
    extra, _ = await connect("/ws/lobby/", users[0])
    assert (await closed_with(extra))["code"] == 4429  # still bounded
    for socket in tables + lobbies:
        await socket.disconnect()


async def test_sockets_beyond_the_limit_per_ip_are_closed_with_4429(settings):
    settings.TAPETE_WS_SOCKETS_PER_IP = 3
    kept = [(await connect("/ws/lobby/", client="198.51.100.7"))[0] for _ in range(3)]
    extra, connected = await connect("/ws/lobby/", client="198.51.100.7")
    assert connected and (await closed_with(extra))["code"] == 4429
    other, _ = await connect("/ws/lobby/", client="198.51.100.8")
    await other.send_to(text_data="{")
    assert (await _error(other))["code"] == "malformed"  # another address is not affected
    for socket in kept:
        await socket.disconnect()


async def test_the_frame_rate_is_counted_per_user_over_all_their_sockets(start_table, settings):
    settings.TAPETE_WS_RATE_BURST = 10
    settings.TAPETE_WS_RATE_PER_SECOND = 0.01
    match, users = await _start(start_table)
    first, _ = await connect(f"/ws/match/{match.pk}/", users[0])
    second, _ = await connect(f"/ws/match/{match.pk}/", users[0])
    await drain(first)
    await drain(second)
    codes = []
    for index in range(16):  # one bucket of 10 for both sockets (the two snapshots were not frames from them)
        socket = (first, second)[index % 2]
        await socket.send_to(text_data="{")
        codes.append((await _error(socket))["code"])
    assert codes.count("malformed") == 10 and codes[10:] == ["rate_limited"] * 6


# --- finding 2: integer parameters over HTTP -------------------------------------------------------------------


@pytest.mark.django_db
def test_replay_parameters_that_are_not_plain_numbers_are_a_400(client, start_table):
    match, users = start_table("perudo", 2)
    client.force_login(users[0])
    url = reverse("turnengine:replay_data", args=[match.pk])
    for value in ["²", "١٢", "1_0", "-1", "99999999999999999999", " 1", "1.0"]:
        for name in ("step", "seat"):
            response = client.get(url, {name: value})
            assert response.status_code == 400, (name, value)
            error = response.json()["error"]
            assert error["code"] == "bad_parameter" and error["parameter"] == name and error["message"]
    assert client.get(url, {"step": "1", "seat": "0"}).status_code == 200


@pytest.mark.django_db
def test_a_posted_seat_that_is_not_a_number_is_refused_with_a_message(client, make_user):
    from lobby import services as lobby

    creator = make_user()
    match = lobby.table_create(user=creator, game="perudo", num_players=3, options={}, ranked=False)
    for view, user in (("lobby:add_bot", creator), ("lobby:join", make_user())):
        client.force_login(user)
        response = client.post(reverse(view, args=[match.pk]), {"seat": "²", "level": "easy"}, follow=True)
        assert response.status_code == 200
        assert "There is no such seat" in response.content.decode()
    assert match.seats.count() == 1


# --- finding 2 (websocket side): a failure inside the server is an error frame, logged without the payload -----


async def test_a_server_failure_on_a_frame_is_an_error_frame_and_one_log_line_without_the_payload(
    start_table, monkeypatch, caplog
):
    from turnengine import chat

    def broken(**kwargs):
        raise ValueError(f"database refused {kwargs['text']!r}")  # as PostgreSQL's errors quote the input

    monkeypatch.setattr(chat, "chat_post", broken)
    match, _users, [(socket, snapshot), _other] = await _seated(start_table)
    with caplog.at_level("ERROR", logger="tapete.websocket"):
        await socket.send_json_to({"t": "chat", "d": {"text": "secret-payload"}})
        assert (await _error(socket))["code"] == "server_error"
    await _still_open(socket)
    [record] = [record for record in caplog.records if record.name == "tapete.websocket"]
    assert "ValueError" in record.getMessage() and "Chat frame" in record.getMessage()
    assert "secret-payload" not in caplog.text and record.exc_info is None
    assert (await _match(match.pk)).version == snapshot["v"]


async def test_close_reasons_and_errors_speak_the_players_language(start_table):
    match, _users = await _start(start_table)
    socket, _connected = await connect(f"/ws/match/{match.pk + 1000}/", None, accept_language="fr")
    assert (await closed_with(socket))["reason"] == "Cette table n'existe pas."
    lobby, _connected = await connect("/ws/lobby/", accept_language="it")
    await lobby.send_to(text_data='{"t": "x\\u0000"}')
    assert (await _error(lobby))["message"] == "Il testo non può contenere caratteri di controllo."


@pytest.mark.django_db
def test_table_ids_beyond_any_column_are_not_found(client, make_user):
    client.force_login(make_user())
    huge = 10**20  # beyond PostgreSQL's bigint
    for name in ("lobby:table", "turnengine:replay", "turnengine:replay_data", "turnengine:log"):
        assert client.get(reverse(name, args=[huge])).status_code == 404
    for name in ("lobby:join", "lobby:leave", "lobby:add_bot", "lobby:cancel", "lobby:start"):
        assert client.post(reverse(name, args=[huge]), {"seat": "0", "level": "easy"}).status_code in (
            302,
            404,
        )
