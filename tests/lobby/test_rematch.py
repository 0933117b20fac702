""" "Play again": the same players, options and computer players at a new table, started once every human is in."""

import json

import pytest
from django.urls import reverse

from lobby import rematch
from lobby import services as lobby
from lobby.errors import LobbyError
from turnengine import timers
from turnengine.models import Match, RematchDecline
from turnengine.rematch_offers import rematch_state, series_score

pytestmark = pytest.mark.django_db


def _finish(match, users):
    """A quick end: the second player leaves, the first ends the table."""
    timers.seat_leave(match_id=match.pk, user=users[1])
    timers.match_end_by_vote(match_id=match.pk, user=users[0])
    match.refresh_from_db()
    return match


def test_play_again_against_the_computer_starts_at_once_with_the_same_bot(make_user):
    human = make_user()
    match = lobby.table_create(
        user=human, game="perudo", num_players=2, options={"calza": True}, ranked=False
    )
    lobby.table_add_bot(user=human, match_id=match.pk, level="easy")
    lobby.table_start(user=human, match_id=match.pk)
    Match.objects.filter(pk=match.pk).update(status=Match.Status.FINISHED)
    new, update = rematch.table_rematch(user=human, match_id=match.pk)
    assert new.status == Match.Status.ACTIVE and update is not None
    assert new.rematch_of_id == match.pk and new.options == match.options
    old_seats = dict(match.seats.values_list("index", "user_id"))
    assert dict(new.seats.values_list("index", "user_id")) == old_seats
    assert new.bot_seats == [1]


def test_two_humans_each_take_their_seat_and_the_second_starts_it(start_table):
    match, users = start_table("chinesecheckers", 2)
    match = _finish(match, users)
    new, update = rematch.table_rematch(user=users[1], match_id=match.pk)
    assert new.status == Match.Status.OPEN and update is None and new.created_by_id == users[1].pk
    again, update = rematch.table_rematch(user=users[0], match_id=match.pk)
    assert again.pk == new.pk and again.status == Match.Status.ACTIVE and update is not None
    assert dict(again.seats.values_list("index", "user_id")) == {0: users[0].pk, 1: users[1].pk}
    notice = rematch.rematch_notice(match)
    assert match.group_name("all") in notice.frames


def test_only_a_player_of_a_finished_table_may_ask_for_a_rematch(start_table, make_user):
    match, users = start_table("chinesecheckers", 2)
    with pytest.raises(LobbyError) as running:
        rematch.table_rematch(user=users[0], match_id=match.pk)
    assert running.value.code == "not_finished"
    match = _finish(match, users)
    with pytest.raises(LobbyError) as stranger:
        rematch.table_rematch(user=make_user(), match_id=match.pk)
    assert stranger.value.code == "not_seated"


def test_the_play_again_button_posts_and_lands_on_the_new_table(client, start_table):
    match, users = start_table("chinesecheckers", 2)
    match = _finish(match, users)
    client.force_login(users[0])
    response = client.post(f"/table/{match.pk}/again/")
    new = Match.objects.get(rematch_of=match)
    assert response.status_code == 302 and response["Location"] == f"/table/{new.pk}/"


def _state_frame(update, match):
    return json.loads(update.frames[match.group_name("all")])["d"]


def test_a_rematch_offer_shows_who_offered_accepted_and_declined(
    start_table, sent, django_capture_on_commit_callbacks
):
    match, users = start_table("chinesecheckers", 2)
    match = _finish(match, users)
    rematch.table_rematch(user=users[1], match_id=match.pk)  # the offer
    state = rematch_state(match)
    assert state["offered_by"] == users[1].username and state["accepted"] == [users[1].username]
    assert state["declined"] == [] and state["status"] == Match.Status.OPEN
    sent.clear()
    with django_capture_on_commit_callbacks(execute=True):
        rematch.rematch_decline(user=users[0], match_id=match.pk)
    [notice] = [update for update in sent if match.group_name("all") in update.frames]
    # What the one who offered (still on the old result screen) hears: who declined.
    data = _state_frame(notice, match)
    assert data["declined"] == [users[0].username] and data["offered_by"] == users[1].username
    # ...and so does the rematch's waiting page, where the one who offered waits.
    assert Match(pk=state["match_id"]).group_name("all") in notice.frames
    sent.clear()
    with django_capture_on_commit_callbacks(execute=True):
        rematch.rematch_decline(user=users[0], match_id=match.pk)  # twice: nothing changes, nothing is sent
    assert sent == [] and RematchDecline.objects.count() == 1


def test_one_who_declined_may_still_accept_and_one_who_accepted_cannot_decline(start_table):
    match, users = start_table("chinesecheckers", 2)
    match = _finish(match, users)
    rematch.rematch_decline(user=users[0], match_id=match.pk)  # before anyone offered
    assert rematch_state(match)["declined"] == [users[0].username]
    rematch.table_rematch(user=users[1], match_id=match.pk)
    with pytest.raises(LobbyError) as accepted:
        rematch.rematch_decline(user=users[1], match_id=match.pk)
    assert accepted.value.code == "already_accepted"
    new, _update = rematch.table_rematch(user=users[0], match_id=match.pk)
    assert new.status == Match.Status.ACTIVE and rematch_state(match)["declined"] == []


def test_only_a_player_of_a_finished_table_may_decline(start_table, make_user):
    match, users = start_table("chinesecheckers", 2)
    with pytest.raises(LobbyError) as running:
        rematch.rematch_decline(user=users[0], match_id=match.pk)
    assert running.value.code == "not_finished"
    match = _finish(match, users)
    with pytest.raises(LobbyError) as stranger:
        rematch.rematch_decline(user=make_user(), match_id=match.pk)
    assert stranger.value.code == "not_seated" and not RematchDecline.objects.exists()


def test_a_series_of_rematches_keeps_a_running_score(start_table):
    match, users = start_table("chinesecheckers", 2)
    match = _finish(match, users)  # users[0] wins: users[1] left
    assert series_score(match) is None  # a first game is no series
    second, _ = rematch.table_rematch(user=users[0], match_id=match.pk)
    second, _ = rematch.table_rematch(user=users[1], match_id=match.pk)
    assert series_score(second) == {
        "games": 1,
        "scores": [{"user": users[0].username, "wins": 1}, {"user": users[1].username, "wins": 0}],
    }
    second = _finish(second, [users[1], users[0]])  # users[1] wins this one
    third, _ = rematch.table_rematch(user=users[0], match_id=second.pk)
    third, _ = rematch.table_rematch(user=users[1], match_id=second.pk)
    third = _finish(third, users)
    assert series_score(third)["games"] == 3
    assert series_score(third)["scores"] == [
        {"user": users[0].username, "wins": 2},
        {"user": users[1].username, "wins": 1},
    ]


def test_the_decline_page_answers_with_a_message_and_never_a_500(client, start_table, make_user):
    match, users = start_table("chinesecheckers", 2)
    client.force_login(users[0])
    url = reverse("lobby:rematch_decline", args=[match.pk])
    assert client.post(url).status_code == 302  # not finished: back to the table with the reason
    assert not RematchDecline.objects.exists()
    match = _finish(match, users)
    new, _update = rematch.table_rematch(user=users[1], match_id=match.pk)  # the offer
    assert client.post(url)["Location"] == reverse("lobby:game", args=[match.game])
    assert RematchDecline.objects.filter(match=match, user=users[0]).exists()
    client.force_login(users[1])  # who offered, on the rematch's waiting page
    page = client.get(reverse("lobby:table", args=[new.pk])).content.decode()
    assert f"Rematch declined by {users[0].username}." in page
    assert client.post(reverse("lobby:rematch_decline", args=[10**9])).status_code == 404
    assert client.get(url).status_code == 405
