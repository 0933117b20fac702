"""``realtime.frames.parse_client_frame``'s control-character check, on both of its paths: the text searched once
when it holds no escape, the parsed frame walked when it does or when whitespace separates its tokens."""

from __future__ import annotations

import pytest

from realtime.frames import Act, parse_client_frame
from turnengine.errors import EngineError


def _parse(text: str):
    return parse_client_frame(text, None, max_bytes=4096)


def test_a_frame_spread_over_lines_and_tabs_is_parsed():
    # The whitespace is made of control characters: the text's search finds it, and the walk clears the strings.
    frame = '{\n\t"t": "act",\n\t"v": 3,\n\t"d": {"type": "move", "from": [0, 1, -1], "to": [1, 0, -1]}\r\n}'
    assert _parse(frame) == Act(version=3, action={"type": "move", "from": [0, 1, -1], "to": [1, 0, -1]})


@pytest.mark.parametrize(
    "text",
    [
        '{"t": "chat", "d": {"text": "a\\u0000b"}}',  # escaped: only the walk sees it
        '{"t": "chat", "d": {"text": "line\\nbreak"}}',
        '{"t": "act", "v": 1, "d": {"type": "bid", "a\\u0085": 1}}',  # in a key
        '{"t": "act", "v": 1, "d": {"type": "bid", "a\u0085": 1}}',  # as sent, no escape: the text's search
        '{"t": "chat", "d": {"text": "\u009b"}}',
    ],
)
def test_a_control_character_in_any_string_is_refused(text):
    with pytest.raises(EngineError) as refused:
        _parse(text)
    assert refused.value.code == "control_character"


def test_a_browsers_frame_without_escapes_or_whitespace_is_parsed():
    assert _parse('{"t":"act","v":7,"d":{"type":"pass"}}') == Act(version=7, action={"type": "pass"})
