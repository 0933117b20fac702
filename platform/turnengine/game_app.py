"""The app config every game's ``apps.py`` subclasses: it registers the game when Django starts.

A game's ``apps.py`` is an import and a two-line class (import this module, not the class: Django takes an
``apps.py`` that holds two app-config classes for an ambiguous one)::

    from turnengine import game_app

    class PerudoConfig(game_app.GameAppConfig):
        name = "games.perudo"

The game's rules are ``RULES`` in its module ``rules``, its computer players ``LEVELS`` in its module ``bots``, its
post-game analysis ``analyse`` in its module ``analysis`` (``tapete_sdk.plugin.PostGameAnalysis``) and that
analysis in words in its module ``analysis_words`` (``botapi.analysis.words``), each but the rules optional: a
game without such a module has none. A subclass may name other modules, or set one to ``None``. Its templates and
static files sit in folders named after its key (``RULES.key``), as ``docs/games.md`` says ("A game is one folder").
"""

from django.apps import AppConfig, apps
from tapete_sdk import registry


class GameAppConfig(AppConfig):
    rules = "rules"
    bots: str | None = "bots"
    analysis: str | None = "analysis"
    analysis_words: str | None = "analysis_words"
    key = ""  # the game's key (RULES.key), once the site has started

    def ready(self) -> None:
        game = registry.load(self.name, rules=self.rules, bots=self.bots, analysis=self.analysis)
        self.verbose_name = game.name
        self.key = game.key


def config_of(key: str) -> GameAppConfig:
    """The app config of the installed game ``key``; LookupError if there is none."""
    for config in apps.get_app_configs():
        if isinstance(config, GameAppConfig) and config.key == key:
            return config
    raise LookupError(f"no installed game {key!r}")
