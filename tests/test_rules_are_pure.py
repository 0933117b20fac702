"""The rules libraries are usable without Django: importing them pulls in nothing but the standard library."""

import subprocess
import sys
from pathlib import Path

import pytest

from turnengine import registry

ROOT = Path(__file__).resolve().parent.parent


@pytest.mark.parametrize("game", [rules.key for rules in registry.all_games()])
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
