"""``python -m tapete_client --token … --game perudo --level hard``: play until stopped (Ctrl-C)."""

from __future__ import annotations

import argparse
import asyncio
import json
import logging
import os

from tapete_client.api import Client
from tapete_client.runner import run
from tapete_client.strategies import project_bot


def parse(argv=None) -> argparse.Namespace:
    parser = argparse.ArgumentParser(prog="tapete_client", description=__doc__)
    parser.add_argument("--url", default=os.environ.get("TAPETE_URL", "http://127.0.0.1:8000"))
    parser.add_argument("--token", default=os.environ.get("TAPETE_TOKEN"), help="a token with play and read")
    parser.add_argument(
        "--game", action="append", help="a game's key, as GET /api/games lists them; repeat for several"
    )
    parser.add_argument("--level", default="medium", help="the project's computer player: easy, medium, hard")
    parser.add_argument("--concurrent", type=int, default=3, help="tables played at once")
    parser.add_argument("--players", type=int, default=2, help="seats of the tables it opens")
    parser.add_argument(
        "--options", type=json.loads, default={}, help="options of the tables it opens (JSON)"
    )
    parser.add_argument("--time-control", default="normal")
    parser.add_argument("--ranked", action="store_true", help="open ranked tables")
    parser.add_argument("--no-open", action="store_true", help="only join tables others open")
    parser.add_argument("--max-games", type=int, default=None, help="stop after this many games")
    arguments = parser.parse_args(argv)
    if not arguments.token:
        parser.error("--token (or TAPETE_TOKEN) is required")
    arguments.game = arguments.game or ["perudo"]
    return arguments


async def amain(arguments) -> dict:
    client = Client(arguments.url, arguments.token)
    try:
        account = await client.account()
        logging.getLogger("tapete_client").info("playing as %s", account["username"])
        return await run(
            client,
            games=arguments.game,
            strategy=project_bot(arguments.level),
            concurrent=arguments.concurrent,
            open_tables=not arguments.no_open,
            num_players=arguments.players,
            options=arguments.options,
            time_control=arguments.time_control,
            ranked=arguments.ranked,
            max_games=arguments.max_games,
        )
    finally:
        await client.close()


def main(argv=None) -> None:
    logging.basicConfig(level=logging.INFO, format="%(asctime)s %(message)s")
    arguments = parse(argv)
    try:
        results = asyncio.run(amain(arguments))
    except KeyboardInterrupt:
        return
    print(json.dumps({str(match_id): result for match_id, result in results.items()}))


if __name__ == "__main__":
    main()
