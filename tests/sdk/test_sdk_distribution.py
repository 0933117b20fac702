"""The SDK and the games install and play on their own: built as distributions from this repository, installed in a
bare virtual environment (no Django, nothing else), they discover every game, play it to the end and pass the
conformance suite there."""

from __future__ import annotations

import shutil
import subprocess
import sys
import tomllib
from pathlib import Path

from tests.conftest import SITE_GAME_KEYS

ROOT = Path(__file__).resolve().parents[2]

PROGRAM = """
import importlib.util, random, sys
assert importlib.util.find_spec("django") is None, "django is installed in the bare environment"
from tapete_sdk import registry
from tapete_sdk.conformance import FAST, check_game
from tapete_sdk.plugin import play_random, replay
games = registry.discover()
for rules in games:
    rng = random.Random(1)
    playout = play_random(rules, {}, rules.min_players, rng)
    state = replay(rules, playout.options, playout.num_players, playout.log)
    outcome = rules.outcome(state)
    assert outcome is not None, rules.key
    check_game(rules, rules.normalize_options({}, rules.max_players), rules.max_players, seed=2, depth=FAST)
    print(rules.key, len(playout.log), outcome.reason)
assert not [name for name in sys.modules if name.split(".")[0] in {"django", "channels", "celery", "turnengine"}]
"""


def test_the_sdk_and_the_games_play_in_a_bare_virtual_environment(tmp_path):
    # Built from copies: a build writes its by-products (build/, *.egg-info) beside the sources.
    sources = [tmp_path / "sdk", tmp_path / "games"]
    for source in sources:
        shutil.copytree(
            ROOT / source.name, source, ignore=shutil.ignore_patterns("build", "*.egg-info", "__pycache__")
        )
    wheels = tmp_path / "wheels"
    subprocess.run(
        [
            sys.executable,
            "-m",
            "pip",
            "wheel",
            "--quiet",
            "--no-deps",
            "--no-build-isolation",
            "--wheel-dir",
            wheels,
            *sources,
        ],
        check=True,
        cwd=tmp_path,
    )
    built = sorted(path.name.split("-")[0] for path in wheels.glob("*.whl"))
    assert built == ["tapete_games", "tapete_sdk"]
    venv = tmp_path / "venv"
    subprocess.run([sys.executable, "-m", "venv", venv], check=True)
    python = venv / "bin" / "python"
    subprocess.run(
        [python, "-m", "pip", "install", "--quiet", "--no-index", "--no-deps", *sorted(wheels.glob("*.whl"))],
        check=True,
    )
    # Run away from the checkout, with no PYTHONPATH: only what the bare environment installed can be imported.
    result = subprocess.run(
        [python, "-c", PROGRAM],
        check=True,
        cwd=tmp_path,
        env={"PATH": "/usr/bin:/bin"},
        capture_output=True,
        text=True,
    )
    played = [line.split()[0] for line in result.stdout.splitlines()]
    assert played == SITE_GAME_KEYS  # every game the site ships, in key order, and nothing else


def test_the_games_distribution_lists_every_game_folder():
    """Packaging lists the games' sub-packages by name (setuptools cannot find them under a folder mapped to the
    package itself): a game folder left out would be missing from the distribution."""
    config = tomllib.loads((ROOT / "games" / "pyproject.toml").read_text())
    listed = set(config["tool"]["setuptools"]["packages"])
    folders = {f"games.{path.parent.name}" for path in (ROOT / "games").glob("*/rules.py")}
    assert listed == {"games"} | folders
