"""The whole bot: follow the account's event stream and keep up to ``concurrent`` tables going.

It joins tables offered to it (``challenge`` events, for bot accounts) in the chosen games, opens a table of its
own for each chosen game when it has room and none is waiting (its own tables are open to bot accounts and to
people), starts its tables once full, and plays every started table at once (``game_start``, sent again after a
reconnection, so tables survive a lost stream). It stops after ``max_games`` finished games, or never.
"""

from __future__ import annotations

import asyncio
import json
import logging

import websockets

from tapete_client.api import ApiError, Client
from tapete_client.play import FATAL_CLOSES, TableClosed, play_table
from tapete_client.strategies import Strategy

log = logging.getLogger("tapete_client")


class Bot:
    def __init__(
        self,
        client: Client,
        *,
        games: list[str],
        strategy: Strategy,
        concurrent: int = 3,
        open_tables: bool = True,
        num_players: int = 2,
        options: dict | None = None,
        time_control: str = "normal",
        ranked: bool = False,
        max_games: int | None = None,
    ) -> None:
        self.client = client
        self.games = games
        self.strategy = strategy
        self.concurrent = concurrent
        self.open_tables = open_tables
        self.table_fields = {
            "num_players": num_players,
            "options": options or {},
            "time_control": time_control,
            "ranked": ranked,
        }
        self.max_games = max_games
        self.tables: dict[int, str] = {}  # match id -> game, every table we sit at that is not over
        self.playing: dict[int, asyncio.Task] = {}
        self.results: dict[int, dict | None] = {}
        self.done = asyncio.Event()

    async def run(self) -> dict[int, dict | None]:
        delay = 0.5
        while not self.done.is_set():
            url = self.client.websocket_url("/ws/events/")
            try:
                async with websockets.connect(url, additional_headers=self.client.headers) as stream:
                    delay = 0.5
                    await self._follow(stream)
            except websockets.ConnectionClosed as closed:
                code = closed.rcvd.code if closed.rcvd else None
                if code in FATAL_CLOSES:
                    raise TableClosed(code) from None
                log.warning("event stream lost (%s), reconnecting", code)
            except OSError as error:
                log.warning("cannot reach the event stream (%s), retrying", error)
            if not self.done.is_set():
                await asyncio.sleep(delay)
                delay = min(delay * 2, 10)
        await asyncio.gather(*self.playing.values(), return_exceptions=True)
        return self.results

    async def _follow(self, stream) -> None:
        done = asyncio.create_task(self.done.wait())
        try:
            while not self.done.is_set():
                receiving = asyncio.create_task(stream.recv())
                finished, _ = await asyncio.wait({receiving, done}, return_when=asyncio.FIRST_COMPLETED)
                if receiving not in finished:
                    receiving.cancel()
                    return
                frame = json.loads(receiving.result())
                if frame.get("t") == "hello":
                    await self._open_tables()
                elif frame.get("t") == "event":
                    await self._on_event(frame["d"])
        finally:
            done.cancel()

    def _room(self) -> bool:
        return len(self.tables) < self.concurrent and not self._enough()

    def _enough(self) -> bool:
        return self.max_games is not None and len(self.results) + len(self.tables) >= self.max_games

    async def _on_event(self, event: dict) -> None:
        kind, match_id = event["type"], event.get("match_id")
        if kind == "challenge" and event["game"] in self.games and self._room():
            try:
                await self.client.join(match_id)
                self.tables[match_id] = event["game"]
            except ApiError as error:
                log.info("could not join table %s: %s", match_id, error.code)
        elif kind == "table_waiting":
            self.tables.setdefault(match_id, event["game"])
            if event["seat"] == 0 and event["seated"] == event["num_players"]:
                try:
                    await self.client.start(match_id)
                except ApiError as error:
                    log.info("could not start table %s: %s", match_id, error.code)
        elif kind == "game_start" and match_id not in self.playing:
            self.tables.setdefault(match_id, event["game"])
            self.playing[match_id] = asyncio.create_task(self._play(match_id))
        elif kind == "game_end":
            self._finished(match_id, event.get("result"))

    async def _play(self, match_id: int) -> None:
        try:
            result = await play_table(self.client, match_id, self.strategy)
        except TableClosed as closed:
            log.error("table %s: %s", match_id, closed)
            result = None
        self._finished(match_id, result)

    def _finished(self, match_id: int, result) -> None:
        if match_id in self.tables:
            del self.tables[match_id]
            self.results[match_id] = result
            log.info("table %s over: %s", match_id, result)
        if self.max_games is not None and len(self.results) >= self.max_games:
            self.done.set()
        else:
            asyncio.get_running_loop().create_task(self._open_tables())

    async def _open_tables(self) -> None:
        """One waiting table of our own per chosen game, while there is room."""
        if not self.open_tables:
            return
        waiting = {game for match_id, game in self.tables.items() if match_id not in self.playing}
        for game in self.games:
            if game in waiting or not self._room():
                continue
            try:
                table = await self.client.create(game=game, allow_bots=True, **self.table_fields)
            except ApiError as error:
                log.error("could not open a %s table: %s", game, error.code)
                continue
            self.tables[table["id"]] = game
            log.info("opened table %s (%s): waiting for players", table["id"], game)


async def run(client: Client, **settings) -> dict[int, dict | None]:
    """Run a :class:`Bot` (keyword arguments as its own); returns the results of the games it finished."""
    return await Bot(client, **settings).run()
