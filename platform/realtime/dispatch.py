"""Channels' message dispatch for the site's websocket consumers, without its database-thread hop per message.

Since Channels 4.2, ``AsyncConsumer.dispatch`` runs ``close_old_connections`` through ``sync_to_async`` before every
handler. That call runs on the process's single database thread, so every frame relayed to a socket (two per move
at a 2-seat table, per process) queued there behind the moves being committed: under load on PostgreSQL most of a
move's round trip was spent waiting for that thread (``bench/ws_load.py``). The site's consumers reach the
database only through ``database_sync_to_async``, which closes stale connections before and after each call
itself, so the hop adds nothing for them and is left out here. Measured against the stock method at 250 games
(``bench/RESULTS.md``, 2026-12-03): with the hop, every move's round trip was 8-13 ms slower at p50.
"""

from channels.consumer import get_handler_name


class DispatchWithoutDatabaseHop:
    """Mix in before a Channels consumer class."""

    async def dispatch(self, message: dict) -> None:
        handler = getattr(self, get_handler_name(message), None)
        if handler is None:
            raise ValueError(f"No handler for message type {message['type']}")
        await handler(message)
