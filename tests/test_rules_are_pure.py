"""The rules libraries are usable without Django: importing them pulls in nothing but the standard library."""

import subprocess
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parent.parent


@pytest.mark.parametrize("game", ["perudo", "spicy", "chinesecheckers"])
def test_importing_a_rules_module_imports_no_django(game):
    program = (
        f"import sys; import games.{game}.rules as r; "
        "bad = sorted(m for m in sys.modules if m.split('.')[0] in {'django', 'channels', 'celery', 'asgiref'}); "
        "assert not bad, bad; assert r.RULES.key == '%s'" % game
    )
    subprocess.run(
        [sys.executable, "-c", program],
        cwd=ROOT,
        check=True,
        env={"PYTHONPATH": f"{ROOT / 'platform'}:{ROOT}", "PATH": "/usr/bin:/bin"},
    )
