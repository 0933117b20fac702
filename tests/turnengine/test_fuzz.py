"""Property-based fuzzing (Hypothesis) of everything a client can send: websocket frames at the match and lobby
consumers (through the real ASGI stack: session auth, origin check, routing), the parameters of the views, every
address of the site (its URL resolver walked: path segments, query and form fields) and every endpoint of the Bot
API (its OpenAPI schema walked: path, query and body), with NUL and other control characters, huge numbers and
wrong types.

The properties: every frame gets an ``error`` with a code or a legitimate answer, no exception escapes, the socket
stays open, and the match's version and stored action log do not move; no request is answered with a 500 (the API
answers its coded JSON errors; a control character in an address's name or token is a 404). The
examples are derandomized and bounded (``derandomize=True``, a fixed ``max_examples``), so every run of the suite
throws the same inputs, on SQLite and on PostgreSQL in CI.
"""

from __future__ import annotations

import json
import re
from urllib.parse import quote, unquote

import pytest
from asgiref.sync import async_to_sync
from django.urls import URLResolver, get_resolver, reverse
from django.urls.converters import IntConverter, SlugConverter
from hypothesis import HealthCheck, example, given, settings
from hypothesis import strategies as st

from botapi.errors import API_ERRORS
from botapi.tokens import token_create
from lobby import services as lobby
from realtime.frames import KINDS
from tests.botapi.conftest import ApiClient
from tests.conftest import FAST_OPTIONS, GAME_KEYS
from tests.turnengine.wsclient import connect, receive
from turnengine.models import Match, MatchAction
from web.text import CONTROL

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


# --- every address of the site, and every endpoint of the Bot API --------------------------------------------------
# The URL resolver is walked, so a new page is fuzzed as soon as it has an address; the Bot API's endpoints come from
# the OpenAPI schema django-ninja serves. Django admin's own views are left to Django (the moderators' pages have
# their tests in tests/moderation), and the API's routes to the schema's walk.


def _routes(patterns=None, prefix: str = "", namespace: str | None = None):
    for entry in get_resolver().url_patterns if patterns is None else patterns:
        if isinstance(entry, URLResolver):
            yield from _routes(entry.url_patterns, prefix + str(entry.pattern), entry.namespace or namespace)
        elif namespace not in ("admin", "botapi-api"):
            converters = getattr(entry.pattern, "converters", {})
            yield pytest.param(prefix + str(entry.pattern), converters, id=prefix + str(entry.pattern) or "/")


ROUTES = list(_routes())
# Some forty addresses and fourteen endpoints, each with its explicit examples: fewer drawn examples each keep the
# suite's pass short.
FUZZ_EACH = settings(FUZZ, max_examples=4)
CONTROL_TEXT = st.sampled_from(["a\x00b", "\x00", "a\x01", "\x7f", "\x1b[0m", "a\u0085b"])
PATH_TEXT = NASTY_TEXT | CONTROL_TEXT
HUGE = st.sampled_from([0, 2**31, 10**12, 2**63, 10**30])
# Field names of the site's forms and views (a form rendered by {{ form }} names them in Python, not in templates).
FIELD_NAMES = ["step", "seat", "level", "game", "status", "mine", "reason", "comment", "match", "move", "chat",
               "username", "password", "password1", "password2", "old_password", "new_password1", "email", "name",
               "scopes", "confirm", "next", "language", "num_players", "ranked", "time_control", "min_rating",
               "max_rating", "preset", "allow_bots", "grace_seconds", "opt_startingDice", "page"]  # fmt: skip
FIELDS = st.dictionaries(st.sampled_from(FIELD_NAMES) | NASTY_TEXT, PARAMETER | CONTROL_TEXT, max_size=6)
NUMBER_FIELDS = ["step", "seat", "match", "move", "chat", "num_players", "min_rating", "max_rating", "grace_seconds",
                 "page"]  # fmt: skip
# Explicit examples, run on every address besides the drawn ones: every field at once NUL or huge, the fields
# that would otherwise stop a form first (a reason, a scope) left valid so the nasty ones reach the database.
VALID_CHOICES = {"reason": "abuse", "scopes": "read"}
NUL_EVERYWHERE = {**{name: "a\x00b" for name in FIELD_NAMES}, **VALID_CHOICES}
HUGE_NUMBERS = {**{name: str(10**12) for name in NUMBER_FIELDS}, **VALID_CHOICES}


def _segment(text: str) -> str:
    return quote(text.encode("utf-8", "surrogatepass"), safe="")


@pytest.fixture
def fuzz_world(start_table, make_user, settings):
    """A running table and an open one, a player seated at both, and cheap password hashes (a fuzzed log-in still
    runs the hasher once)."""
    settings.PASSWORD_HASHERS = ["django.contrib.auth.hashers.MD5PasswordHasher"]
    settings.TAPETE_API_RATE = "100000/m"
    match, users = start_table("perudo", 2, FAST_OPTIONS["perudo"])
    waiting = lobby.table_create(user=users[0], game="perudo", num_players=4, options={}, ranked=False)
    return {"user": users[0], "ids": [match.pk, waiting.pk], "names": [users[1].username],
            "tokens": [waiting.invite_token]}  # fmt: skip


def _argument(converter, world):
    if isinstance(converter, IntConverter):
        return st.sampled_from(world["ids"]).map(str) | HUGE.map(str)
    if isinstance(converter, SlugConverter):
        return st.sampled_from(GAME_KEYS + ["4p", "bots", "x"])
    return st.sampled_from(world["names"] + world["tokens"]).map(_segment) | PATH_TEXT.map(_segment)


@pytest.mark.django_db
@pytest.mark.parametrize(("route", "converters"), ROUTES)
def test_no_address_of_the_site_answers_a_server_error(client, fuzz_world, route, converters):
    """Every page, with fuzzed path segments, query and form fields, GET and POST: a 4xx (a control character in a
    path segment is a 404), a redirect or a page, never a 500 (Django's test client re-raises a view's crash)."""
    arguments = st.fixed_dictionaries({name: _argument(conv, fuzz_world) for name, conv in converters.items()})
    valid = {name: _segment(str(fuzz_world["ids"][0] if isinstance(conv, IntConverter) else fuzz_world["names"][0]))
             for name, conv in converters.items()}  # fmt: skip
    nul = {name: str(2**63) if isinstance(conv, IntConverter) else "a%00b" for name, conv in converters.items()}

    @FUZZ_EACH
    @given(arguments=arguments, query=FIELDS, form=FIELDS)
    @example(arguments=nul, query=NUL_EVERYWHERE, form=NUL_EVERYWHERE)
    @example(arguments=valid, query=NUL_EVERYWHERE, form=NUL_EVERYWHERE)
    @example(arguments=valid, query=HUGE_NUMBERS, form=HUGE_NUMBERS)
    def request(arguments, query, form):
        client.force_login(fuzz_world["user"])
        path = "/" + re.sub(r"<(?:\w+:)?(\w+)>", lambda found: arguments[found.group(1)], route)
        control = any(CONTROL.search(unquote(value)) for value in arguments.values())
        for response in (client.get(path, query), client.post(path, form)):
            if route == "internal/health/" and response.status_code == 503:
                # The operator's health check answers 503 when beat or a queue is late (no worker runs here):
                # its verdict, in its JSON report, not a crash.
                assert response.json()["healthy"] is False
                continue
            assert response.status_code < 500, (path, response.status_code)
            if control and not route.startswith(("api/", "accounts/password/reset/")):
                assert response.status_code == 404, path

    request()


@pytest.fixture
def api_operations(client):
    schema = client.get("/api/openapi.json").json()
    return [
        (path, method, operation, schema["components"]["schemas"])
        for path, methods in schema["paths"].items()
        for method, operation in methods.items()
    ]


API_VALID = {"game": "perudo", "num_players": 2, "version": 0, "action": {"type": "bid"}, "level": "hard"}


def _body_fields(operation, components) -> list[str]:
    content = operation.get("requestBody", {}).get("content", {})
    reference = content.get("application/json", {}).get("schema", {}).get("$ref")
    return list(components[reference.rsplit("/", 1)[1]]["properties"]) if reference else []


def _body(operation, components):
    fields = _body_fields(operation, components)
    shaped = st.fixed_dictionaries({}, optional={name: JSON for name in fields}) if fields else JSON
    return st.one_of(shaped.map(json.dumps), JSON.map(json.dumps), st.binary(max_size=40))


def _fuzz_endpoint(api: ApiClient, world: dict, path: str, method: str, operation: dict, components: dict) -> None:
    names = [parameter["name"] for parameter in operation.get("parameters", []) if parameter["in"] == "query"]
    fields = _body_fields(operation, components)
    segments = st.sampled_from(world["ids"]).map(str) | HUGE.map(str) | PATH_TEXT.map(_segment)
    query = st.fixed_dictionaries({}, optional=dict.fromkeys(names, PARAMETER | CONTROL_TEXT))

    def request(segment, query, body):
        address = re.sub(r"\{\w+\}", segment, path)
        if method == "get":
            response = api.client.get(address, query, headers=api.headers)
        else:
            response = api.client.post(address, body, content_type="application/json", headers=api.headers)
        assert response.status_code < 500, (method, address, response.status_code)
        if response.status_code >= 400:
            assert response.json()["code"] in API_ERRORS, (method, address, response.content)

    # Explicit examples besides the drawn ones: the path, then each parameter and field alone NUL or huge, the body's
    # other fields valid (so that no other invalid one stops the request before it).
    valid, body = str(world["ids"][0]), {name: API_VALID[name] for name in fields if name in API_VALID}
    explicit = [("a%00b", {}, json.dumps(body)), (str(10**30), {}, json.dumps(body))]
    explicit += [(valid, {name: value}, "{}") for name in names for value in ("a\x00b", str(10**30))]
    explicit += [
        (valid, {}, json.dumps({**body, name: value})) for name in fields for value in ("a\x00b", 10**30)
    ]
    for segment, query_values, body in explicit:
        request = example(segment=segment, query=query_values, body=body)(request)
    FUZZ_EACH(given(segment=segments, query=query, body=_body(operation, components))(request))()


@pytest.mark.django_db
def test_no_bot_api_endpoint_answers_a_server_error(fuzz_world, api_operations):
    """Every endpoint of the OpenAPI schema, with fuzzed path and query parameters and bodies: a coded JSON error
    (a code of botapi.errors) or an answer, never a 500."""
    _token, raw = token_create(user=fuzz_world["user"], name="fuzz", scopes=["play", "read"])
    api = ApiClient(raw)
    assert len(api_operations) >= 13
    for path, method, operation, components in api_operations:
        _fuzz_endpoint(api, fuzz_world, path, method, operation, components)
