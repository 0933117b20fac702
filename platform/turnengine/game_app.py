"""The installed games, registered when Django starts: every installed app whose package has a module ``rules``
(holding ``RULES``) is a game. A game needs no ``apps.py``: adding its package to ``INSTALLED_APPS`` installs it.

Its computer players are ``LEVELS`` in its module ``bots``, its post-game analysis ``analyse`` in its module
``analysis`` (``tapete_sdk.plugin.PostGameAnalysis``) and that analysis in words in its module ``analysis_words``
(``botapi.analysis.words``), each optional: a game without such a module has none. A game whose modules have other
names may say so in an ``apps.py`` whose app config subclasses :class:`GameAppConfig` (the test-only fourth game
keeps its computer player in ``players``). Its templates and static files sit in folders named after its key
(``RULES.key``), as ``docs/games.md`` says ("A game is one folder").
"""

from __future__ import annotations

import importlib.util
from dataclasses import dataclass

from django.apps import AppConfig, apps
from tapete_sdk import registry


class GameAppConfig(AppConfig):
    """Optional: the app config of a game whose modules are not named as above (``None``: it has none)."""

    rules = "rules"
    bots: str | None = "bots"
    analysis: str | None = "analysis"
    analysis_words: str | None = "analysis_words"


@dataclass
class InstalledGame:
    """An installed game's app: its package (``name``), its folder, its key and its module of analysis words."""

    name: str
    path: str
    key: str
    analysis_words: str | None


_installed: dict[str, InstalledGame] = {}


def register_installed_games() -> None:
    """Register every installed app that is a game (``TurnEngineConfig.ready``)."""
    for config in apps.get_app_configs():
        modules = config if isinstance(config, GameAppConfig) else GameAppConfig
        if importlib.util.find_spec(f"{config.name}.{modules.rules}") is None:
            continue
        game = registry.load(config.name, rules=modules.rules, bots=modules.bots, analysis=modules.analysis)
        config.verbose_name = game.name
        _installed[game.key] = InstalledGame(config.name, config.path, game.key, modules.analysis_words)


def installed_games() -> list[InstalledGame]:
    return list(_installed.values())


def config_of(key: str) -> InstalledGame:
    """The installed game ``key``; LookupError if there is none."""
    try:
        return _installed[key]
    except KeyError:
        raise LookupError(f"no installed game {key!r}") from None
