"""Client frames: every frame a client sends is parsed and validated here, in one place, into a typed message.

The consumers never look at a client's raw JSON: :func:`parse_client_frame` either returns one of the message
classes below or raises an coded error (``realtime.errors``) (``docs/protocol.md`` lists them).
What is checked, in this order:

* a text frame (binary frames are refused) of at most ``TAPETE_WS_MAX_FRAME_BYTES`` bytes holding a JSON object;
* no string anywhere in it (keys included) holds a control character (C0/C1, NUL included) or a lone surrogate:
  PostgreSQL cannot store NUL in text, and no field of the protocol needs them;
* only the keys ``t``, ``v`` and ``d``; ``t`` one of the allow-listed kinds;
* each kind's own fields: ``act`` needs an integer version and an action object; ``chat`` a ``text`` string; ``quick`` a ``phrase`` string;
  ``mute``/``unmute`` a ``username`` string; the others take no data (``v`` and ``d`` are ignored).

An action is only checked to be a JSON object here: its canonical form comes from the game's rules
(``tapete_sdk.plugin.canonical_action``), and the engine stores and broadcasts that, never the client's object.
"""

from __future__ import annotations

from dataclasses import dataclass

import orjson

from realtime.errors import transport_error
from web.text import CONTROL

FRAME_KEYS = frozenset({"t", "v", "d"})
MAX_VERSION = 2**53  # a JSON integer every client can represent exactly
USERNAME_MAX_LENGTH = 150  # Django's username field


@dataclass(frozen=True)
class Act:
    version: int
    action: dict


@dataclass(frozen=True)
class Chat:
    text: str


@dataclass(frozen=True)
class Quick:
    """A quick phrase or reaction, by its key (``turnengine.quick_chat`` checks it)."""

    phrase: str


@dataclass(frozen=True)
class Mute:
    username: str
    mute: bool


@dataclass(frozen=True)
class Intent:
    """A frame without data: ``sync`` (send me a snapshot), ``back``, ``leave``, ``end``, ``claim``."""

    kind: str


ClientMessage = Act | Chat | Quick | Mute | Intent
INTENTS = ("sync", "back", "leave", "end", "claim")
KINDS = frozenset({"act", "chat", "quick", "mute", "unmute", *INTENTS})


def parse_client_frame(
    text_data: str | None, bytes_data: bytes | None, *, max_bytes: int, kinds: frozenset[str] = KINDS
) -> ClientMessage:
    """The typed message of one websocket frame, or an :class:`EngineError` saying why there is none. ``kinds``
    narrows the allow-list for a socket that takes fewer kinds (the lobby's takes none)."""
    if text_data is None:
        raise transport_error("malformed")  # binary frames: the protocol is JSON text
    if len(text_data) > max_bytes or len(text_data.encode("utf-8", "surrogatepass")) > max_bytes:
        raise transport_error("too_large")
    try:
        frame = orjson.loads(text_data)
    except orjson.JSONDecodeError:
        raise transport_error("malformed") from None
    if not isinstance(frame, dict) or not isinstance(frame.get("t"), str) or not frame.keys() <= FRAME_KEYS:
        raise transport_error("malformed")
    if _holds_control_character(text_data, frame):
        raise transport_error("control_character")
    kind = frame["t"]
    if kind not in kinds:
        raise transport_error("unknown_frame")
    data = frame.get("d")
    if kind == "act":
        version = frame.get("v")
        if type(version) is not int or not 0 <= version <= MAX_VERSION or not isinstance(data, dict):
            raise transport_error("malformed")
        return Act(version=version, action=data)
    if kind == "chat":
        return Chat(text=_string_field(data, "text"))
    if kind == "quick":
        return Quick(phrase=_string_field(data, "phrase"))
    if kind in ("mute", "unmute"):
        username = _string_field(data, "username")
        if len(username) > USERNAME_MAX_LENGTH:
            raise transport_error("malformed")
        return Mute(username=username, mute=kind == "mute")
    return Intent(kind=kind)


def _string_field(data: object, name: str) -> str:
    """The one string field of a frame's data (no other field allowed)."""
    if not isinstance(data, dict) or data.keys() != {name} or not isinstance(data[name], str):
        raise transport_error("malformed")
    return data[name]


def _holds_control_character(text: str, frame: object) -> bool:
    """Whether a string of ``frame`` (parsed from ``text``) holds a control character. Without a backslash in the
    text, every string of the frame is a piece of the text as sent, so one search of the text settles it: a
    browser's frame (``JSON.stringify``'s: no whitespace, no escapes) takes only that. Otherwise (an escape, or
    whitespace between the tokens, which the search counts) the whole frame is walked, iteratively: orjson accepts
    nesting deeper than Python's recursion limit."""
    if "\\" not in text and CONTROL.search(text) is None:
        return False
    pending = [frame]
    while pending:
        item = pending.pop()
        if isinstance(item, str):
            if CONTROL.search(item) is not None:
                return True
        elif isinstance(item, dict):
            pending.extend(item.keys())
            pending.extend(item.values())
        elif isinstance(item, list):
            pending.extend(item)
    return False
