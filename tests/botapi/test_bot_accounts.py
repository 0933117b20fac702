"""Bot accounts: only a fresh account converts, for ever; bot accounts sit only at tables open to them, are rated
in the bot pool, never on the leaderboards; the site's own computer players keep working at any table."""

from __future__ import annotations

import pytest
from tapete_sdk.plugin import CHANCE

from botapi.accounts import BotAccountError, bot_account_convert
from lobby import services as lobby
from lobby.errors import LobbyError
from ratings.models import Rating
from ratings.selectors import leaderboard, match_pool
from tests.lobby.test_lobby_pages import form_defaults
from turnengine import bot_moves
from turnengine.models import Match

pytestmark = pytest.mark.django_db


def _table(creator, **extra):
    return lobby.table_create(user=creator, game="perudo", num_players=2, options={}, ranked=False, **extra)


def test_fresh_account_becomes_a_bot_from_its_profile(client, make_user):
    user = make_user()
    client.force_login(user)
    assert (
        "Turn this account into a bot account" in client.get(f"/accounts/u/{user.username}/").content.decode()
    )
    client.post("/accounts/bot/", {})  # without the confirmation nothing happens
    user.refresh_from_db()
    assert not user.is_bot
    client.post("/accounts/bot/", {"confirm": "yes"})
    user.refresh_from_db()
    assert user.is_bot
    page = client.get(f"/accounts/u/{user.username}/").content.decode()
    assert "This is a bot account" in page and "(bot)" in page


def test_an_account_that_played_cannot_become_a_bot(make_user):
    user, other = make_user(), make_user()
    match = _table(other)
    lobby.table_join(user=user, match_id=match.pk)
    with pytest.raises(BotAccountError) as refused:
        bot_account_convert(user=user)
    assert refused.value.code == "account_has_games"
    user.refresh_from_db()
    assert not user.is_bot


def test_a_seat_at_a_cancelled_table_does_not_count(make_user):
    user, other = make_user(), make_user()
    match = _table(other)
    lobby.table_join(user=user, match_id=match.pk)
    lobby.table_cancel(user=other, match_id=match.pk)
    bot_account_convert(user=user)
    assert user.is_bot


def test_staff_and_existing_bots_cannot_convert(make_user, django_user_model):
    staff = django_user_model.objects.create_user(username="staffer", password="x", is_staff=True)
    with pytest.raises(BotAccountError) as refused:
        bot_account_convert(user=staff)
    assert refused.value.code == "staff_cannot_be_bot"
    bot = make_user()
    bot_account_convert(user=bot)
    with pytest.raises(BotAccountError) as again:
        bot_account_convert(user=bot)
    assert again.value.code == "already_bot"


def test_bot_account_sits_only_at_tables_open_to_bots(make_user):
    human, bot = make_user(), make_user()
    bot_account_convert(user=bot)
    closed = _table(human)
    with pytest.raises(LobbyError) as refused:
        lobby.table_join(user=bot, match_id=closed.pk)
    assert refused.value.code == "bots_not_admitted"
    assert closed.seats.count() == 1
    open_to_bots = _table(human, allow_bots=True)
    lobby.table_join(user=bot, match_id=open_to_bots.pk)
    assert open_to_bots.seats.filter(user=bot).exists()


def test_a_bot_accounts_own_table_is_open_to_bots_and_humans(make_user):
    bot, other_bot, human = make_user(), make_user(), make_user()
    bot_account_convert(user=bot)
    bot_account_convert(user=other_bot)
    match = lobby.table_create(user=bot, game="spicy", num_players=3, options={}, ranked=False)
    lobby.table_join(user=other_bot, match_id=match.pk)
    lobby.table_join(user=human, match_id=match.pk)
    assert match.seats.count() == 3


def test_the_lobby_form_opens_a_table_to_bots(client, make_user):
    human = make_user()
    client.force_login(human)
    client.post("/play/perudo/new/", {**form_defaults("perudo", num_players=2), "allow_bots": "on"})
    match = Match.objects.get(created_by=human)
    assert match_pool(match) == "bots"
    assert "Open to bot accounts" in client.get(f"/table/{match.pk}/").content.decode()


def _play_out(match):
    """Both seats play their first legal action until the end (chance steps are the engine's)."""
    from turnengine import services

    for _ in range(2000):
        match.refresh_from_db()
        if match.status != Match.Status.ACTIVE:
            return
        acting = sorted(s for s in match.rules.to_act(match.state) if s != CHANCE)
        seat = acting[0]
        user = match.seats.get(index=seat).user
        action = match.rules.legal_actions(match.state, seat)[0]
        services.match_apply_action(
            match_id=match.pk, user=user, expected_version=match.version, action=action
        )
    raise AssertionError("the match did not end")


def test_bot_tables_are_rated_in_the_bot_pool_and_bots_stay_off_the_leaderboard(make_user):
    human, bot = make_user(), make_user()
    bot_account_convert(user=bot)
    match = lobby.table_create(
        user=human, game="perudo", num_players=2, options={"startingDice": 1}, ranked=True, allow_bots=True
    )
    lobby.table_join(user=bot, match_id=match.pk)
    lobby.table_start(user=human, match_id=match.pk)
    _play_out(match)
    pools = set(Rating.objects.filter(game="perudo").values_list("user__username", "pool"))
    assert pools == {(human.username, "bots"), (bot.username, "bots")}
    Rating.objects.filter(game="perudo").update(games=10)
    assert [row.user for row in leaderboard(game="perudo", pool="bots")] == [human]


def test_site_computer_players_still_play_beside_a_bot_account(make_user):
    human, bot = make_user(), make_user()
    bot_account_convert(user=bot)
    match = lobby.table_create(
        user=human, game="perudo", num_players=3, options={}, ranked=False, allow_bots=True
    )
    lobby.table_join(user=bot, match_id=match.pk)
    lobby.table_add_bot(user=human, match_id=match.pk, level="easy")
    lobby.table_start(user=human, match_id=match.pk)
    match.refresh_from_db()
    moved = 0
    for _ in range(30):
        match.refresh_from_db()
        if match.status != Match.Status.ACTIVE:
            break
        acting = match.rules.to_act(match.state)
        if 2 in acting:
            assert bot_moves.bot_play(match_id=match.pk, version=match.version) is True
            moved += 1
        else:
            seat = min(s for s in acting if s != CHANCE)
            before = match.version
            # The engine never plays the bot account's seat: only its program does.
            assert bot_moves.bot_play(match_id=match.pk, version=before) is False
            user = match.seats.get(index=seat).user
            from turnengine import services

            action = match.rules.legal_actions(match.state, seat)[0]
            services.match_apply_action(match_id=match.pk, user=user, expected_version=before, action=action)
    assert moved > 0
