"""The test-only game's Django app: registers it when the test site starts (see turnengine.game_app)."""

from turnengine import game_app


class TicTacToeConfig(game_app.GameAppConfig):
    name = "tests.tictactoe"
    bots = "players"  # declared: its computer player lives in players.py, not in the default bots.py
