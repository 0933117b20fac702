"""The game's Django app: registers it when the site starts (see turnengine.game_app)."""

from turnengine import game_app


class PerudoConfig(game_app.GameAppConfig):
    name = "games.perudo"
