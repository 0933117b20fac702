"""Registry of installed games: maps a game key to its pure ``RULES`` object, its computer players and its post-game
analysis.

A game is one package (``games/<key>/``, or any importable package): ``rules.py`` with its ``RULES``, if it has
computer players ``bots.py`` with their ``LEVELS``, and if it has a post-game analysis ``analysis.py`` with its
``analyse`` (see :mod:`tapete_sdk.plugin`). :func:`load` reads them; a Django site calls it for each installed app
that has a module ``rules`` (``turnengine.game_app``), code without Django (bots, benchmarks, tests) calls
:func:`discover` to load every game package found under ``games``.
"""

from __future__ import annotations

import importlib
import importlib.util
import pkgutil
from types import ModuleType

from tapete_sdk.plugin import GameRules, PostGameAnalysis

_games: dict[str, GameRules] = {}
_bot_levels: dict[str, dict] = {}
_analyses: dict[str, PostGameAnalysis] = {}
_packages: dict[str, str] = {}


def register(rules: GameRules, bot_levels: dict | None = None) -> GameRules:
    """Add a game and its bot levels (name -> ``choose(view, legal, rng)``, weakest first); registering the same
    object twice is harmless, a different one under a taken key is an error."""
    existing = _games.get(rules.key)
    if existing is not None and existing is not rules:
        raise ValueError(f"a different game is already registered as {rules.key!r}")
    if not isinstance(rules, GameRules):
        raise TypeError(f"{rules!r} does not implement the game-plugin contract")
    _games[rules.key] = rules
    if bot_levels is not None or rules.key not in _bot_levels:
        _bot_levels[rules.key] = dict(bot_levels or {})
    return rules


def load(
    package: str, *, rules: str = "rules", bots: str | None = "bots", analysis: str | None = "analysis"
) -> GameRules:
    """Register the game of ``package``: ``RULES`` from its module ``rules``, ``LEVELS`` from its module ``bots``
    and its post-game analysis from its module ``analysis``, each of these two if the module exists (``None``: the
    game has none)."""
    game = importlib.import_module(f"{package}.{rules}").RULES
    players = optional_module(package, bots)
    register(game, players.LEVELS if players is not None else {})
    analyses = optional_module(package, analysis)
    if analyses is not None:
        if not isinstance(analyses, PostGameAnalysis):
            raise TypeError(f"{analyses.__name__} has no analyse(): see tapete_sdk.plugin.PostGameAnalysis")
        _analyses[game.key] = analyses
    _packages[game.key] = package
    return game


def optional_module(package: str, name: str | None) -> ModuleType | None:
    """The module ``name`` of ``package``, None if it has no such module (or ``name`` is None). A module that
    exists but fails to import raises its own error."""
    if name is None:
        return None
    try:
        return importlib.import_module(f"{package}.{name}")
    except ModuleNotFoundError as error:
        if error.name != f"{package}.{name}":
            raise
        return None


def get(key: str) -> GameRules:
    """The rules of game ``key``; KeyError if no such game is installed."""
    return _games[key]


def bot_levels(key: str) -> dict:
    """The computer players of game ``key`` (name -> ``choose``), weakest first; empty if it has none."""
    return _bot_levels.get(key, {})


def analysis(key: str) -> PostGameAnalysis | None:
    """The post-game analysis of game ``key``, None if it has none."""
    return _analyses.get(key)


def package_of(key: str) -> str | None:
    """The package game ``key`` was loaded from (for a fresh process to load it again), None if registered
    directly."""
    return _packages.get(key)


def all_games() -> list[GameRules]:
    """Every registered game, by key."""
    return [_games[key] for key in sorted(_games)]


def discover(package: str = "games") -> list[GameRules]:
    """:func:`load` every sub-package of ``package`` that has a ``rules`` module."""
    root = importlib.import_module(package)
    for info in pkgutil.iter_modules(root.__path__):
        if info.ispkg and importlib.util.find_spec(f"{package}.{info.name}.rules") is not None:
            load(f"{package}.{info.name}")
    return all_games()
