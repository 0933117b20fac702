"""The social pages and forms: bad input (unknown names and invitations, GETs on forms, long or empty names,
foreign ``next`` addresses) answers a clear refusal with a code or a 404 and changes nothing, never a 500; the
profile's buttons show each state; the header counts the invitations; a table page hides a blocked player's chat."""


import pytest
from django.contrib.auth.models import Group
from django.contrib.messages import get_messages
from django.urls import reverse

from lobby import services as lobby
from moderation.groups import MODERATORS
from social import blocks, follows, friends
from social.models import Follow, Friendship, Invitation

pytestmark = pytest.mark.django_db


def codes(response) -> list[str]:
    """The codes of the refusals this response's request added (earlier requests' messages left aside)."""
    added = get_messages(response.wsgi_request)._queued_messages
    return [tag for message in added for tag in message.extra_tags.split() if tag.startswith("code-")]


def test_the_buttons_follow_befriend_and_block_with_clear_states(client, make_user):
    ana, bruno = make_user("ana"), make_user("bruno")
    client.force_login(ana)
    profile = reverse("profile", args=["bruno"])
    page = client.get(profile).content.decode()
    assert "Follow" in page and "Add friend" in page and "Block" in page
    assert client.post(reverse("social:follow", args=["bruno"])).status_code == 302
    assert client.post(reverse("social:friend", args=["bruno"])).status_code == 302
    page = client.get(profile).content.decode()
    assert "Following" in page and "Friend request sent" in page
    client.force_login(bruno)
    assert "Accept friend request" in client.get(reverse("profile", args=["ana"])).content.decode()
    client.post(reverse("social:accept", args=["ana"]))
    client.force_login(ana)
    assert "✓ Friends" in client.get(profile).content.decode()
    client.post(reverse("social:block", args=["bruno"]))
    page = client.get(profile).content.decode()
    assert "Unblock" in page and "Add friend" not in page
    assert not Follow.objects.exists() and not Friendship.objects.exists()
    assert client.get(reverse("profile", args=["ana"])).content.decode().count("data-social-buttons") == 0  # one's own


def test_bad_input_is_refused_with_a_code_and_never_a_500(client, make_user):
    ana = make_user("ana")
    make_user("bruno")
    robot = make_user("robot")
    robot.is_bot = True
    robot.save()
    # not logged in: the log-in page
    assert client.post(reverse("social:follow", args=["bruno"])).status_code == 302
    assert not Follow.objects.exists()
    client.force_login(ana)
    assert client.post(reverse("social:follow", args=["nobody-here"])).status_code == 404
    assert client.get(reverse("social:follow", args=["bruno"])).status_code == 405
    assert client.post("/players/bruno/dance/").status_code == 404
    response = client.post(reverse("social:invitation_accept", args=[123456]))
    assert response.status_code == 302 and codes(response) == ["code-no_invitation"]
    response = client.post(reverse("social:invitation_decline", args=[123456]))
    assert codes(response) == ["code-no_invitation"]
    response = client.post(reverse("social:follow", args=["ana"]))
    assert codes(response) == ["code-yourself"]
    response = client.post(reverse("social:friend", args=["robot"]))
    assert codes(response) == ["code-bot_social"]
    # a foreign "next" is ignored: back to the profile
    response = client.post(reverse("social:follow", args=["bruno"]), {"next": "https://evil.example/"})
    assert response.url == reverse("profile", args=["bruno"])
    response = client.post(reverse("social:unfollow", args=["bruno"]), {"next": "/friends/"})
    assert response.url == "/friends/"
    # the search: empty, long, odd characters
    assert client.get(reverse("social:search"), {"q": ""}).status_code == 200
    response = client.get(reverse("social:search"), {"q": "x" * 400})
    assert response.status_code == 400 and 'data-code="query_too_long"' in response.content.decode()
    assert client.get(reverse("social:search"), {"q": "%_\\'\"<b>"}).status_code == 200
    # invitations: unknown table, unknown player, empty and long names
    table = lobby.table_create(user=ana, game="perudo", num_players=3, options={}, ranked=False)
    for username, code in (("", "no_such_player"), ("x" * 500, "no_such_player"), ("nobody", "no_such_player"),
                           ("robot", "bot_social")):
        response = client.post(reverse("social:invite", args=[table.pk]), {"username": username})
        assert codes(response) == [f"code-{code}"]
    response = client.post(reverse("social:invite", args=[10**9]), {"username": "bruno"})
    assert codes(response) == ["code-no_such_table"]
    assert not Invitation.objects.exists()


def test_inviting_from_the_waiting_room_and_answering_from_the_header(client, make_user):
    ana, bruno = make_user("ana"), make_user("bruno")
    friends.friend_request(user=bruno, other=ana)
    friends.friend_accept(user=ana, other=bruno)
    table = lobby.table_create(user=ana, game="perudo", num_players=3, options={}, ranked=False)
    client.force_login(ana)
    waiting = client.get(reverse("lobby:table", args=[table.pk])).content.decode()
    assert "Invite a player" in waiting and "Invite bruno" in waiting  # a friend is one click away
    response = client.post(reverse("social:invite", args=[table.pk]), {"username": "BRUNO"})  # any case
    assert codes(response) == []
    client.force_login(bruno)
    home = client.get(reverse("lobby:home")).content.decode()
    assert 'data-invitation-count>1<' in home and f"ana invites you to Perudo table #{table.pk}" in home
    invitation = Invitation.objects.get()
    response = client.post(reverse("social:invitation_accept", args=[invitation.pk]))
    assert response.url == reverse("lobby:table", args=[table.pk])
    assert table.seats.filter(user=bruno).exists()
    assert 'data-invitation-count hidden>0<' in client.get(reverse("lobby:home")).content.decode()
    client.force_login(ana)
    assert "accepted" in client.get(reverse("lobby:table", args=[table.pk])).content.decode()


def test_the_friends_page_and_its_fragment(client, make_user):
    ana, bruno, carla = make_user("ana"), make_user("bruno"), make_user("carla")
    friends.friend_request(user=bruno, other=ana)
    friends.friend_accept(user=ana, other=bruno)
    friends.friend_request(user=carla, other=ana)
    follows.follow(user=ana, other=carla)
    blocks.block(user=ana, other=make_user("dino"))
    table = lobby.table_create(user=bruno, game="perudo", num_players=2, options={}, ranked=False)
    client.force_login(ana)
    page = client.get(reverse("social:friends")).content.decode()
    assert "Friend requests" in page and "carla" in page and f"at table #{table.pk}" in page and "dino" in page
    fragment = client.get(reverse("social:friends"), headers={"X-Requested-With": "fetch"})
    assert "<html" not in fragment.content.decode() and "bruno" in fragment.content.decode()
    assert client.get(reverse("social:invitations")).status_code == 200


def test_a_table_page_no_longer_carries_whom_its_reader_blocked(client, start_table):
    """The server keeps a blocked player's chat from the blocker's sockets (tests/social/test_block_chat.py): the
    page holds no list of names for the browser to hide."""
    match, users = start_table("perudo", 2)
    blocks.block(user=users[0], other=users[1])
    client.force_login(users[0])
    page = client.get(reverse("lobby:table", args=[match.pk])).content.decode()
    assert "blocked-names" not in page


def test_pages_speak_french_and_italian(client, make_user):
    ana = make_user("ana")
    make_user("bruno")
    client.force_login(ana)
    for language, words in (("fr", "Ajouter"), ("it", "Aggiungi")):
        client.cookies["django_language"] = language
        assert words in client.get(reverse("profile", args=["bruno"])).content.decode()



def test_moderators_read_the_social_rows_in_admin_without_changing_them(client, make_user):
    moderator = make_user("mira")
    moderator.is_staff = True
    moderator.save()
    moderator.groups.add(Group.objects.get(name=MODERATORS))
    ana, bruno = make_user("ana"), make_user("bruno")
    blocks.block(user=ana, other=bruno)
    client.force_login(moderator)
    for model in ("follow", "friendship", "block", "invitation"):
        assert client.get(f"/admin/social/{model}/").status_code == 200
    assert "bruno" in client.get("/admin/social/block/").content.decode()
    assert client.get("/admin/social/block/add/").status_code == 403
