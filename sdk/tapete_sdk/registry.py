"""Registry of installed games: maps a game key to its pure ``RULES`` object.

Django apps register their game in ``AppConfig.ready``; code without Django (bots, benchmarks, tests) calls
:func:`discover` to import every ``games.<key>.rules`` module found on the path.
"""

from __future__ import annotations

import importlib
import pkgutil

from tapete_sdk.plugin import GameRules

_games: dict[str, GameRules] = {}


def register(rules: GameRules) -> GameRules:
    """Add a game; registering the same object twice is harmless, a different one under a taken key is an error."""
    existing = _games.get(rules.key)
    if existing is not None and existing is not rules:
        raise ValueError(f"a different game is already registered as {rules.key!r}")
    if not isinstance(rules, GameRules):
        raise TypeError(f"{rules!r} does not implement the game-plugin contract")
    _games[rules.key] = rules
    return rules


def get(key: str) -> GameRules:
    """The rules of game ``key``; KeyError if no such game is installed."""
    return _games[key]


def all_games() -> list[GameRules]:
    """Every registered game, by key."""
    return [_games[key] for key in sorted(_games)]


def discover(package: str = "games") -> list[GameRules]:
    """Import ``<package>.<name>.rules`` for every sub-package that has one and register its ``RULES``."""
    root = importlib.import_module(package)
    for info in pkgutil.iter_modules(root.__path__):
        if not info.ispkg:
            continue
        try:
            module = importlib.import_module(f"{package}.{info.name}.rules")
        except ModuleNotFoundError as error:
            if error.name != f"{package}.{info.name}.rules":
                raise
            continue
        register(module.RULES)
    return all_games()
