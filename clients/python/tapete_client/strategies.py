"""What decides a move: ``Strategy(game, view, legal, rng) -> action or None`` (None: do not act now, as a bot
may decline to speak out of turn). :func:`project_bot` wraps one of Tapete's own computer players, imported from a
checkout of the project (``games/<game>/bots.py``, ``LEVELS``): set ``TAPETE_SOURCE`` to it, or run the client
from inside the checkout (``clients/python`` finds the checkout two folders up)."""

from __future__ import annotations

import importlib
import os
import random
import sys
from collections.abc import Callable
from pathlib import Path

Strategy = Callable[[str, dict, list, random.Random], dict | None]


def _source_root() -> Path:
    configured = os.environ.get("TAPETE_SOURCE")
    return Path(configured) if configured else Path(__file__).resolve().parents[3]


def _import_bots(game: str):
    root = _source_root()
    for folder in (root, root / "platform"):  # the games import the engine's contract from platform/
        if (folder.exists()) and str(folder) not in sys.path:
            sys.path.append(str(folder))
    return importlib.import_module(f"games.{game}.bots")


def levels(game: str) -> list[str]:
    return list(_import_bots(game).LEVELS)


def project_bot(level: str) -> Strategy:
    """The project's computer player of ``level`` (easy, medium, hard) for whichever game it is asked about."""

    def choose(game: str, view: dict, legal: list, rng: random.Random) -> dict | None:
        bots = _import_bots(game).LEVELS
        if level not in bots:
            raise ValueError(f"{game} has no computer player {level!r} (it has {', '.join(bots)})")
        return bots[level](view, legal, rng)

    return choose
