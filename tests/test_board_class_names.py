"""One naming convention for the boards' CSS: every class a game's ``board.css`` and ``board.js`` name carries the
game's prefix (its key and a dash, or the shorter prefix its ``board.css`` declares: ``Class prefix: cc-``), apart
from the few shared classes the table frame's stylesheet lists (``static/css/table.css``, its header), so a board
never restyles the site nor another board by accident (docs/games.md, "The board's classes")."""

from __future__ import annotations

import re
from pathlib import Path

import pytest
from tapete_sdk import registry

from tests.board_class_names import css_class_names, js_class_names
from turnengine.game_app import config_of

ROOT = Path(__file__).resolve().parent.parent
SITE_CSS = ROOT / "static" / "css" / "site.css"
TABLE_CSS = ROOT / "static" / "css" / "table.css"
DECLARED_PREFIX = re.compile(r"Class prefix: ([a-z][a-z0-9]*)-")


def shared_classes() -> set[str]:
    header = TABLE_CSS.read_text().split("*/", 1)[0]
    listed = header.split("shared classes:", 1)[1]
    return set(re.findall(r"[a-z][\w-]*", re.sub(r"\([^)]*\)", "", listed)))


def board_folders() -> list[tuple[str, Path]]:
    found = []
    for rules in registry.all_games():
        folder = Path(config_of(rules.key).path) / "static" / rules.key
        if (folder / "board.js").exists() or (folder / "board.css").exists():
            found.append((rules.key, folder))
    return found


def prefix_of(key: str, folder: Path) -> str:
    css = folder / "board.css"
    declared = DECLARED_PREFIX.search(css.read_text()) if css.exists() else None
    return declared.group(1) if declared else key


def strays(names, prefix: str, shared: set[str]) -> set[str]:
    return {f"{name.text}{'…' if name.fragment else ''}" for name in names
            if name.text != prefix and not name.text.startswith(f"{prefix}-") and name.text not in shared}


def test_the_shared_classes_are_the_sites_own():
    site = {name.text for path in (SITE_CSS, TABLE_CSS) for name in css_class_names(path.read_text())}
    assert {"player", "visually-hidden", "muted"} <= shared_classes() <= site


def test_every_game_with_a_board_is_checked():
    assert {key for key, _folder in board_folders()} >= {"perudo", "spicy", "chinesecheckers", "tictactoe"}
    assert prefix_of("chinesecheckers", dict(board_folders())["chinesecheckers"]) == "cc"


@pytest.mark.parametrize(("key", "folder"), board_folders(), ids=lambda value: str(value).rsplit("/", 1)[-1])
def test_a_boards_stylesheet_names_only_its_own_classes_and_the_shared_ones(key, folder):
    source = (folder / "board.css").read_text()
    names = css_class_names(source)
    assert names, "the scanner found no class at all"
    assert strays(names, prefix_of(key, folder), shared_classes()) == set()


@pytest.mark.parametrize(("key", "folder"), board_folders(), ids=lambda value: str(value).rsplit("/", 1)[-1])
def test_a_boards_script_writes_and_queries_only_its_own_classes_and_the_shared_ones(key, folder):
    names = js_class_names((folder / "board.js").read_text())
    assert names, "the scanner found no class at all"
    assert strays(names, prefix_of(key, folder), shared_classes()) == set()


def test_the_scanners_see_class_lists_selectors_and_template_literals():
    script = """
      el("li", { class: `cc-score seat-${seat}${acting ? " to-act" : ""}`, title: "not a class" });
      node.classList.toggle("cc-mine", on); node.classList.add("animate");
      board.querySelector(`.cc-marble[data-cell="${key}"], .felt > p`);
      grid.className = "cc-grid";
      svg("g", { class: "cc-ok", "data-x": "pill" });
    """
    assert strays(js_class_names(script), "cc", set()) == {"seat-…", "to-act", "animate", "felt"}
    sheet = "/* .commented { } */ .cc-a .b:not(.cc-c), .cc-d { margin: .4rem; } @container board (max-width: 9.5rem) " \
            "{ .cc .e { padding: .1rem; } } @keyframes cc-spin { from { opacity: .5; } }"
    assert strays(css_class_names(sheet), "cc", set()) == {"b", "e"}
