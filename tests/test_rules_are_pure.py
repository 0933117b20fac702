"""The rules libraries and the SDK are usable without Django: they import nothing but the standard library, the SDK
and their own package's modules, and importing them pulls in nothing else. Every registered game is checked, the
test-only fourth game included."""

import ast
import importlib.util
import subprocess
import sys
from pathlib import Path

import pytest
from tapete_sdk import registry

ROOT = Path(__file__).resolve().parent.parent
GAMES = [rules.key for rules in registry.all_games()]
# A game's Django side: analysis_words.py (its post-game analysis in words, with Django's gettext), and the test-only
# game's apps.py, which names its computer players' module. Everything else must be pure.
SITE_SIDE = {"apps.py", "analysis_words.py"}


def imported_modules(path: Path) -> set[str]:
    names = set()
    for node in ast.walk(ast.parse(path.read_text())):
        if isinstance(node, ast.Import):
            names |= {alias.name for alias in node.names}
        elif isinstance(node, ast.ImportFrom) and node.level == 0:
            names.add(node.module or "")
    return names


@pytest.mark.parametrize("game", GAMES)
def test_a_game_imports_only_the_standard_library_the_sdk_and_itself(game):
    package = registry.package_of(game)
    folder = Path(importlib.util.find_spec(package).origin).parent
    allowed = set(sys.stdlib_module_names) | {"tapete_sdk"}
    for path in folder.glob("*.py"):
        if path.name in SITE_SIDE:
            continue
        for name in imported_modules(path):
            assert name.split(".")[0] in allowed or name.startswith(package), f"{path} imports {name}"


def test_the_sdk_imports_only_the_standard_library_and_itself():
    allowed = set(sys.stdlib_module_names) | {"tapete_sdk"}
    for path in (ROOT / "sdk" / "tapete_sdk").glob("*.py"):
        for name in imported_modules(path):
            assert name.split(".")[0] in allowed, f"{path} imports {name}"


@pytest.mark.parametrize("game", GAMES)
def test_importing_a_rules_module_imports_no_django(game):
    module = f"{registry.package_of(game)}.rules"
    program = (
        f"import sys; import {module} as r; "
        "bad = sorted(m for m in sys.modules if m.split('.')[0] in {'django', 'channels', 'celery', 'asgiref'}); "
        "assert not bad, bad; assert r.RULES.key == '%s'" % game
    )
    subprocess.run(
        [sys.executable, "-c", program],
        cwd=ROOT,
        check=True,
        env={"PYTHONPATH": f"{ROOT / 'platform'}:{ROOT}", "PATH": "/usr/bin:/bin"},
    )


PLATFORM_PACKAGES = {path.name for path in (ROOT / "platform").iterdir() if (path / "__init__.py").exists()}


def test_the_games_import_nothing_of_the_platform():
    """The games ship as their own distribution (tapete-games), where the platform is absent: not even their Django
    side imports it (the site finds a game by its module ``rules``, and ``percent`` is the SDK's)."""
    assert {"turnengine", "botapi", "tapete"} <= PLATFORM_PACKAGES
    found = [
        f"{path.relative_to(ROOT)} imports {name}"
        for path in sorted((ROOT / "games").rglob("*.py"))
        for name in imported_modules(path)
        if name.split(".")[0] in PLATFORM_PACKAGES
    ]
    assert found == []
