"""Moderation for fair play (issue 30, item 6), through the moderators' confirmation pages as a member of the
Moderators group: a refund takes back a cheater's gains and gives their opponents back what they lost (as Lichess
refunds), audited; a reversal takes a rated game off a player's count only where the match had added one; the
player page shows the signs of farming. The expected ratings are worked out by hand in each test (K = 40 for
players with fewer than 20 rated games, E = 1 / (1 + 10 ** ((Rb - Ra) / 400)))."""

import threading

import pytest
from django.contrib.auth.models import Group
from django.db import connection, transaction
from django.urls import reverse

from lobby import services as lobby
from moderation import services
from moderation.admin_actions import action_url
from moderation.groups import MODERATORS
from moderation.models import AuditEntry
from ratings.models import Rating, RatingChange
from ratings.selectors import match_pool
from ratings.services import rating_apply_outcome
from turnengine.models import Match

pytestmark = pytest.mark.django_db


@pytest.fixture
def moderator(client, make_user):
    """A staff account in the Moderators group, not a superuser, logged in."""
    user = make_user("mod")
    user.is_staff = True
    user.save()
    user.groups.add(Group.objects.get(name=MODERATORS))
    client.force_login(user)
    return client


def rated_match(players, ranking, *, absent=()):
    """A ranked Perudo table of ``players`` (seat = position) that ended with ``ranking``, rated by the real
    service in the result's transaction; seats in ``absent`` were played by the computer without leaving."""
    match = lobby.table_create(user=players[0], game="perudo", num_players=len(players), options={}, ranked=True)
    for player in players[1:]:
        lobby.table_join(user=player, match_id=match.pk)
    with transaction.atomic():
        Match.objects.filter(pk=match.pk).update(
            status=Match.Status.FINISHED,
            result={"ranking": ranking},
            clock={"absent": [seat in absent for seat in range(len(players))]},
        )
        match.refresh_from_db()
        rating_apply_outcome(match=match)
    return match


def _rating(user, pool="duel"):
    return Rating.objects.get(user=user, game="perudo", pool=pool)


def _confirm(client, key, **targets):
    url = action_url(key, **targets)
    page = client.get(url)
    assert page.status_code == 200
    done = client.post(url, {"preset": "cheating"})
    assert done.status_code == 302
    return page.content.decode()


def test_a_refund_takes_back_the_cheaters_gains_and_gives_back_what_the_opponents_lost(moderator, make_user):
    cheater, alice, bob = make_user("cheater"), make_user("alice"), make_user("bob")
    rated_match([cheater, alice], [[0], [1]])  # 1500 v 1500, E = 0.5: cheater +20, alice -20
    rated_match([bob, cheater], [[0], [1]])  # bob 1500 beats 1520: E = 0.471249, bob +21.150, cheater -21.150
    rated_match([cheater, alice], [[0], [1]])  # 1498.850 beats 1480: E = 0.527101, +18.916 / -18.916
    assert _rating(cheater).rating == pytest.approx(1517.766, abs=0.001)
    assert _rating(alice).rating == pytest.approx(1461.084, abs=0.001)
    assert _rating(bob).rating == pytest.approx(1521.150, abs=0.001)

    page = _confirm(moderator, "refund", users=[cheater.pk])
    assert "alice -18.9 is undone" in page and "cheater +20.0 is undone" in page
    assert "bob" not in page.split("What will happen", 1)[1].split("</ul>", 1)[0]  # bob's gain stays

    # The cheater loses both gains (1517.766 - 20 - 18.916) and keeps the loss to bob; alice is made whole; bob
    # keeps what he won. A reversed change no longer counts as a rated game.
    assert (round(_rating(cheater).rating, 3), _rating(cheater).games) == (1478.850, 1)
    assert (round(_rating(alice).rating, 3), _rating(alice).games) == (1500.0, 0)
    assert (round(_rating(bob).rating, 3), _rating(bob).games) == (1521.150, 1)
    entry = AuditEntry.objects.get(action="refund")
    assert entry.target_user == cheater and entry.moderator.username == "mod"
    assert entry.reason.startswith("Cheating")
    assert sorted((row["user"], row["delta"]) for row in entry.detail["changes"]) == [
        ("alice", -20.0), ("alice", -18.9), ("cheater", 18.9), ("cheater", 20.0)]
    # Done once: nothing is left to refund, and the page says so instead of doing it again.
    again = moderator.get(action_url("refund", users=[cheater.pk])).content.decode()
    assert "gained nothing" in again
    assert AuditEntry.objects.filter(action="refund").count() == 1


def test_reversing_a_match_gives_every_seat_its_game_count_back_exactly(moderator, make_user):
    winner, loser, away = make_user(), make_user(), make_user()
    Rating.objects.create(user=away, game="perudo", pool="table", rating=1500, games=3)
    match = rated_match([winner, loser, away], [[0], [1], [2]], absent={2})
    assert match_pool(match) == "table"
    # Every rated seat, the one the computer played for included, plays a counted game.
    assert [_rating(user, "table").games for user in (winner, loser, away)] == [1, 1, 4]
    assert all(change.counted_game for change in RatingChange.objects.filter(match=match))

    _confirm(moderator, "reverse", ids=[match.pk])
    assert (_rating(winner, "table").rating, _rating(winner, "table").games) == (1500.0, 0)
    assert (_rating(loser, "table").rating, _rating(loser, "table").games) == (1500.0, 0)
    assert (_rating(away, "table").rating, _rating(away, "table").games) == (1500.0, 3)


def test_reversing_an_older_match_leaves_the_count_of_a_seat_it_did_not_count(moderator, make_user):
    """Before every rated seat counted, an absent seat was rated without a game added (migration 0002 marks those
    changes): their reversal must not take a game off (it took 3 to 2)."""
    winner, loser = make_user(), make_user()
    match = rated_match([winner, loser], [[0], [1]])
    old = RatingChange.objects.get(match=match, user=loser)
    RatingChange.objects.filter(pk=old.pk).update(counted_game=False)
    Rating.objects.filter(user=loser, game="perudo", pool="duel").update(games=3)

    _confirm(moderator, "reverse", ids=[match.pk])
    assert (_rating(loser).rating, _rating(loser).games) == (1500.0, 3)
    assert (_rating(winner).rating, _rating(winner).games) == (1500.0, 0)


def test_the_player_page_shows_the_signs_of_farming(moderator, make_user):
    farmer, friend, other = make_user("farmer"), make_user("friend"), make_user("other")
    rated_match([farmer, friend], [[0], [1]])  # +20
    rated_match([farmer, friend], [[0], [1]])  # 1520 beats 1480: E = 0.557312, +17.708
    rated_match([other, farmer], [[0], [1]])  # 1537.708 loses to 1500: E = 0.554054, -22.162
    page = moderator.get(reverse("admin:accounts_user_moderation", args=[farmer.pk])).content.decode()
    fair_play = page.split('id="fair-play-title"', 1)[1].split("</section>", 1)[0]
    assert "friend: 2 rated games (67 %)" in fair_play
    # Every account here is new: the three games, 20 + 17.708 - 22.162 = +15.5.
    assert "3 rated games, rating +15.5" in fair_play
    assert action_url("refund", next_url="", users=[farmer.pk]).split("?")[0] in fair_play


@pytest.mark.postgres
@pytest.mark.skipif(connection.vendor != "postgresql", reason="row locks under real concurrency: PostgreSQL's")
@pytest.mark.django_db(transaction=True)
def test_two_moderators_refunding_at_once_refund_once(make_user):
    cheater, alice = make_user("cheater"), make_user("alice")
    rated_match([cheater, alice], [[0], [1]])  # +20 / -20
    moderators = [make_user("mod1"), make_user("mod2")]
    barrier = threading.Barrier(2)
    outcomes = []

    def refund(moderator):
        try:
            barrier.wait()
            outcomes.append(services.moderation_refund(moderator=moderator, user=cheater, reason="cheating"))
        except services.Refused as refused:
            outcomes.append(refused.code)
        finally:
            connection.close()

    threads = [threading.Thread(target=refund, args=(moderator,)) for moderator in moderators]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join(30)
    assert sorted(outcomes, key=str) == [2, "nothing_to_refund"]
    assert (_rating(cheater).rating, _rating(cheater).games) == (1500.0, 0)
    assert (_rating(alice).rating, _rating(alice).games) == (1500.0, 0)
    assert AuditEntry.objects.filter(action="refund").count() == 1


def test_changes_rated_before_the_count_was_kept_learn_it_from_their_match(make_user):
    """Migration ratings 0002 fills ``counted_game`` from each match's clock and seats."""
    from importlib import import_module

    from django.apps import apps

    winner, loser, away = make_user(), make_user(), make_user()
    rated_match([winner, loser, away], [[0], [2], [1]], absent={2})
    RatingChange.objects.update(counted_game=True)  # as every row was before the column
    import_module("ratings.migrations.0002_ratingchange_counted_game").fill_counted_games(apps, None)
    counted = dict(RatingChange.objects.values_list("user__username", "counted_game"))
    assert counted == {winner.username: True, loser.username: True, away.username: False}
