"""Reference client of Tapete's Bot API (docs/bot-api.md).

``Client`` talks to the HTTP API; ``play_table`` plays one table over its websocket, reconnecting and resyncing;
``run`` is the whole bot: it follows the account's event stream, joins tables open to it (or opens some), and plays
every started table at once with a ``Strategy``: one of the project's computer players or your own function::

    import asyncio
    from tapete_client import Client, run

    def first_legal(game, view, legal, rng):
        return legal[0]

    asyncio.run(run(Client("http://127.0.0.1:8000", "tpt_..."), games=["perudo"], strategy=first_legal))
"""

from tapete_client.api import ApiError, Client
from tapete_client.play import play_table
from tapete_client.runner import run
from tapete_client.strategies import Strategy, project_bot

__all__ = ["ApiError", "Client", "Strategy", "play_table", "project_bot", "run"]
