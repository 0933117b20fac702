"""Play one table over its websocket (docs/protocol.md) until the match ends, reconnecting and resyncing.

On every view that lists legal actions for our seat, the strategy decides (or passes, with None). The first frame
after each connection is a snapshot, so a reconnection resyncs by itself; a gap in the versions, or a ``heartbeat``
carrying a version this client never received, asks for a fresh snapshot (``sync``); a ``stale`` refusal means
the table moved on: the newer view decides again. A ``too_early`` refusal (Spicy's challenge grace period holds
the move back) sends the same move again a moment later, without asking for a snapshot: nothing changed, and
snapshots are rate-limited. A ``sync_limited`` refusal means no snapshot is coming: the client asks again once the
limit allows, instead of waiting for a view that never comes (the seat's clock would run out). Closes that no retry
can mend (4401 bad token, 4403 suspended or missing scope, 4404 no such table) are raised.
"""

from __future__ import annotations

import asyncio
import json
import logging
import random

import websockets

from tapete_client.api import Client
from tapete_client.strategies import Strategy

FATAL_CLOSES = {4401, 4403, 4404}
SYNC = json.dumps({"t": "sync", "v": None, "d": {}})
TOO_EARLY_RETRY_SECONDS = 0.5  # a held-back move is sent again this often until the grace period is over
SYNC_RETRY_SECONDS = 1.0  # a socket may ask for a snapshot once a second after its burst (docs/protocol.md)
log = logging.getLogger("tapete_client")


class TableClosed(Exception):
    def __init__(self, code: int | None) -> None:
        super().__init__(f"the table websocket was closed with code {code}")
        self.code = code


async def play_table(
    client: Client, match_id: int, strategy: Strategy, *, rng: random.Random | None = None, retries: int = 20
) -> dict | None:
    """Play ``match_id`` to its end; returns its result (``{"ranking", "reason", ...}``), None if aborted."""
    rng = rng or random.Random()
    url = client.websocket_url(f"/ws/match/{match_id}/")
    delay = 0.5
    for _attempt in range(retries):
        try:
            async with websockets.connect(url, additional_headers=client.headers, max_size=2**22) as socket:
                delay = 0.5
                return await _play(socket, match_id, strategy, rng)
        except websockets.ConnectionClosed as closed:
            code = closed.rcvd.code if closed.rcvd else None
            if code in FATAL_CLOSES:
                raise TableClosed(code) from None
            log.warning("table %s: connection lost (%s), reconnecting", match_id, code)
        except OSError as error:
            log.warning("table %s: cannot connect (%s), retrying", match_id, error)
        await asyncio.sleep(delay)
        delay = min(delay * 2, 10)
    raise TableClosed(None)


async def _play(socket, match_id: int, strategy: Strategy, rng: random.Random) -> dict | None:
    game = None
    version = None
    errors_in_a_row = 0
    sent = None  # the last move sent, to send again when it was too early
    async for raw in socket:
        frame = json.loads(raw)
        kind, data = frame.get("t"), frame.get("d") or {}
        if kind == "view":
            if data.get("snapshot"):
                game = data["game"]
            elif version is not None and frame["v"] > version + 1:
                await socket.send(SYNC)  # frames were missed: ask for the whole picture
                continue
            if version is not None and frame["v"] < version:
                continue
            if frame["v"] != version:
                errors_in_a_row = 0  # the table moved on
            version = frame["v"]
            if data.get("status") in {"finished", "aborted"}:
                return data.get("result")
            if data.get("legal") and game is not None:
                action = strategy(game, data["view"], data["legal"], rng)
                if errors_in_a_row >= 3:  # the strategy keeps choosing what the server refuses
                    action = data["legal"][0]
                if action is not None:
                    sent = json.dumps({"t": "act", "v": version, "d": action})
                    await socket.send(sent)
        elif kind == "heartbeat":
            if version is None or frame["v"] > version:
                await socket.send(SYNC)  # the table is at a version this client never received
        elif kind == "error":
            code = data.get("code")
            if code == "stale":
                continue  # the view of the newer version is on its way
            if code == "too_early" and sent is not None:  # a challenge window holds the move back
                await asyncio.sleep(TOO_EARLY_RETRY_SECONDS)
                await socket.send(sent)  # if the table moved on meanwhile: "stale", and its view follows
                continue
            if code == "sync_limited":  # no snapshot is coming: ask again once the limit allows
                await asyncio.sleep(SYNC_RETRY_SECONDS)
            else:
                errors_in_a_row += 1
                log.warning("table %s: %s refused: %s", match_id, game, data)
            await socket.send(SYNC)
    return None
