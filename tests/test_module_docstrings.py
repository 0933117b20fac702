"""Every module of the project opens with a docstring saying what it holds (the code is meant to be read): the
platform, the games, the SDK, the benchmarks, the reference client and the tests. Empty package markers and
migrations, which Django writes, are left out."""

from __future__ import annotations

import ast
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
FOLDERS = ["platform", "games", "sdk", "bench", "clients", "tests"]


def test_every_module_opens_with_a_docstring():
    missing = []
    for folder in FOLDERS:
        for path in sorted((ROOT / folder).rglob("*.py")):
            if "migrations" in path.parts or ".venv" in path.parts:
                continue
            source = path.read_text()
            if source.strip() and ast.get_docstring(ast.parse(source)) is None:
                missing.append(str(path.relative_to(ROOT)))
    assert missing == []
