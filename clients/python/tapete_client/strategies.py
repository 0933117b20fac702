"""What decides a move: ``Strategy(game, view, legal, rng) -> action or None`` (None: do not act now, as a bot
may decline to speak out of turn). :func:`project_bot` wraps one of Tapete's own computer players, found through the
game SDK's registry among the installed games: ``pip install ./sdk ./games`` from a checkout of the project (or run
the client from the checkout's root, where ``games`` is importable). A strategy of your own needs neither."""

from __future__ import annotations

import random
from collections.abc import Callable

try:
    from tapete_sdk import registry
except ImportError:  # the client alone: only strategies of your own
    registry = None

Strategy = Callable[[str, dict, list, random.Random], dict | None]


def levels(game: str) -> dict[str, Callable]:
    """The project's computer players of ``game`` (name -> ``choose(view, legal, rng)``), weakest first."""
    if registry is None:
        raise RuntimeError(
            "the project's computer players need the game SDK and the games: pip install ./sdk ./games"
        )
    if not registry.all_games():
        registry.discover("games")
    found = registry.bot_levels(game)
    if not found:
        raise ValueError(f"no installed game {game!r} has computer players")
    return found


def project_bot(level: str) -> Strategy:
    """The project's computer player of ``level`` (easy, medium, hard) for whichever game it is asked about."""

    def choose(game: str, view: dict, legal: list, rng: random.Random) -> dict | None:
        players = levels(game)
        if level not in players:
            raise ValueError(f"{game} has no computer player {level!r} (it has {', '.join(players)})")
        return players[level](view, legal, rng)

    return choose
