"""The boards share one kit: every game's ``board.js`` (the test-only game's too) takes the table frame's kit
(``Tapete.kit``: ``el``, ``svg`` and the translation functions, described in the header of ``static/js/table.js``)
and keeps no helper of its own for what the kit does, nor a timer of its own on the controls."""

from __future__ import annotations

import re
from pathlib import Path

import pytest
from tapete_sdk import registry

from turnengine.game_app import config_of

ROOT = Path(__file__).resolve().parent.parent
# What a board once carried beside the kit: its own gettext fallbacks, SVG element makers, Tapete.el, a held button.
OWN_HELPERS = {
    "a gettext fallback": re.compile(r"window\.(gettext|ngettext|interpolate)\b"),
    "an element maker": re.compile(r"createElementNS|function (svg|el)\s*\(|Tapete\.el\b"),
    "a timer on its controls": re.compile(r"\.disabled\s*=.*\n(.*\n){0,3}.*setTimeout|setTimeout\(.*hold\("),
}


def boards() -> list[Path]:
    found = []
    for rules in registry.all_games():
        path = Path(config_of(rules.key).path) / "static" / rules.key / "board.js"
        if path.exists():
            found.append(path)
    return found


def test_every_game_has_a_board():
    assert {path.parent.name for path in boards()} >= {"perudo", "spicy", "chinesecheckers", "tictactoe"}


@pytest.mark.parametrize("path", boards(), ids=lambda path: path.parent.name)
def test_a_board_takes_the_frames_kit_and_keeps_no_helper_of_its_own(path):
    source = path.read_text()
    assert "= Tapete.kit;" in source
    assert {what for what, pattern in OWN_HELPERS.items() if pattern.search(source)} == set()


def test_the_frame_documents_and_hands_out_the_kit():
    frame = (ROOT / "static" / "js" / "table.js").read_text()
    header = frame.split("(function", 1)[0]
    for name in ("el(", "svg(", "gettext(", "ngettext(", "interpolate("):
        assert name in header
    assert "const kit = Object.freeze({ el, svg, gettext: _, ngettext, interpolate: fmt });" in frame
    assert "...kit," in frame and "    kit," in frame  # in every ctx, and as Tapete.kit
