"""A game is one folder: the test-only fourth game (``tests/tictactoe``, installed by ``tests/settings.py``) opens,
fills and starts through the lobby's pages, plays to the end over the match socket, is rated, and has its computer
player, its how-to page, its post-game analysis (on the replay page and in the API) and its translations, with no
platform file naming it. Its browser test is ``tests/e2e/test_fourth_game_e2e.py``; the conformance suite runs it
with every game."""

from __future__ import annotations

from pathlib import Path

import pytest
from channels.db import database_sync_to_async
from django.template import TemplateDoesNotExist
from django.template.loader import get_template
from django.test import Client
from django.urls import reverse
from tapete_sdk import registry
from tapete_sdk.plugin import player_counts_of, presets_of, rating_pools_of

from botapi.analysis.store import analysis_compute
from botapi.tokens import token_create
from ratings.models import Rating
from tests.conftest import GAME_KEYS
from tests.turnengine.wsclient import connect, receive_until
from turnengine import bot_moves, bot_seats, services
from turnengine.models import Match, Seat

ROOT = Path(__file__).resolve().parent.parent.parent
KEY = "tictactoe"
PLATFORM_FOLDERS = ("platform", "templates", "static", "games", "locale", "deploy")


def test_no_platform_file_names_the_fourth_game():
    rules = registry.get(KEY)
    names = {KEY, rules.name.lower(), "tests.tictactoe", "tests/tictactoe"}
    naming = []
    for folder in PLATFORM_FOLDERS:
        for path in (ROOT / folder).rglob("*"):
            if path.is_file() and path.suffix not in {".mo", ".pyc", ".png", ".ico"}:
                text = path.read_text(errors="ignore").lower()
                naming += [f"{path.relative_to(ROOT)}: {name}" for name in names if name in text]
    assert naming == []


def test_it_declares_nothing_but_the_contract_and_gets_the_defaults():
    rules = registry.get(KEY)
    assert player_counts_of(rules) == (2,) and presets_of(rules) == ()
    assert [pool.key for pool in rating_pools_of(rules)] == ["standard"]
    assert list(bot_seats.levels(KEY)) == ["easy"]  # declared by its app config (players.py, not bot_seats.py)


def _open_fill_and_start(creator, guest) -> Match:
    """Through the lobby's real views: the creation form, the join button, the start button."""
    client = Client()
    client.force_login(creator)
    page = client.get(reverse("lobby:game", args=[KEY]))
    assert page.status_code == 200
    form = page.context["form"]
    assert [choice for choice, _label in form.fields["num_players"].choices] == [2]
    response = client.post(
        reverse("lobby:create", args=[KEY]), {"num_players": "2", "time_control": "normal", "ranked": "on"}
    )
    match = Match.objects.get(game=KEY)
    assert response.status_code == 302 and response.url == reverse("lobby:table", args=[match.pk])
    assert match.ranked
    client.force_login(guest)
    client.post(reverse("lobby:join", args=[match.pk]))
    client.force_login(creator)
    client.post(reverse("lobby:start", args=[match.pk]))
    match.refresh_from_db()
    assert match.status == Match.Status.ACTIVE
    table = client.get(reverse("lobby:table", args=[match.pk])).content.decode()
    assert "/static/tictactoe/board.js" in table and "/static/tictactoe/board.css" in table
    return match


@pytest.mark.django_db(transaction=True)
async def test_it_plays_through_the_lobby_the_match_socket_and_the_ratings(make_user):
    creator, guest = await database_sync_to_async(make_user)(), await database_sync_to_async(make_user)()
    match = await database_sync_to_async(_open_fill_and_start)(creator, guest)
    sockets = [(await connect(f"/ws/match/{match.pk}/", user))[0] for user in (creator, guest)]
    latest = [await receive_until(socket, "view") for socket in sockets]
    # X (the creator) takes the top row while O answers in the middle row.
    for seat, cell in [(0, 0), (1, 3), (0, 1), (1, 4), (0, 2)]:
        assert {"type": "mark", "cell": cell} in latest[seat]["d"]["legal"]
        await sockets[seat].send_json_to(
            {"t": "act", "v": latest[seat]["v"], "d": {"type": "mark", "cell": cell}}
        )
        latest = [await receive_until(socket, "view") for socket in sockets]
    assert latest[1]["d"]["status"] == Match.Status.FINISHED and latest[1]["d"]["view"]["winner"] == 0
    for socket in sockets:
        await socket.disconnect()

    @database_sync_to_async
    def settled():
        finished = Match.objects.get(pk=match.pk)
        ratings = {r.user_id: r for r in Rating.objects.filter(game=KEY)}
        return finished, ratings

    finished, ratings = await settled()
    assert finished.status == Match.Status.FINISHED and finished.result["ranking"] == [[0], [1]]
    assert {rating.pool for rating in ratings.values()} == {"standard"}
    assert ratings[creator.pk].rating > ratings[guest.pk].rating


@pytest.mark.django_db
def test_its_computer_player_takes_a_seat_and_moves(client, make_user):
    human = make_user()
    client.force_login(human)
    client.post(reverse("lobby:create", args=[KEY]), {"num_players": "2", "time_control": "normal"})
    match = Match.objects.get(game=KEY)
    client.post(reverse("lobby:add_bot", args=[match.pk]), {"level": "easy"})
    client.post(reverse("lobby:start", args=[match.pk]))
    match.refresh_from_db()
    assert match.status == Match.Status.ACTIVE and match.bot_seats == [1]
    services.match_apply_action(
        match_id=match.pk, user=human, expected_version=match.version, action={"type": "mark", "cell": 4}
    )
    match.refresh_from_db()
    bot_moves.bot_play(match_id=match.pk, version=match.version)
    match.refresh_from_db()
    assert sum(mark == 1 for mark in match.state["board"]) == 1  # the bot marked a square
    assert Seat.objects.get(match=match, index=1).user.is_bot


@pytest.mark.django_db
@pytest.mark.parametrize(
    ("language", "name", "howto"), [("fr", "Morpion", "Alignez"), ("it", "Tris", "Allinea")]
)
def test_its_pages_speak_the_readers_language(client, language, name, howto):
    headers = {"HTTP_ACCEPT_LANGUAGE": language}
    assert name in client.get(reverse("lobby:home"), **headers).content.decode()
    page = client.get(reverse("lobby:howto", args=[KEY]), **headers).content.decode()
    assert name in page and howto in page
    assert client.get(reverse("ratings:leaderboard", args=[KEY]), **headers).status_code == 200


@pytest.mark.django_db
@pytest.mark.parametrize("game", GAME_KEYS)
def test_the_table_shows_the_game_s_own_keys_and_no_other_s(client, start_table, game):
    match, users = start_table(game, min(player_counts_of(registry.get(game))))
    client.force_login(users[0])
    page = client.get(reverse("lobby:table", args=[match.pk])).content.decode()
    own = {key: _keys_text(key) for key in GAME_KEYS}
    assert all((text in page) == (key == game) for key, text in own.items() if text)


def _keys_text(game: str) -> str:
    """The text of a game's own lines in the table's "Keys" help, empty if it has none."""
    try:
        return get_template(f"{game}/keys.html").render().strip()
    except TemplateDoesNotExist:
        return ""


@pytest.mark.django_db
def test_its_analysis_from_its_own_folder_is_on_the_replay_page_and_in_the_api(client, start_table):
    match, users = start_table(KEY)
    x, o = (user.username for user in users)
    # X takes 1 and 2 (squares numbered from 1); O leaves 3 open, X misses it, O blocks it, X wins on 4.
    for seat, cell in [(0, 0), (1, 4), (0, 1), (1, 8), (0, 6), (1, 2), (0, 3)]:
        match.refresh_from_db()
        mark = {"type": "mark", "cell": cell}
        services.match_apply_action(match_id=match.pk, user=users[seat], expected_version=match.version, action=mark)
    analysis = analysis_compute(match_id=match.pk)
    verdicts = ["quiet", "quiet", "quiet", "missed_block", "missed_win", "blocked", "won"]
    assert [move["verdict"] for move in analysis.data["moves"]] == verdicts
    missed = analysis.data["moves"][4]
    page = client.get(reverse("turnengine:replay", args=[match.pk])).content.decode()
    assert f"{o} marked square 9 and left square 3 open to the opponent." in page
    assert f"{x} marked square 7 but could have won on square 3." in page
    assert f'data-go-to-step="{missed["version"]}"' in page and f"{x} could have won here." in page
    _token, raw = token_create(user=users[1], name="test", scopes=["read"])
    served = client.get(
        f"/api/tables/{match.pk}/analysis", headers={"Authorization": f"Bearer {raw}", "Accept-Language": "fr"}
    ).json()
    assert served["summary"] == [
        f"{x} a laissé passer 1 case gagnante.",
        f"{o} a oublié de bloquer l’adversaire 1 fois.",
    ]
    assert served["notes"][6]["text"] == f"{x} a coché la case 4 et a complété une ligne."
    assert served["highlights"] == [{"version": missed["version"], "text": f"{x} pouvait gagner ici."}]
