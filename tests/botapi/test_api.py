"""The Bot API over HTTP: a whole table's life through it, every documented error code, its OpenAPI docs, and that
nothing of a running match leaves it beyond the caller's own view."""

from __future__ import annotations

import re
from pathlib import Path

import pytest
from django.test import Client

from botapi.accounts import bot_account_convert
from botapi.errors import API_ERRORS
from lobby import services as lobby
from ratings.models import Rating
from tests.conftest import GAME_KEYS
from turnengine import services
from turnengine.models import Match

pytestmark = pytest.mark.django_db(transaction=True)  # the move answers with what its writer committed
DOCS = Path(__file__).resolve().parents[2] / "docs" / "bot-api.md"


def _code(answer, status: int) -> str:
    assert answer.status_code == status, answer.content
    body = answer.json()
    assert set(body) >= {"code", "message"} and body["message"]
    return body["code"]


def test_a_table_from_opening_to_moves(make_user, api_for):
    alice, bob = make_user(), make_user()
    a, b = api_for(alice), api_for(bob)
    games = {game["key"]: game for game in a.get("/games").json()}
    assert set(games) == set(GAME_KEYS) and games["perudo"]["bot_levels"]
    table = a.post("/tables", {"game": "perudo", "num_players": 2, "options": {"startingDice": 2}}).json()
    assert table["status"] == "open" and table["your_seat"] == 0 and table["options"]["startingDice"] == 2
    assert [t["id"] for t in b.get("/tables", game="perudo").json()] == [table["id"]]
    assert b.post(f"/tables/{table['id']}/join", {"seat": 1}).json()["your_seat"] == 1
    started = a.post(f"/tables/{table['id']}/start").json()
    assert started["status"] == "active" and started["version"] == 1
    assert [t["id"] for t in b.get("/tables", status="active", mine=True).json()] == [table["id"]]
    for _ in range(50):
        state = a.get(f"/tables/{table['id']}/state").json()
        if state["d"]["status"] != "active":
            break
        mover, client = (0, a) if state["d"]["legal"] else (1, b)
        mine = client.get(f"/tables/{table['id']}/state").json()
        assert mine["d"]["seat"] == mover and mine["d"]["legal"]
        after = client.post(
            f"/tables/{table['id']}/move", {"version": mine["v"], "action": mine["d"]["legal"][0]}
        )
        assert (
            after.status_code == 200 and after.json()["v"] > mine["v"] and after.json()["d"]["seat"] == mover
        )
    assert Match.objects.get(pk=table["id"]).version > 1


def test_state_of_a_running_match_is_only_the_callers_view(make_user, api_for):
    alice, bob, carol = make_user(), make_user(), make_user()
    match = lobby.table_create(user=alice, game="spicy", num_players=2, options={}, ranked=False)
    lobby.table_join(user=bob, match_id=match.pk)
    lobby.table_start(user=alice, match_id=match.pk)
    match.refresh_from_db()
    rules = match.rules
    seen = {user: api_for(user).get(f"/tables/{match.pk}/state").json()["d"] for user in (alice, bob, carol)}
    assert seen[alice]["view"] == rules.view(match.state, 0) and seen[alice]["seed"] is None
    assert seen[bob]["view"] == rules.view(match.state, 1)
    assert seen[carol]["view"] == rules.view(match.state, None) and seen[carol]["legal"] == []
    assert rules.view(match.state, 0) != rules.view(match.state, 1)  # the hands differ: each saw only its own
    table = api_for(carol).get(f"/tables/{match.pk}").json()
    assert "state" not in table and "view" not in table and table["result"] is None
    assert _code(api_for(alice).get(f"/tables/{match.pk}/analysis"), 409) == "match_not_finished"


def _open(user, **extra):
    return lobby.table_create(user=user, game="perudo", num_players=2, options={}, ranked=False, **extra)


def test_every_lobby_and_engine_error_has_its_code(make_user, api_for):
    alice, bob, carol = make_user(), make_user(), make_user()
    a, b, c = api_for(alice), api_for(bob), api_for(carol)
    create = {"game": "perudo", "num_players": 2}
    assert _code(a.post("/tables", {**create, "game": "chess"}), 404) == "unknown_game"
    assert _code(a.post("/tables", {**create, "options": {"startingDice": 99}}), 400) == "invalid_options"
    assert _code(a.post("/tables", {**create, "time_control": "forever"}), 400) == "invalid_time_control"
    assert _code(a.post("/tables", {**create, "ranked": True, "time_control": "unlimited"}), 400) == (
        "ranked_needs_clock"
    )
    assert _code(a.post("/tables", {**create, "min_rating": 1000}), 400) == "range_needs_ranked"
    ranged = {**create, "ranked": True, "min_rating": 1600, "max_rating": 1400}
    assert _code(a.post("/tables", ranged), 400) == "invalid_range"
    assert _code(a.post("/tables", {"game": "perudo", "num_players": "many"}), 422) == "invalid_request"
    high = a.post("/tables", {**create, "ranked": True, "min_rating": 1700}).json()
    assert _code(b.post(f"/tables/{high['id']}/join"), 409) == "rating_out_of_range"
    table = _open(alice)
    path = f"/tables/{table.pk}"
    assert _code(a.post(f"{path}/join"), 409) == "already_seated"
    assert _code(b.post(f"{path}/join", {"seat": 0}), 409) == "seat_taken"
    assert _code(b.post(f"{path}/join", {"seat": 4}), 400) == "no_such_seat"
    assert _code(b.post(f"{path}/leave"), 409) == "not_seated"
    assert _code(a.post(f"{path}/leave"), 409) == "creator_cannot_leave"
    assert _code(a.post(f"{path}/start"), 409) == "not_enough_players"
    assert _code(a.post(f"{path}/bot", {"level": "genius"}), 400) == "unknown_bot_level"
    b.post(f"{path}/join")
    assert _code(c.post(f"{path}/join"), 409) == "table_full"
    assert _code(b.post(f"{path}/start"), 403) == "not_creator"
    a.post(f"{path}/start")
    assert _code(c.post(f"{path}/join"), 409) == "already_started"
    table.refresh_from_db()
    waiting = [seat for seat in table.rules.awaited(table.state)][0]
    mover, other = (a, b) if waiting == 0 else (b, a)
    assert _code(mover.post(f"{path}/move", {"version": 0, "action": {"type": "dudo"}}), 409) == "stale"
    refused = mover.post(f"{path}/move", {"version": table.version, "action": {"type": "fly"}})
    assert _code(refused, 409) == "illegal_action" and refused.json()["rule"]
    assert _code(c.post(f"{path}/move", {"version": table.version, "action": {"type": "dudo"}}), 409) == (
        "not_seated"
    )
    assert _code(a.get("/tables/123456"), 404) == "not_found"
    assert _code(a.get("/no/such/endpoint"), 404) == "not_found"
    finished = _open(carol)
    lobby.table_cancel(user=carol, match_id=finished.pk)
    lobby_table = _open(bob)
    assert _code(b.post(f"/tables/{lobby_table.pk}/move", {"version": 0, "action": {}}), 409) == "not_active"


def test_a_bot_account_through_the_api(make_user, api_for):
    human, bot = make_user(), make_user()
    b = api_for(bot)
    assert b.post("/account/bot").json() == {
        "username": bot.username,
        "bot": True,
        "scopes": ["play", "read"],
        "token_name": "test",
    }
    assert _code(b.post("/account/bot"), 409) == "already_bot"
    closed = _open(human)
    assert _code(b.post(f"/tables/{closed.pk}/join"), 403) == "bots_not_admitted"
    welcoming = _open(human, allow_bots=True)
    assert b.get("/tables").json()[-1]["allow_bots"] is True
    assert b.post(f"/tables/{welcoming.pk}/join").json()["seats"][1] == {
        "seat": 1,
        "username": bot.username,
        "bot": True,
    }
    veteran = make_user()
    _open(veteran)
    assert _code(api_for(veteran).post("/account/bot"), 409) == "account_has_games"
    staff = make_user()
    staff.is_staff = True
    staff.save()
    assert _code(api_for(staff).post("/account/bot"), 409) == "staff_cannot_be_bot"


def test_too_early_during_a_spicy_challenge_window(start_table, api_for):
    match, users = start_table("spicy", 2, {"challengeGraceMs": 3000})
    rules = match.rules
    (seat,) = rules.awaited(match.state)
    play = next(a for a in rules.legal_actions(match.state, seat) if a["type"] == "play")
    services.match_apply_action(
        match_id=match.pk, user=users[seat], expected_version=match.version, action=play
    )
    match.refresh_from_db()
    (following,) = rules.awaited(match.state)
    follow = next(a for a in rules.legal_actions(match.state, following) if a["type"] == "play")
    answer = api_for(users[following]).post(
        f"/tables/{match.pk}/move", {"version": match.version, "action": follow}
    )
    assert _code(answer, 409) == "too_early" and answer.json()["version"] == match.version


def test_a_wrong_method_is_a_coded_error_with_the_allowed_methods(make_user, api_for):
    answer = api_for(make_user()).post("/account", {})
    assert _code(answer, 405) == "method_not_allowed"
    assert "GET" in answer["Allow"]


def test_docs_list_exactly_the_api_error_codes():
    text = DOCS.read_text()
    section = text.split("## Errors", 1)[1].split("\n## ", 1)[0]
    documented = dict(re.findall(r"^\| `(\w+)` \| (\d{3}) \|", section, re.M))
    assert documented == {code: str(status) for code, (status, _message) in API_ERRORS.items()}


def test_openapi_schema_and_docs_page_are_served_without_external_assets():
    client = Client()
    schema = client.get("/api/openapi.json").json()
    assert {"/api/tables", "/api/tables/{match_id}/move", "/api/account"} <= set(schema["paths"])
    assert schema["components"]["securitySchemes"]["TokenAuth"]["scheme"] == "bearer"
    page = client.get("/api/docs/").content.decode()
    assert "swagger-ui-bundle.js" in page
    assert not re.search(r'(src|href)="https?://', page)
    assert client.get("/static/ninja/swagger-ui-bundle.js").status_code == 200


def test_bot_pool_ratings_come_from_api_play(make_user, api_for):
    human, bot = make_user(), make_user()
    bot_account_convert(user=bot)
    h, b = api_for(human), api_for(bot)
    table = h.post(
        "/tables",
        {
            "game": "perudo",
            "num_players": 2,
            "options": {"startingDice": 1},
            "ranked": True,
            "allow_bots": True,
        },
    ).json()
    b.post(f"/tables/{table['id']}/join")
    h.post(f"/tables/{table['id']}/start")
    for _ in range(20):
        states = {client: client.get(f"/tables/{table['id']}/state").json() for client in (h, b)}
        if states[h]["d"]["status"] != "active":
            break
        client = next(c for c, s in states.items() if s["d"]["legal"])
        legal = states[client]["d"]["legal"]
        action = next((x for x in legal if x["type"] == "dudo"), legal[0])
        client.post(f"/tables/{table['id']}/move", {"version": states[client]["v"], "action": action})
    assert h.get(f"/tables/{table['id']}").json()["status"] == "finished"
    assert set(Rating.objects.filter(game="perudo").values_list("pool", flat=True)) == {"bots"}
