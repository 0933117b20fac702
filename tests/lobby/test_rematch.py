""" "Play again": the same players, options and computer players at a new table, started once every human is in."""

import pytest

from lobby import rematch
from lobby import services as lobby
from lobby.errors import LobbyError
from moderation.models import NetworkNotice
from turnengine import timers
from turnengine.models import Match

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
    notice = rematch.rematch_notice(old=match, new=again)
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


def test_a_rematch_seat_records_the_players_address_as_any_seat_does(client, start_table):
    """The seats of a rematch carry their players' addresses (``writer.seat_player``), so a ranked rematch between
    two accounts on one network is noticed like any other table (``moderation.services.network_notices_for``)."""
    match, users = start_table("chinesecheckers", 2, ranked=True)
    match = _finish(match, users)
    for user in users:
        client.force_login(user)
        assert client.post(f"/table/{match.pk}/again/", REMOTE_ADDR="10.1.2.3").status_code == 302
    new = Match.objects.get(rematch_of=match)
    assert new.status == Match.Status.ACTIVE
    assert sorted(new.seats.values_list("ip_address", flat=True)) == ["10.1.2.3", "10.1.2.3"]
    notice = NetworkNotice.objects.get(match=new)
    assert notice.usernames == sorted(user.username for user in users)
