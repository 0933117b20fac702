"""A player blocked by a table's creator is refused a seat there by the engine's one check of who may sit
(``turnengine.writer.seat_refusal``, code ``blocked_by_creator``): through the lobby's join, the page, an invitation
and the Bot API's join alike, and nothing is written. The creator's other tables and other creators' tables seat them.
"""

import pytest
from django.test import Client
from django.urls import reverse

from botapi.tokens import token_create
from lobby import services as lobby
from lobby.errors import LobbyError
from social import blocks
from turnengine.models import Seat
from turnengine.writer import seat_refusal

pytestmark = pytest.mark.django_db


def test_the_creator_who_blocked_a_player_keeps_them_from_a_seat(make_user):
    ana, bruno, carla = make_user("ana"), make_user("bruno"), make_user("carla")
    blocked_table = lobby.table_create(user=ana, game="perudo", num_players=3, options={}, ranked=False)
    blocks.block(user=ana, other=bruno)
    assert seat_refusal(blocked_table, bruno).code == "blocked_by_creator"
    assert seat_refusal(blocked_table, ana) is None
    with pytest.raises(LobbyError) as refused:
        lobby.table_join(user=bruno, match_id=blocked_table.pk)
    assert refused.value.code == "blocked_by_creator"
    assert not Seat.objects.filter(match=blocked_table, user=bruno).exists()
    lobby.table_join(user=carla, match_id=blocked_table.pk)  # others sit as before

    # the blocked player's own table and a third player's table are theirs to join
    carlas = lobby.table_create(user=carla, game="perudo", num_players=3, options={}, ranked=False)
    lobby.table_join(user=bruno, match_id=carlas.pk)
    lobby.table_join(user=ana, match_id=carlas.pk)  # blocking is about one's own tables only

    blocks.unblock(user=ana, other=bruno)
    lobby.table_join(user=bruno, match_id=blocked_table.pk)


def test_the_join_page_says_why(client, make_user):
    ana, bruno = make_user("ana"), make_user("bruno")
    table = lobby.table_create(user=ana, game="perudo", num_players=2, options={}, ranked=False)
    blocks.block(user=ana, other=bruno)
    client.force_login(bruno)
    response = client.post(reverse("lobby:join", args=[table.pk]), follow=True)
    assert response.status_code == 200
    assert "its creator blocked you" in response.content.decode()
    assert not Seat.objects.filter(match=table, user=bruno).exists()


def test_the_bot_api_answers_the_code(make_user, settings):
    settings.PASSWORD_HASHERS = ["django.contrib.auth.hashers.MD5PasswordHasher"]
    ana, bruno = make_user("ana"), make_user("bruno")
    table = lobby.table_create(user=ana, game="perudo", num_players=2, options={}, ranked=False)
    blocks.block(user=ana, other=bruno)
    _token, raw = token_create(user=bruno, name="test", scopes=["play", "read"])
    answer = Client().post(
        f"/api/tables/{table.pk}/join", {}, content_type="application/json", headers={"Authorization": f"Bearer {raw}"}
    )
    assert answer.status_code == 403, answer.content
    assert answer.json()["code"] == "blocked_by_creator" and answer.json()["message"]
    assert not Seat.objects.filter(match=table, user=bruno).exists()
