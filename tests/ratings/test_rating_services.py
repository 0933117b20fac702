"""Ratings applied when ranked matches end: once, in the result's transaction, reversible, and race-free."""

import random
import threading

import pytest
from django.db import connection
from django.urls import reverse

from lobby import services as lobby
from lobby.errors import LobbyError
from ratings.elo import ABANDON_PENALTY, INITIAL_RATING
from ratings.models import Rating, RatingChange, RatingReversal
from ratings.services import rating_apply_outcome, rating_reverse_match
from tests.conftest import play_to_the_end
from turnengine import services, timers
from turnengine.models import Match

pytestmark = pytest.mark.django_db


def _rating(user, game, pool):
    return Rating.objects.get(user=user, game=game, pool=pool)


def test_a_ranked_duel_moves_both_ratings_in_the_duel_pool(start_table):
    match, users = start_table("perudo", 2, ranked=True)
    play_to_the_end(match, users)
    winner, loser = match.result["ranking"][0][0], match.result["ranking"][1][0]
    assert _rating(users[winner], "perudo", "duel").rating > INITIAL_RATING
    assert _rating(users[loser], "perudo", "duel").rating < INITIAL_RATING
    assert _rating(users[winner], "perudo", "duel").games == 1
    change = RatingChange.objects.get(match=match, user=users[winner])
    assert change.before == INITIAL_RATING and change.after == change.before + change.delta
    assert change.opponents == [{"user": users[loser].username, "rating": round(INITIAL_RATING)}]


def test_rating_a_match_twice_counts_once(start_table):
    match, users = start_table("chinesecheckers", 2, {"maxTurns": 10}, ranked=True)
    play_to_the_end(match, users)
    before = {rating.pk: (rating.rating, rating.games) for rating in Rating.objects.all()}
    assert rating_apply_outcome(match=match) == []
    assert {rating.pk: (rating.rating, rating.games) for rating in Rating.objects.all()} == before
    assert RatingChange.objects.filter(match=match).count() == 2


def test_friendly_tables_are_never_rated(start_table):
    match, users = start_table("perudo", 3)
    play_to_the_end(match, users)
    assert not Rating.objects.exists() and not RatingChange.objects.exists()


def test_pools_separate_player_counts(start_table):
    match, users = start_table("chinesecheckers", 3, {"maxTurns": 10}, ranked=True)
    play_to_the_end(match, users)
    assert set(Rating.objects.values_list("pool", flat=True)) == {"3p"}


def test_an_abandoner_ranks_last_and_pays_a_penalty_and_absent_seats_win_nothing(start_table):
    match, users = start_table("perudo", 3, ranked=True)
    timers.seat_leave(match_id=match.pk, user=users[2])
    play_to_the_end(match, users, seed=5)
    abandoned = RatingChange.objects.get(match=match, user=users[2])
    assert abandoned.abandoned and abandoned.delta < -ABANDON_PENALTY + 0.001
    assert match.result["ranking"]  # the engine's ranking is kept; ratings move the abandoner last


def test_a_reversal_restores_everyones_rating_and_is_audited(start_table, make_user):
    match, users = start_table("perudo", 2, ranked=True)
    play_to_the_end(match, users)
    moderator = make_user()
    assert rating_reverse_match(match=match, by=moderator, reason="collusion") == 2
    for user in users:
        rating = _rating(user, "perudo", "duel")
        assert rating.rating == pytest.approx(INITIAL_RATING) and rating.games == 0
    assert RatingReversal.objects.get(match=match).reason == "collusion"
    assert rating_reverse_match(match=match, by=moderator, reason="again") == 0


def test_a_rating_range_keeps_other_players_out(make_user):
    creator, strong = make_user(), make_user()
    Rating.objects.create(user=strong, game="perudo", pool="duel", rating=1900, games=30)
    match = lobby.table_create(
        user=creator, game="perudo", num_players=2, options={}, ranked=True, min_rating=1000, max_rating=1700
    )
    with pytest.raises(LobbyError) as refused:
        lobby.table_join(user=strong, match_id=match.pk)
    assert refused.value.code == "rating_out_of_range"
    lobby.table_join(user=make_user(), match_id=match.pk)  # a new player (1500) may join
    with pytest.raises(LobbyError) as refused:
        lobby.table_create(
            user=creator, game="perudo", num_players=2, options={}, ranked=False, min_rating=1000
        )
    assert refused.value.code == "range_needs_ranked"


def test_the_leaderboard_lists_established_humans_and_marks_provisional_ones(
    client, make_user, django_user_model
):
    ana, bruno = make_user("ana"), make_user("bruno")
    robot = django_user_model.objects.create_user("robot", is_bot=True)
    Rating.objects.create(user=ana, game="spicy", pool="standard", rating=1610, games=40)
    Rating.objects.create(user=bruno, game="spicy", pool="standard", rating=1550, games=6)
    Rating.objects.create(user=robot, game="spicy", pool="standard", rating=1800, games=90)
    page = client.get(reverse("ratings:leaderboard", args=["spicy"]))
    rows = list(page.context["rows"])
    assert [row.user.username for row in rows] == ["ana", "bruno"]
    assert rows[1].provisional and not rows[0].provisional


def test_the_profile_shows_a_rating_chart(client, start_table):
    match, users = start_table("perudo", 2, ranked=True)
    play_to_the_end(match, users)
    page = client.get(reverse("profile", args=[users[0].username]))
    assert b'<svg class="rating-chart"' in page.content
    assert reverse("turnengine:replay", args=[match.pk]).encode() in page.content


@pytest.mark.django_db(transaction=True)
def test_tables_ending_at_once_for_the_same_players_are_all_rated(make_user):
    ana, bruno = make_user(), make_user()
    matches = []
    for index in range(4):
        first, second = (ana, bruno) if index % 2 == 0 else (bruno, ana)  # seat orders differ
        match = lobby.table_create(
            user=first,
            game="chinesecheckers",
            num_players=2,
            options={"maxTurns": 10, "firstPlayer": "seat0"},
            ranked=True,
        )
        lobby.table_join(user=second, match_id=match.pk)
        lobby.table_start(user=first, match_id=match.pk)
        match.refresh_from_db()
        rng = random.Random(index)
        seats = [first, second]
        for _ in range(19):  # 20 plies end the game at the turn limit: stop one before
            seat = min(match.rules.to_act(match.state))
            services.match_apply_action(
                match_id=match.pk,
                user=seats[seat],
                expected_version=match.version,
                action=rng.choice(match.rules.legal_actions(match.state, seat)),
            )
            match.refresh_from_db()
        matches.append((match, seats))
    barrier = threading.Barrier(len(matches))
    errors = []

    def finish(match, seats):
        try:
            seat = min(match.rules.to_act(match.state))
            action = match.rules.legal_actions(match.state, seat)[0]
            barrier.wait()
            services.match_apply_action(
                match_id=match.pk, user=seats[seat], expected_version=match.version, action=action
            )
        except Exception as error:  # noqa: BLE001 - collected and asserted below
            errors.append(error)
        finally:
            connection.close()

    threads = [threading.Thread(target=finish, args=pair) for pair in matches]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join(60)
    assert errors == []
    assert all(Match.objects.get(pk=match.pk).status == Match.Status.FINISHED for match, _ in matches)
    assert RatingChange.objects.count() == 8
    for user in (ana, bruno):
        rating = _rating(user, "chinesecheckers", "2p")
        history = RatingChange.objects.filter(user=user).order_by("created_at", "pk")
        assert rating.games == 4
        assert rating.rating == pytest.approx(INITIAL_RATING + sum(change.delta for change in history))
