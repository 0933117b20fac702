"""docs/protocol.md and the code agree: every close code and every error code the server sends is in the document's
tables, and the document lists none that the server does not send."""

from __future__ import annotations

import re
from pathlib import Path

from realtime import errors as transport
from realtime.frames import KINDS
from realtime.sockets import CLOSE_ERRORS, CLOSE_RESTARTING, CLOSE_SERVER_ERROR, CLOSE_SLOW_READER
from turnengine import errors as engine

DOC = (Path(__file__).resolve().parents[2] / "docs" / "protocol.md").read_text()
CODES_SET_OUTSIDE_MESSAGES = {"muted"}  # turnengine.chat: its message names the end of the mute


def table_codes(heading: str) -> set[str]:
    """The backticked codes in the first column of the table under ``heading``."""
    section = DOC.split(heading, 1)[1]
    rows = re.findall(r"^\| (.+?) \|", section.split("\n\n", 2)[1], flags=re.MULTILINE)
    return {code for row in rows for code in re.findall(r"`([^`]+)`", row)}


def test_the_close_codes_table_matches_the_code():
    assert table_codes("### Close codes") == {
        str(code) for code in [*CLOSE_ERRORS, CLOSE_SERVER_ERROR, CLOSE_SLOW_READER, CLOSE_RESTARTING]
    }


def test_the_error_codes_table_matches_the_code():
    assert not set(engine.MESSAGES) & set(transport.MESSAGES), "each code has one owner"
    assert table_codes("### Error codes") == set(engine.MESSAGES) | set(transport.MESSAGES) | CODES_SET_OUTSIDE_MESSAGES


def test_the_client_frames_table_lists_every_kind_the_parser_accepts():
    assert table_codes("### Client → server") - {"t"} == set(KINDS)


def test_the_documented_limits_are_the_settings(settings):
    limits = " ".join(DOC.split("Limits (settings in brackets)", 1)[1].split("\n\n", 1)[0].split())
    assert f"over {settings.TAPETE_WS_MAX_FRAME_BYTES // 1024} KiB" in limits
    assert f"more than {settings.TAPETE_WS_RATE_PER_SECOND:g} frames a second" in limits
    assert f"bursts of {settings.TAPETE_WS_RATE_BURST}," in limits
    assert f"{settings.TAPETE_WS_SOCKETS_PER_USER} open sockets per user" in limits
    assert f"{settings.TAPETE_WS_SOCKETS_PER_IP} per IP address" in limits
    window_minutes = settings.TAPETE_SEAT_INTENT_WINDOW_SECONDS // 60
    assert f"at most {settings.TAPETE_SEAT_INTENTS} times in {window_minutes} minutes" in limits
    assert f"`sync` once a second on average with bursts of {settings.TAPETE_WS_SYNC_BURST}," in limits
    assert settings.TAPETE_WS_SYNC_PER_SECOND == 1
    per_user = settings.TAPETE_WS_SYNC_PER_USER_PER_SECOND
    assert f"a user {per_user:g} times a second with bursts of {settings.TAPETE_WS_SYNC_PER_USER_BURST}" in limits


def test_the_documented_socket_bounds_are_the_settings(settings):
    bounds = " ".join(DOC.split("Keep reading, and answer pings", 1)[1].split("\n- ", 1)[0].split())
    assert f"every socket every {settings.TAPETE_WS_PING_INTERVAL} seconds" in bounds
    assert f"come back within {settings.TAPETE_WS_PING_TIMEOUT} seconds" in bounds
    assert f"more than {settings.TAPETE_WS_SEND_BUFFER_BYTES // 1024} KiB wait" in bounds


def test_every_close_reason_fits_in_a_close_frame():
    from django.utils import translation

    from realtime.sockets import CLOSE_ERRORS

    messages = {**engine.MESSAGES, **transport.MESSAGES}
    for language in ("en", "fr", "it"):
        with translation.override(language):
            for code in [*CLOSE_ERRORS.values(), "token_revoked"]:
                assert len(str(messages[code]).encode()) <= 123  # RFC 6455: a close frame's reason


def test_the_presence_notices_are_the_ones_the_server_sends():
    from turnengine.presence import NOTICE_TYPES

    row = next(line for line in DOC.splitlines() if line.startswith("| `presence` |"))
    documented = re.search(r"`\{\"type\": (.+?), \"seat\"\}`", row).group(1)
    assert set(re.findall(r'"(\w+)"', documented)) == set(NOTICE_TYPES)

