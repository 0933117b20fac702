"""Follows, friends, blocks and invitations through their services: a pair is one row the database holds unique, so
two friend requests crossing at the same moment become one friendship; a block cuts every tie and refuses new ones;
an invitation is pending only while its table waits."""

import pytest
from django.contrib.auth import get_user_model
from django.db import connection

from lobby import services as lobby
from moderation.models import Sanction
from social import blocks, follows, friends, invitations
from social.errors import SocialError
from social.models import Follow, Friendship, Invitation
from social.search import search_players
from social.selectors import friends_page, relation
from tests.conftest import race

pytestmark = pytest.mark.django_db
User = get_user_model()


def code_of(call) -> str:
    with pytest.raises(SocialError) as refused:
        call()
    return refused.value.code


def test_a_follow_is_one_way_and_following_twice_is_following(make_user):
    ana, bruno = make_user("ana"), make_user("bruno")
    follows.follow(user=ana, other=bruno)
    follows.follow(user=ana, other=bruno)
    assert Follow.objects.count() == 1
    assert relation(ana, bruno)["following"] and not relation(bruno, ana)["following"]
    assert code_of(lambda: follows.follow(user=ana, other=ana)) == "yourself"


def test_a_friend_request_is_accepted_by_the_other_only(make_user, sent, django_capture_on_commit_callbacks):
    ana, bruno = make_user("ana"), make_user("bruno")
    with django_capture_on_commit_callbacks(execute=True):
        friends.friend_request(user=ana, other=bruno)
    assert relation(ana, bruno)["friend"] == "asked" and relation(bruno, ana)["friend"] == "asked_by"
    assert code_of(lambda: friends.friend_request(user=ana, other=bruno)) == "already_requested"
    assert code_of(lambda: friends.friend_accept(user=ana, other=bruno)) == "no_request"
    with django_capture_on_commit_callbacks(execute=True):
        friends.friend_accept(user=bruno, other=ana)
    assert relation(ana, bruno)["friend"] == "friends"
    assert code_of(lambda: friends.friend_request(user=bruno, other=ana)) == "already_friends"
    # each step told the other player, on their own group only
    kinds = [(group, '"friend_request"' in text or '"friend_accepted"' in text) for u in sent for group, text in u.frames.items()]
    assert kinds == [(f"social.{bruno.pk}", True), (f"social.{ana.pk}", True)]


def test_declining_removes_the_request(make_user):
    ana, bruno = make_user("ana"), make_user("bruno")
    friends.friend_request(user=ana, other=bruno)
    friends.friend_remove(user=bruno, other=ana)
    assert not Friendship.objects.exists()
    assert relation(ana, bruno)["friend"] == "none"


@pytest.mark.django_db(transaction=True)
def test_two_friend_requests_crossing_become_one_friendship(make_user):
    for attempt in range(3):
        ana, bruno = make_user(f"ana{attempt}"), make_user(f"bruno{attempt}")
        results = race(
            [
                lambda a=ana, b=bruno: friends.friend_request(user=a, other=b),
                lambda a=ana, b=bruno: friends.friend_request(user=b, other=a),
            ]
        )
        assert not [result for result in results if isinstance(result, SocialError)], results
        (row,) = Friendship.objects.filter(low__in=[ana, bruno])
        assert row.accepted_at is not None
        assert relation(ana, bruno)["friend"] == relation(bruno, ana)["friend"] == "friends"
    connection.close()


def test_a_block_cuts_every_tie_and_refuses_new_ones(make_user):
    ana, bruno = make_user("ana"), make_user("bruno")
    follows.follow(user=ana, other=bruno)
    follows.follow(user=bruno, other=ana)
    friends.friend_request(user=ana, other=bruno)
    friends.friend_accept(user=bruno, other=ana)
    match = lobby.table_create(user=ana, game="perudo", num_players=3, options={}, ranked=False)
    invitations.invite(user=ana, match_id=match.pk, other=bruno)
    blocks.block(user=ana, other=bruno)
    blocks.block(user=ana, other=bruno)  # twice is once
    assert not Follow.objects.exists() and not Friendship.objects.exists() and not Invitation.objects.exists()
    assert blocks.blocked_ids(ana) == {bruno.pk} and blocks.blocked_ids(bruno) == set()
    for call in (
        lambda: follows.follow(user=bruno, other=ana),
        lambda: friends.friend_request(user=bruno, other=ana),
        lambda: follows.follow(user=ana, other=bruno),  # the blocker too, until they unblock
    ):
        assert code_of(call) == "blocked"
    blocks.unblock(user=ana, other=bruno)
    follows.follow(user=bruno, other=ana)


def test_bots_and_guests_are_not_befriended(make_user):
    ana, robot = make_user("ana"), make_user("robot")
    robot.is_bot = True
    robot.save()
    assert code_of(lambda: friends.friend_request(user=ana, other=robot)) == "bot_social"
    guest = make_user("guest-1")
    guest.is_guest = True
    guest.save()
    assert code_of(lambda: follows.follow(user=guest, other=ana)) == "guest_social"


@pytest.mark.django_db(transaction=True)
def test_an_invitation_is_answered_once_and_expires_with_its_table(make_user, sent):
    ana, bruno, carla, dino = (make_user(name) for name in ("ana", "bruno", "carla", "dino"))
    match = lobby.table_create(user=ana, game="perudo", num_players=3, options={}, ranked=False)
    assert code_of(lambda: invitations.invite(user=bruno, match_id=match.pk, other=carla)) == "not_seated"
    assert code_of(lambda: invitations.invite(user=ana, match_id=match.pk, other=ana)) == "yourself"
    assert code_of(lambda: invitations.invite(user=ana, match_id=10**9, other=bruno)) == "no_such_table"
    first = invitations.invite(user=ana, match_id=match.pk, other=bruno)
    assert code_of(lambda: invitations.invite(user=ana, match_id=match.pk, other=bruno)) == "already_invited"
    assert [i.pk for i in invitations.pending_for(bruno)] == [first.pk]
    assert any(f"social.{bruno.pk}" in update.frames and '"invitation"' in update.frames[f"social.{bruno.pk}"] for update in sent)

    invitations.accept(user=bruno, invitation_id=first.pk)  # takes the seat through the lobby's join
    assert match.seats.filter(user=bruno).exists()
    assert not invitations.pending_for(bruno).exists()
    assert code_of(lambda: invitations.decline(user=bruno, invitation_id=first.pk)) == "no_invitation"
    assert code_of(lambda: invitations.invite(user=ana, match_id=match.pk, other=bruno)) == "already_seated"

    second = invitations.invite(user=bruno, match_id=match.pk, other=carla)
    invitations.decline(user=carla, invitation_id=second.pk)
    answered = [u.frames[f"social.{bruno.pk}"] for u in sent if f"social.{bruno.pk}" in u.frames]
    assert '"declined"' in answered[-1] and "carla" in answered[-1]
    # asked again after declining: pending again
    invitations.invite(user=ana, match_id=match.pk, other=carla)
    third = invitations.invite(user=ana, match_id=match.pk, other=dino)
    assert invitations.pending_for(dino).exists()
    lobby.table_join(user=carla, match_id=match.pk)
    lobby.table_start(user=ana, match_id=match.pk)
    assert not invitations.pending_for(dino).exists()  # the table started: it expired
    assert code_of(lambda: invitations.accept(user=dino, invitation_id=third.pk)) == "no_invitation"
    assert code_of(lambda: invitations.invite(user=ana, match_id=match.pk, other=dino)) == "not_waiting"


def test_a_cancelled_table_takes_its_invitations_with_it(make_user):
    ana, bruno = make_user("ana"), make_user("bruno")
    match = lobby.table_create(user=ana, game="perudo", num_players=2, options={}, ranked=False)
    invitations.invite(user=ana, match_id=match.pk, other=bruno)
    lobby.table_cancel(user=ana, match_id=match.pk)
    assert not invitations.pending_for(bruno).exists()


def test_nobody_is_invited_to_a_table_whose_creator_blocked_them(make_user):
    ana, bruno, carla = make_user("ana"), make_user("bruno"), make_user("carla")
    match = lobby.table_create(user=ana, game="perudo", num_players=3, options={}, ranked=False)
    lobby.table_join(user=bruno, match_id=match.pk)
    blocks.block(user=ana, other=carla)
    assert code_of(lambda: invitations.invite(user=bruno, match_id=match.pk, other=carla)) == "blocked"


def test_search_finds_by_prefix_first_then_contains_and_leaves_out_bots_guests_and_banned(make_user):
    for name in ("Marco", "amarcord", "marcella", "robotmarc", "guestmarc", "bannedmarc"):
        make_user(name)
    robot = make_user("marcbot")
    robot.is_bot = True
    robot.save()
    User.objects.filter(username="guestmarc").update(is_guest=True)
    Sanction.objects.create(
        user=User.objects.get(username="bannedmarc"), kind=Sanction.Kind.BAN, reason="spam", by=make_user("mod")
    )
    found = [user.username for user in search_players("MARC")]
    assert found == ["marcella", "Marco", "amarcord", "robotmarc"]
    assert search_players("   ") == []
    assert len(search_players("a", limit=2)) == 2
    with pytest.raises(SocialError):
        search_players("x" * 151)


def test_the_friends_page_reads_in_a_fixed_number_of_queries(make_user, django_assert_max_num_queries):
    ana = make_user("ana")
    for index in range(8):
        other = make_user(f"friend{index}")
        friends.friend_request(user=other, other=ana)
        if index % 2:
            friends.friend_accept(user=ana, other=other)
        follows.follow(user=ana, other=other)
    with django_assert_max_num_queries(6):
        page = friends_page(ana)
        rows = [(f.username, f.online, f.table_id) for f in page["friends"]]
    assert len(rows) == 4 and len(page["requests_in"]) == 4 and len(page["following"]) == 8
