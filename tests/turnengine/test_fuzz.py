"""Property-based fuzzing (Hypothesis) of everything a client can send: websocket frames at the match and lobby
consumers (through the real ASGI stack: session auth, origin check, routing) and the parameters of the views.

The properties: every frame gets an ``error`` with a code or a legitimate answer, no exception escapes, the socket
stays open, and the match's version and stored action log do not move; no request is answered with a 500. The
examples are derandomized and bounded (``derandomize=True``, a fixed ``max_examples``), so every run of the suite
throws the same inputs, on SQLite and on PostgreSQL in CI.
"""

from __future__ import annotations

import json

import pytest
from asgiref.sync import async_to_sync
from django.urls import reverse
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from lobby import services as lobby
from realtime.frames import KINDS
from tests.conftest import FAST_OPTIONS, GAME_KEYS
from tests.turnengine.wsclient import connect, receive
from turnengine.models import Match, MatchAction

FUZZ = settings(
    derandomize=True,
    deadline=None,
    max_examples=6,
    suppress_health_check=[HealthCheck.function_scoped_fixture, HealthCheck.too_slow],
)

NASTY_TEXT = st.one_of(
    st.text(max_size=24),
    st.sampled_from(
        ["a\x00b", "\x00", "\u0085", "²", "١٢", "\u202e", "\t", "<script>", "A" * 600, "é" * 3000]
    ),
)
NUMBERS = st.one_of(
    st.integers(-3, 40), st.integers(min_value=-(2**70), max_value=2**70), st.floats(allow_nan=False)
)
JSON = st.recursive(
    st.none() | st.booleans() | NUMBERS | NASTY_TEXT,
    lambda inner: st.lists(inner, max_size=4) | st.dictionaries(NASTY_TEXT, inner, max_size=4),
    max_leaves=8,
)
ACTION_TYPES = ["bid", "dudo", "calza", "declare_palifico", "roll", "roll_off", "first_player", "play", "pass",
                "move", "challenge", "decline", "copy", "shuffle"]  # fmt: skip
ACTIONS = st.fixed_dictionaries(
    {"type": st.sampled_from(ACTION_TYPES) | NASTY_TEXT},
    optional={
        "quantity": NUMBERS | JSON,
        "face": NUMBERS | JSON,
        "seat": NUMBERS,
        "dice": JSON,
        "card": NASTY_TEXT,
        "from": st.lists(NUMBERS, max_size=4),
        "to": st.lists(NUMBERS, max_size=4),
        "junk": NASTY_TEXT,
    },
)
# ``leave`` is left out: it legitimately moves the version (its repetitions are tested in test_hardening.py).
FRAME_KINDS = st.sampled_from(sorted(KINDS - {"leave"})) | NASTY_TEXT
FRAME_OBJECTS = st.fixed_dictionaries(
    {"t": FRAME_KINDS},
    optional={"v": st.integers(0, 4) | JSON, "d": ACTIONS | JSON, "x": JSON},
)
FRAMES = st.one_of(
    FRAME_OBJECTS.map(lambda frame: ("text", json.dumps(frame))),
    JSON.map(lambda value: ("text", json.dumps(value))),
    st.text(max_size=40).map(lambda text: ("text", text)),
    st.binary(max_size=40).map(lambda data: ("bytes", data)),
)
ANSWERS = {"error", "view", "chat", "muted", "presence"}


async def _throw(path: str, user, frames: list[tuple[str, str | bytes]]) -> None:
    """Send every frame on one socket, then ``sync``; every answer must be well-formed and the socket alive."""
    socket, connected = await connect(path, user)
    assert connected
    for kind, payload in frames:
        await socket.send_input({"type": "websocket.receive", kind: payload})
    await socket.send_input({"type": "websocket.receive", "text": '{"t": "sync"}'})
    answers = []
    while not answers or not await socket.receive_nothing(timeout=0.1):
        output = await socket.receive_output(timeout=10)
        assert output["type"] == "websocket.send", output  # no close, no crash
        answers.append(json.loads(output["text"]))
    for frame in answers:
        assert frame["t"] in ANSWERS, frame
        if frame["t"] == "error":
            assert isinstance(frame["d"]["code"], str) and frame["d"]["code"] and frame["d"]["message"]
    # Frames are handled in order: the last view answers the final sync, so every frame before it was handled.
    assert [frame for frame in answers if frame["t"] == "view"][-1]["d"]["snapshot"]
    await socket.disconnect()


def _log(match: Match) -> list:
    return list(MatchAction.objects.filter(match=match).order_by("step").values_list("step", "action"))


@pytest.mark.django_db(transaction=True)
@pytest.mark.parametrize("game", GAME_KEYS)
def test_no_frame_crashes_the_match_socket_or_moves_the_match(start_table, game, settings):
    settings.TAPETE_WS_RATE_BURST = 100_000  # let every fuzzed frame reach the parser and the engine
    settings.TAPETE_CHAT_LINES_PER_MINUTE = 100_000
    match, users = start_table(game, 2, FAST_OPTIONS[game])
    # The seat that may not act now: any action it sends must be refused, so the version must never move.
    idle = next(seat for seat in range(2) if not match.rules.legal_actions(match.state, seat))
    before, log = match.version, _log(match)

    @FUZZ
    @given(frames=st.lists(FRAMES, min_size=1, max_size=10))
    def throw(frames):
        async_to_sync(_throw)(f"/ws/match/{match.pk}/", users[idle], frames)
        match.refresh_from_db()
        assert match.version == before and _log(match) == log

    throw()


# The lobby socket reads no table, but the stack around it does (the session, and Channels closing stale database
# connections when a socket closes): without database access this test passed or failed by what ran before it.
@pytest.mark.django_db
def test_no_frame_crashes_the_lobby_socket():
    async def throw_at_lobby(frames):
        socket, connected = await connect("/ws/lobby/")
        assert connected
        for kind, payload in frames:
            await socket.send_input({"type": "websocket.receive", kind: payload})
            frame = await receive(socket)
            assert frame["t"] == "error" and frame["d"]["code"] in {
                "malformed", "control_character", "unknown_frame", "too_large"
            }  # fmt: skip
        await socket.disconnect()

    @FUZZ
    @given(frames=st.lists(FRAMES, min_size=1, max_size=6))
    def throw(frames):
        async_to_sync(throw_at_lobby)(frames)

    throw()


PARAMETER = st.one_of(NASTY_TEXT, st.integers(-(2**70), 2**70).map(str), st.sampled_from(["0", "1", "2", ""]))


@pytest.mark.django_db
def test_no_view_parameter_produces_a_server_error(client, start_table, make_user):
    match, users = start_table("perudo", 2, FAST_OPTIONS["perudo"])
    open_table = lobby.table_create(user=users[0], game="perudo", num_players=4, options={}, ranked=False)
    client.force_login(users[0])
    replay_url = reverse("turnengine:replay_data", args=[match.pk])
    version = match.version

    @FUZZ
    @given(step=PARAMETER, seat=PARAMETER, level=NASTY_TEXT, fields=st.dictionaries(NASTY_TEXT, PARAMETER))
    def request(step, seat, level, fields):
        # Django's test client re-raises any exception of a view, so a crash fails the test.
        assert client.get(replay_url, {"step": step, "seat": seat}).status_code in (200, 400, 403)
        for view in ("lobby:join", "lobby:add_bot"):
            response = client.post(reverse(view, args=[open_table.pk]), {"seat": seat, "level": level})
            assert response.status_code == 302
        assert client.post(reverse("lobby:create", args=["perudo"]), fields).status_code in (302, 400)

    request()
    match.refresh_from_db()
    assert match.version == version
