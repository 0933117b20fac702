"""The app config every game's ``apps.py`` subclasses: it registers the game when Django starts.

A game's ``apps.py`` is an import and a two-line class (import this module, not the class: Django takes an
``apps.py`` that holds two app-config classes for an ambiguous one)::

    from turnengine import game_app

    class PerudoConfig(game_app.GameAppConfig):
        name = "games.perudo"

The game's rules are ``RULES`` in its module ``rules``, its computer players ``LEVELS`` in its module ``bots``
(none if there is no such module); a subclass may name other modules, or set ``bots = None``. Its templates
and static files sit in folders named after its key (``RULES.key``), as ``README.md`` says ("A game is one
folder").
"""

from django.apps import AppConfig
from tapete_sdk import registry


class GameAppConfig(AppConfig):
    rules = "rules"
    bots: str | None = "bots"

    def ready(self) -> None:
        game = registry.load(self.name, rules=self.rules, bots=self.bots)
        self.verbose_name = game.name
