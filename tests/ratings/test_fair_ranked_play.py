"""Fair ranked play (issue 30, items 1-3), through the real entry points: only people sit at ranked tables (the
lobby's pages, the Bot API, "Play now", rematch, add-bot, and the race of a join with a conversion to a bot
account); leaving never pays (a seat the computer played for ranks last and loses to everyone who stayed; "Claim
the win"; a game nobody is connected to ends as abandoned by all); the abandonment record and playbans."""

from __future__ import annotations

import time
from datetime import UTC, datetime, timedelta
from functools import partial

import pytest
from channels.db import database_sync_to_async
from django.core.management import call_command
from django.db import connection
from django.urls import reverse
from django.utils import timezone
from tapete_sdk.plugin import Outcome

from botapi.accounts import bot_account_convert
from botapi.models import BotAccount
from botapi.tokens import token_create
from lobby import rematch
from lobby import services as lobby
from lobby.errors import LobbyError
from moderation.admin import player_page_url
from moderation.groups import ensure_moderators_group
from ratings import elo
from ratings.models import Playban, Rating, RatingChange, RatingReversal
from tests.botapi.conftest import ApiClient
from tests.conftest import PASSWORD, race, socket_presence
from tests.turnengine.wsclient import connect, receive_until
from turnengine import clocks, timers, writer
from turnengine.errors import EngineError
from turnengine.fair_play import abandonment_record
from turnengine.models import Match, Seat

pytestmark = pytest.mark.django_db


@pytest.fixture
def api_for():
    """``api_for(user)``: a Bot API client with a new token of ``user`` (tests/botapi/conftest.py's)."""
    return lambda user: ApiClient(token_create(user=user, name="test", scopes=["play", "read"])[1])


def _ranked_table(make_user, players: int = 2, game: str = "chinesecheckers", **options):
    users = [make_user() for _ in range(players)]
    match = lobby.table_create(
        user=users[0], game=game, num_players=players, options={}, ranked=True, time_control="blitz", **options
    )
    for user in users[1:]:
        lobby.table_join(user=user, match_id=match.pk)
    lobby.table_start(user=users[0], match_id=match.pk)
    match.refresh_from_db()
    return match, users


def _awaited(match) -> int:
    return min(match.rules.awaited(match.state))


def _disconnect(match, seat: int) -> None:
    socket_presence(match, seat, +1)
    socket_presence(match, seat, -1)
    match.refresh_from_db()


def _past_grace(match, seat: int, extra_seconds: float = 1):
    offline_ms = match.clock["offline"][seat]
    return datetime.fromtimestamp((offline_ms + clocks.of_match(match).grace_ms) / 1000 + extra_seconds, tz=UTC)


def _computer_plays_for_awaited_seat(match) -> int:
    """The awaited seat disconnects; at the end of its grace the computer plays for it. Returns that seat."""
    seat = _awaited(match)
    _disconnect(match, seat)
    timers.match_expire(match_id=match.pk, version=match.version, now=_past_grace(match, seat))
    match.refresh_from_db()
    assert clocks.computer_played(match.clock, seat)
    return seat


def _finish_as_the_board_says(match, ranking, now=None) -> Match:
    """End the match with ``ranking`` as the game's outcome, through the writer's finish (as a last move does)."""
    with writer.locked(match.pk) as change:
        change.commit(logged=[], outcome=Outcome(ranking=ranking, reason="board"), now=now)
    match.refresh_from_db()
    return match


def _deltas(match) -> dict[int, float]:
    seat_of = dict(match.seats.values_list("user_id", "index"))
    return {seat_of[row.user_id]: row.delta for row in RatingChange.objects.filter(match=match)}


# --- 1. only people move people's ratings ------------------------------------------------------------------------


def test_no_computer_player_sits_at_a_ranked_table_through_the_lobby_page(client, make_user):
    host = make_user()
    match = lobby.table_create(user=host, game="perudo", num_players=3, options={}, ranked=True)
    client.force_login(host)
    page = client.get(reverse("lobby:table", args=[match.pk]))
    assert b"Add a computer player" not in page.content  # not offered
    response = client.post(reverse("lobby:add_bot", args=[match.pk]), {"level": "easy"}, follow=True)
    assert "a ranked table seats people" in response.content.decode()
    assert list(match.seats.values_list("user__username", flat=True)) == [host.username]
    match.refresh_from_db()
    assert match.bot_seats == []


def test_no_computer_player_sits_at_a_ranked_table_through_the_bot_api(make_user, api_for):
    host = make_user()
    api = api_for(host)
    table = api.post("/tables", {"game": "perudo", "num_players": 2, "ranked": True}).json()
    response = api.post(f"/tables/{table['id']}/bot", {"level": "medium"})
    assert response.status_code == 403 and response.json()["code"] == "computer_unranked"
    assert Seat.objects.filter(match_id=table["id"]).count() == 1


def test_a_bot_account_is_refused_at_a_ranked_table_of_people_and_keeps_its_own_pool(make_user, api_for):
    bot, host = make_user(), make_user()
    bot_account_convert(user=bot)
    people = lobby.table_create(user=host, game="perudo", num_players=2, options={}, ranked=True)
    response = api_for(bot).post(f"/tables/{people.pk}/join")
    assert response.status_code == 403 and response.json()["code"] == "bots_not_admitted"
    # Its own ranked tables admit bot accounts and are rated in the bot pool.
    own = api_for(bot).post("/tables", {"game": "perudo", "num_players": 2, "ranked": True}).json()
    lobby.table_join(user=host, match_id=own["id"])
    assert Match.objects.get(pk=own["id"]).admits_bots


def test_play_now_seats_computer_players_at_a_friendly_table_only(client, make_user):
    client.force_login(make_user())
    client.post(reverse("lobby:play_now", args=["perudo"]), {"level": "easy"})
    match = Match.objects.get()
    assert not match.ranked and match.bot_seats and match.status == Match.Status.ACTIVE


def test_a_ranked_rematch_leaves_the_seat_of_an_old_computer_player_open(make_user):
    host = make_user()
    old = lobby.table_create(user=host, game="perudo", num_players=2, options={}, ranked=False)
    lobby.table_add_bot(user=host, match_id=old.pk, level="easy")
    # A ranked table with a computer player, as tables were before the rule.
    Match.objects.filter(pk=old.pk).update(ranked=True, status=Match.Status.FINISHED)
    new, started = rematch.table_rematch(user=host, match_id=old.pk)
    assert started is None and new.ranked
    assert list(new.seats.values_list("user_id", flat=True)) == [host.pk] and new.bot_seats == []


@pytest.mark.django_db(transaction=True)
@pytest.mark.skipif(connection.vendor != "postgresql", reason="a race of real transactions needs PostgreSQL")
def test_a_join_racing_a_conversion_to_a_bot_account_never_seats_a_bot_at_a_ranked_table(
    make_user, api_for, settings
):
    """The issue's race, through the Bot API, many times: "join this ranked table" and "turn this account into a bot
    account" sent at the same moment. Exactly one of them succeeds, and no bot account ever sits there."""
    settings.TAPETE_TABLES_PER_USER = "100/m"  # one host opens the twenty tables
    host = make_user()
    for _ in range(20):
        match = lobby.table_create(user=host, game="perudo", num_players=2, options={}, ranked=True)
        player = make_user()
        api = api_for(player)
        joined, converted = race(
            [partial(api.post, f"/tables/{match.pk}/join"), partial(api.post, "/account/bot")]
        )
        assert sorted([joined.status_code, converted.status_code]) in ([200, 403], [200, 409]), (
            joined.json(),
            converted.json(),
        )
        assert (joined.status_code == 200) == Seat.objects.filter(match=match, user=player).exists()
        assert (converted.status_code == 200) == BotAccount.objects.filter(user=player).exists()
        assert not Seat.objects.filter(match=match, user__is_bot=True).exists()
        lobby.table_cancel(user=host, match_id=match.pk)


def test_ranked_computer_results_lists_and_reverses_old_results_through_the_audited_reversal(
    make_user, django_user_model
):
    host = make_user()
    old = lobby.table_create(user=host, game="perudo", num_players=2, options={}, ranked=False)
    lobby.table_add_bot(user=host, match_id=old.pk, level="easy")
    lobby.table_start(user=host, match_id=old.pk)
    # Rated as a ranked game was before the rule: the host beat the computer.
    Match.objects.filter(pk=old.pk).update(ranked=True, status=Match.Status.FINISHED, finished_at=timezone.now())
    rating = Rating.objects.create(user=host, game="perudo", pool="duel", rating=1520, games=1)
    RatingChange.objects.create(
        match=old, user=host, game="perudo", pool=rating.pool, before=1500, after=1520, delta=20
    )
    fair, _users = _ranked_table(make_user, game="perudo")
    moderator = django_user_model.objects.create_user("mod", password=PASSWORD, is_staff=True)
    moderator.groups.add(ensure_moderators_group())

    from io import StringIO

    out = StringIO()
    call_command("ranked_computer_results", stdout=out)
    assert f"#{old.pk} " in out.getvalue() and f"#{fair.pk} " not in out.getvalue()
    assert "1 ranked results" in out.getvalue()
    assert not RatingReversal.objects.exists()  # listing changes nothing
    call_command(
        "ranked_computer_results", "--reverse", "--moderator", "mod", "--reason", "farmed", stdout=StringIO()
    )
    rating.refresh_from_db()
    assert rating.rating == 1500 and rating.games == 0
    assert RatingReversal.objects.get().match_id == old.pk
    out = StringIO()
    call_command("ranked_computer_results", stdout=out)
    assert "0 ranked results" in out.getvalue()


# --- 2. leaving never pays --------------------------------------------------------------------------------------


def test_a_seat_the_computer_played_for_ranks_last_whatever_the_board_says_and_loses_rating(make_user):
    match, users = _ranked_table(make_user)
    gone = _computer_plays_for_awaited_seat(match)
    stayed = 1 - gone
    socket_presence(match, gone, +1)  # back again: it still ranks last, the computer played for it
    match = _finish_as_the_board_says(match, [[gone], [stayed]])
    assert match.result["ranking"] == [[stayed], [gone]]
    assert match.result["computer_played"] == [gone]
    deltas = _deltas(match)
    assert deltas[gone] < 0 < deltas[stayed]
    assert not match.seats.get(index=gone).abandoned  # it came back before the end: not an abandonment


def test_in_a_three_player_game_the_others_are_rated_only_against_people(make_user):
    match, users = _ranked_table(make_user, players=3)
    gone = _computer_plays_for_awaited_seat(match)
    others = [seat for seat in range(3) if seat != gone]
    match = _finish_as_the_board_says(match, [[gone], [others[1]], [others[0]]], now=_past_grace(match, gone))
    assert match.result["ranking"] == [[others[1]], [others[0]], [gone]]
    expected = elo.rating_changes(
        [[others[1]], [others[0]], [gone]],
        ratings=dict.fromkeys(range(3), elo.INITIAL_RATING),
        games_played=dict.fromkeys(range(3), 0),
        abandoned={gone},  # still away at the end
    )
    assert _deltas(match) == pytest.approx(expected)
    assert match.seats.get(index=gone).abandoned


def test_a_friendly_table_keeps_the_boards_result(make_user):
    users = [make_user(), make_user()]
    match = lobby.table_create(user=users[0], game="chinesecheckers", num_players=2, options={}, ranked=False)
    lobby.table_join(user=users[1], match_id=match.pk)
    lobby.table_start(user=users[0], match_id=match.pk)
    match.refresh_from_db()
    gone = _computer_plays_for_awaited_seat(match)
    match = _finish_as_the_board_says(match, [[gone], [1 - gone]])
    assert match.result["ranking"] == [[gone], [1 - gone]]
    assert not RatingChange.objects.exists()


def test_claim_the_win_once_the_opponent_is_away_past_the_grace(make_user):
    match, users = _ranked_table(make_user)
    away = 1
    _disconnect(match, away)
    early = _past_grace(match, away, extra_seconds=-5)
    with pytest.raises(EngineError) as refused:
        timers.match_claim_win(match_id=match.pk, user=users[0], now=early)
    assert refused.value.code == "claim_not_allowed"
    match.refresh_from_db()
    assert match.status == Match.Status.ACTIVE
    with pytest.raises(EngineError):  # the one away cannot claim either
        timers.match_claim_win(match_id=match.pk, user=users[away], now=_past_grace(match, away))
    timers.match_claim_win(match_id=match.pk, user=users[0], now=_past_grace(match, away))
    match.refresh_from_db()
    assert match.status == Match.Status.FINISHED
    assert match.result["reason"] == "win_claimed" and match.result["ranking"] == [[0], [away]]
    assert match.seats.get(index=away).abandoned
    deltas = _deltas(match)
    assert deltas[0] > 0 > deltas[away]


def test_claim_the_win_is_refused_at_a_friendly_table(start_table):
    match, users = start_table("chinesecheckers", 2)
    _disconnect(match, 1)
    with pytest.raises(EngineError) as refused:
        timers.match_claim_win(match_id=match.pk, user=users[0], now=_past_grace(match, 1))
    assert refused.value.code == "claim_not_allowed"


@pytest.mark.django_db(transaction=True)
@pytest.mark.asyncio
async def test_claim_the_win_over_the_socket(make_user):
    match, users = await database_sync_to_async(_ranked_table)(make_user, grace_seconds=1)
    mine, _ = await connect(f"/ws/match/{match.pk}/", users[0])
    theirs, _ = await connect(f"/ws/match/{match.pk}/", users[1])
    await receive_until(mine, "view")
    await receive_until(theirs, "view")
    await mine.send_json_to({"t": "claim"})
    assert (await receive_until(mine, "error"))["d"]["code"] == "claim_not_allowed"
    await theirs.disconnect()
    await receive_until(mine, "presence")
    time.sleep(1.2)  # the table's grace
    await mine.send_json_to({"t": "claim"})
    frame = await receive_until(mine, "view")
    assert frame["d"]["status"] == "finished" and frame["d"]["result"]["reason"] == "win_claimed"
    await mine.disconnect()


def test_a_ranked_game_nobody_is_connected_to_ends_as_abandoned_by_all(make_user):
    match, users = _ranked_table(make_user)
    first = _awaited(match)
    _disconnect(match, 1 - first)
    _disconnect(match, first)
    now = max(_past_grace(match, 0), _past_grace(match, 1))
    timers.match_expire(match_id=match.pk, version=match.version, now=now)
    match.refresh_from_db()
    assert match.status == Match.Status.FINISHED and match.result["reason"] == "abandoned_by_all"
    assert not RatingChange.objects.filter(match=match).exists()
    assert set(match.seats.values_list("abandoned", flat=True)) == {True}
    assert abandonment_record(user=users[0]).abandoned == 1


def test_the_last_player_leaving_a_ranked_game_nobody_else_is_at_ends_it_as_abandoned_by_all(make_user):
    match, users = _ranked_table(make_user)
    _disconnect(match, 1)
    timers.seat_leave(match_id=match.pk, user=users[0], now=_past_grace(match, 1, extra_seconds=-5))
    match.refresh_from_db()
    assert match.status == Match.Status.ACTIVE  # the opponent's grace runs: the game goes on
    timers.seat_reclaim(match_id=match.pk, user=users[0])
    timers.seat_leave(match_id=match.pk, user=users[0], now=_past_grace(match, 1))
    match.refresh_from_db()
    assert match.status == Match.Status.FINISHED and match.result["reason"] == "abandoned_by_all"
    assert not RatingChange.objects.filter(match=match).exists()


def test_the_waiting_room_of_a_ranked_table_says_these_rules(client, make_user):
    host = make_user()
    match = lobby.table_create(user=host, game="perudo", num_players=2, options={}, ranked=True)
    client.force_login(host)
    page = client.get(reverse("lobby:table", args=[match.pk])).content.decode()
    assert "Fair play at a ranked table" in page and "claim the win" in page
    friendly = lobby.table_create(user=host, game="perudo", num_players=2, options={}, ranked=False)
    assert "Fair play at a ranked table" not in client.get(reverse("lobby:table", args=[friendly.pk])).content.decode()


# --- 3. the abandonment record and playbans -----------------------------------------------------------------------


def _abandon_a_ranked_game(make_user, leaver) -> Match:
    other = make_user()
    match = lobby.table_create(user=leaver, game="perudo", num_players=2, options={}, ranked=True)
    lobby.table_join(user=other, match_id=match.pk)
    lobby.table_start(user=leaver, match_id=match.pk)
    timers.seat_leave(match_id=match.pk, user=leaver)
    timers.match_end_by_vote(match_id=match.pk, user=other)
    match.refresh_from_db()
    assert match.status == Match.Status.FINISHED
    return match


def test_abandonments_are_counted_and_playbans_escalate(make_user, settings):
    settings.TAPETE_PLAYBAN_MIN_ABANDONMENTS = 2
    settings.TAPETE_PLAYBAN_RATE = 0.5
    leaver = make_user()
    _abandon_a_ranked_game(make_user, leaver)
    assert abandonment_record(user=leaver) == abandonment_record(user=leaver).__class__(abandoned=1, games=1)
    assert not Playban.objects.exists()
    durations = []
    for _ in range(3):
        _abandon_a_ranked_game_while_allowed(make_user, leaver)
        playban = Playban.objects.filter(user=leaver).first()
        durations.append(playban.ends_at - playban.starts_at)
    assert durations == [timedelta(minutes=15), timedelta(hours=1), timedelta(days=1)]


def _abandon_a_ranked_game_while_allowed(make_user, leaver) -> None:
    Playban.objects.filter(user=leaver).update(ends_at=timezone.now())  # the previous one has run out
    _abandon_a_ranked_game(make_user, leaver)


def test_a_playban_bars_every_ranked_entry_point_and_says_until_when(make_user, client, api_for, settings):
    settings.TAPETE_PLAYBAN_MIN_ABANDONMENTS = 1
    leaver = make_user()
    match = _abandon_a_ranked_game(make_user, leaver)
    playban = Playban.objects.get(user=leaver)
    host = make_user()
    table = lobby.table_create(user=host, game="perudo", num_players=2, options={}, ranked=True)
    with pytest.raises(LobbyError) as refused:
        lobby.table_join(user=leaver, match_id=table.pk)
    assert refused.value.code == "playban" and "ranked tables are closed to you until" in refused.value.message
    with pytest.raises(LobbyError):
        lobby.table_create(user=leaver, game="perudo", num_players=2, options={}, ranked=True)
    with pytest.raises(LobbyError):
        rematch.table_rematch(user=leaver, match_id=match.pk)
    response = api_for(leaver).post(f"/tables/{table.pk}/join")
    assert response.status_code == 403 and response.json()["code"] == "playban"
    # The page tells them at once, in their language, with the end time.
    client.force_login(leaver)
    page = client.post(
        reverse("lobby:join", args=[table.pk]), follow=True, HTTP_ACCEPT_LANGUAGE="fr"
    ).content.decode()
    assert "les tables classées vous sont fermées jusqu" in page and str(timezone.localtime(playban.ends_at).year) in page
    # A ranked table's page tells them before they try, and so does their profile.
    client.force_login(leaver)
    assert "data-playban" in client.get(reverse("lobby:table", args=[table.pk])).content.decode()
    assert "data-playban" in client.get(reverse("profile", args=[leaver.username])).content.decode()
    # Friendly tables stay open.
    friendly = lobby.table_create(user=host, game="perudo", num_players=2, options={}, ranked=False)
    lobby.table_join(user=leaver, match_id=friendly.pk)
    assert not Seat.objects.filter(match=table, user=leaver).exists()


def test_a_barred_player_is_offered_no_join_on_ranked_tables_but_told_why_in_their_language(make_user, client):
    """The lobby's list and a ranked table's page show a barred player the reason, not a Join button that could only
    fail; friendly tables keep theirs."""
    barred = make_user()
    now = timezone.now()
    Playban.objects.create(user=barred, starts_at=now, ends_at=now + timedelta(hours=1), abandoned=3, games=4)
    host = make_user()
    ranked = lobby.table_create(user=host, game="perudo", num_players=2, options={}, ranked=True)
    friendly = lobby.table_create(user=host, game="spicy", num_players=3, options={}, ranked=False)

    def join(table):
        return reverse("lobby:join", args=[table.pk])

    client.force_login(barred)
    for url in (reverse("lobby:home"), reverse("lobby:open_tables")):
        page = client.get(url, HTTP_ACCEPT_LANGUAGE="it").content.decode()
        assert "data-playban" in page and "i tavoli classificati ti sono chiusi fino" in page
        assert join(ranked) not in page and join(friendly) in page
    page = client.get(reverse("lobby:table", args=[ranked.pk]), HTTP_ACCEPT_LANGUAGE="fr").content.decode()
    assert "les tables classées vous sont fermées jusqu" in page and join(ranked) not in page
    assert join(friendly) in client.get(reverse("lobby:table", args=[friendly.pk])).content.decode()
    # Once it ends, the buttons are back.
    Playban.objects.filter(user=barred).update(ends_at=now)
    assert join(ranked) in client.get(reverse("lobby:home")).content.decode()
    assert join(ranked) in client.get(reverse("lobby:table", args=[ranked.pk])).content.decode()


def test_the_record_is_shown_on_the_profile_and_the_moderators_player_page(make_user, client, django_user_model):
    leaver = make_user()
    _abandon_a_ranked_game(make_user, leaver)
    page = client.get(reverse("profile", args=[leaver.username])).content.decode()
    assert "Ranked games abandoned: 1 of the last 1 (100%)." in page
    moderator = django_user_model.objects.create_user("mod2", password=PASSWORD, is_staff=True)
    moderator.groups.add(ensure_moderators_group())
    client.force_login(moderator)
    page = client.get(player_page_url(leaver)).content.decode()
    assert "1 of the last 1 ranked games (100%)" in page
