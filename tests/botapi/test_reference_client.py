"""The reference client (clients/python) against a real daphne and Celery worker: one process of the client plays
a complete game of each title at once, as a bot account, against a human seat that this test drives over the
HTTP API; the worker then analyses each match. Runs on PostgreSQL + Redis when they are configured (CI), on the embedded default otherwise."""

from __future__ import annotations

import json
import os
import subprocess
import sys
import time
from pathlib import Path

import httpx
import pytest
from django.db import connection

from botapi.accounts import bot_account_convert
from botapi.tokens import token_create
from tests.conftest import SITE_GAME_KEYS
from tests.faults import TcpProxy
from tests.servers import ROOT, celery_worker, daphne_servers, wait_for_other_database_sessions
from turnengine.models import Match, MatchAction

pytestmark = pytest.mark.django_db(transaction=True)

# Options that make a title's game short; a title not named here plays its defaults.
QUICK_OPTIONS = {
    "perudo": {"startingDice": 2},
    "spicy": {"challengeGraceMs": 0, "worldsEndBelow": 80, "worldsEndJitter": 0},
    "chinesecheckers": {"maxTurns": 15},
}
# Every title the site ships (the client plays with the computer players of the checkout's games/ folder).
TABLES = {game: QUICK_OPTIONS.get(game, {}) for game in SITE_GAME_KEYS}


def _server_env() -> dict:
    """The servers use the test database, and the same broker and channel layer as each other."""
    db = connection.settings_dict
    env = {"TAPETE_API_RATE": "100000/m", "TAPETE_SWEEP_SECONDS": "1"}
    if connection.vendor == "sqlite":
        return {**env, "DATABASE_URL": f"sqlite:///{Path(db['NAME']).resolve()}"}
    return {
        **env,
        "DATABASE_URL": f"postgres://{db['USER']}@{db['HOST']}:{db['PORT']}/{db['NAME']}",
        "REDIS_URL": os.environ.get("REDIS_URL", ""),
    }


def _wait(condition, timeout: float, what: str):
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        value = condition()
        if value:
            return value
        time.sleep(0.1)
    raise AssertionError(f"timed out waiting for {what}")


def test_reference_client_plays_a_game_of_each_title_against_a_human(make_user):
    human, bot = make_user(), make_user()
    bot_account_convert(user=bot)
    bot_token = token_create(user=bot, name="client", scopes=["play", "read"])[1]
    human_token = token_create(user=human, name="test", scopes=["play", "read"])[1]
    env = _server_env()
    with celery_worker(env), daphne_servers(1, env) as (port,), TcpProxy("127.0.0.1", port) as proxy:
        url = f"http://127.0.0.1:{port}"  # the client's network goes through the proxy: dropped once mid-game
        dropped = False
        client = subprocess.Popen(
            [
                sys.executable,
                "-m",
                "tapete_client",
                "--url",
                f"http://127.0.0.1:{proxy.port}",
                "--token",
                bot_token,
                "--level",
                "easy",
                "--no-open",
                "--max-games",
                str(len(TABLES)),
                "--concurrent",
                str(len(TABLES)),
                *[arg for game in TABLES for arg in ("--game", game)],
            ],
            cwd=ROOT,
            env={**os.environ, **env, "PYTHONPATH": str(ROOT / "clients" / "python")},
            stdout=subprocess.PIPE,
            stderr=subprocess.PIPE,
        )
        try:
            with httpx.Client(
                base_url=f"{url}/api", headers={"Authorization": f"Bearer {human_token}"}
            ) as api:
                tables = [
                    api.post(
                        "/tables",
                        json={"game": game, "num_players": 2, "options": options, "allow_bots": True},
                    ).json()["id"]
                    for game, options in TABLES.items()
                ]
                for match_id in tables:  # the client joins each table offered to it
                    _wait(lambda m=match_id: len(api.get(f"/tables/{m}").json()["seats"]) == 2, 30, "the bot")
                    assert api.post(f"/tables/{match_id}/start").status_code == 200
                running = set(tables)
                deadline = time.monotonic() + 240
                moves = 0
                while running and time.monotonic() < deadline:
                    if moves >= 6 and not dropped:
                        proxy.drop()  # the client must reconnect and resync
                        dropped = True
                    for match_id in sorted(running):
                        state = api.get(f"/tables/{match_id}/state").json()
                        if state["d"]["status"] != "active":
                            running.discard(match_id)
                        elif state["d"]["legal"]:
                            api.post(
                                f"/tables/{match_id}/move",
                                json={"version": state["v"], "action": state["d"]["legal"][0]},
                            )
                            moves += 1
                    time.sleep(0.02)
                assert not running, "some games did not end"
                # The Celery worker analyses each match once it ends; the API then serves it.
                for match_id in tables:
                    analysis = _wait(
                        lambda m=match_id: (
                            (answer := api.get(f"/tables/{m}/analysis")).status_code == 200 and answer.json()
                        ),
                        60,
                        "the analysis",
                    )
                    assert analysis["summary"] and analysis["notes"]
            out, err = client.communicate(timeout=60)
        finally:
            if client.poll() is None:
                client.kill()
                client.wait()
        assert client.returncode == 0, err.decode()[-3000:]
        assert dropped and "reconnecting" in err.decode()
        results = json.loads(out.decode().strip().splitlines()[-1])
        assert sorted(int(match_id) for match_id in results) == sorted(tables)
    for match_id in tables:
        match = Match.objects.get(pk=match_id)
        assert match.status == Match.Status.FINISHED and results[str(match_id)] == match.result
        assert sorted(seat for group in match.result["ranking"] for seat in group) == [0, 1]
        assert MatchAction.objects.filter(match=match, seat=1).exists()  # the client played its seat
    wait_for_other_database_sessions(connection)


def test_the_reference_client_plays_through_spicys_challenge_grace_without_stalling(make_user):
    """Spicy holds the next player's move back for the challenge grace period (``too_early``). The client sends
    the same move again a moment later; it used to ask for a snapshot each time instead, and once snapshots were
    rate-limited (``sync_limited``) it waited for a view that never came, until its seat's clock ran out (issue 35).
    The server here allows a single snapshot per socket, so that a client that spends them stalls at once."""
    human, bot = make_user(), make_user()
    bot_account_convert(user=bot)
    bot_token = token_create(user=bot, name="client", scopes=["play", "read"])[1]
    human_token = token_create(user=human, name="test", scopes=["play", "read"])[1]
    env = {**_server_env(), "TAPETE_WS_SYNC_BURST": "1", "TAPETE_WS_SYNC_PER_SECOND": "0.01"}
    with celery_worker(env), daphne_servers(1, env) as (port,):
        url = f"http://127.0.0.1:{port}"
        client = subprocess.Popen(
            [sys.executable, "-m", "tapete_client", "--url", url, "--token", bot_token, "--level", "easy"]
            + ["--no-open", "--max-games", "1", "--game", "spicy"],
            cwd=ROOT,
            env={**os.environ, **env, "PYTHONPATH": str(ROOT / "clients" / "python")},
            stdout=subprocess.PIPE,
            stderr=subprocess.PIPE,
        )
        try:
            with httpx.Client(
                base_url=f"{url}/api", headers={"Authorization": f"Bearer {human_token}"}
            ) as api:
                options = {**QUICK_OPTIONS["spicy"], "challengeGraceMs": 2000}  # wide enough to be met under load
                match_id = api.post(
                    "/tables",
                    json={
                        "game": "spicy",
                        "num_players": 2,
                        "options": options,
                        "time_control": "blitz",
                        "allow_bots": True,
                    },
                ).json()["id"]
                _wait(lambda: len(api.get(f"/tables/{match_id}").json()["seats"]) == 2, 30, "the bot")
                assert api.post(f"/tables/{match_id}/start").status_code == 200
                bot_seat = Match.objects.get(pk=match_id).seats.get(user=bot).index
                own_moves = MatchAction.objects.filter(match_id=match_id, seat=bot_seat).exclude(
                    action__type="timeout"
                )
                held_back = 0
                deadline = time.monotonic() + 90  # below the bot's 2 minutes: a stalled seat never gets there
                # Until the grace has held a move back too: the bot may challenge or pass instead of playing a
                # card, and only a card played holds the next move back.
                while (own_moves.count() < 4 or not held_back) and time.monotonic() < deadline:
                    state = api.get(f"/tables/{match_id}/state").json()
                    assert state["d"]["status"] == "active"
                    if state["d"]["legal"]:
                        answer = api.post(
                            f"/tables/{match_id}/move",
                            json={"version": state["v"], "action": state["d"]["legal"][0]},
                        )
                        held_back += answer.status_code == 409 and answer.json()["code"] == "too_early"
                    time.sleep(0.05)
                assert own_moves.count() >= 4, "the client's seat stalled"
                assert held_back, "the grace period held moves back"
                assert not MatchAction.objects.filter(match_id=match_id, seat=bot_seat, action__type="timeout")
        finally:
            client.kill()
            client.wait()
    wait_for_other_database_sessions(connection)
