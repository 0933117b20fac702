"""The game's Django app: registers it when the site starts (see turnengine.game_app)."""

from turnengine import game_app


class SpicyConfig(game_app.GameAppConfig):
    name = "games.spicy"
