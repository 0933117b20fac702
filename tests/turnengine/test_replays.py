"""Replays: every step of a match rebuilt from its log; hidden information only once the match is over."""

import random

import pytest
from django.urls import reverse

from tests.conftest import FAST_OPTIONS, play_one_random_action, play_to_the_end
from turnengine.replays import replay_frame, replay_seats

pytestmark = pytest.mark.django_db


def test_a_running_match_replays_only_your_own_view(client, start_table, make_user):
    match, users = start_table("perudo", 2)
    play_one_random_action(match, users, random.Random(1))
    client.force_login(users[1])
    assert replay_seats(match=match, user=users[1]) == [1]
    own = client.get(reverse("turnengine:replay_data", args=[match.pk]), {"seat": "1"})
    assert own.status_code == 200 and own.json()["view"] == match.rules.view(match.state, 1)
    assert client.get(reverse("turnengine:replay_data", args=[match.pk]), {"seat": "0"}).status_code == 403
    client.force_login(make_user())
    assert client.get(reverse("turnengine:replay_data", args=[match.pk]), {"seat": "0"}).status_code == 403
    public = client.get(reverse("turnengine:replay_data", args=[match.pk]), {"seat": ""})
    assert public.status_code == 200 and public.json()["seat"] is None


def test_each_step_shows_the_view_after_that_version(start_table):
    match, users = start_table("spicy", 2, FAST_OPTIONS["spicy"])
    rng = random.Random(4)
    views = {match.version: match.rules.view(match.state, 0)}
    for _ in range(6):
        play_one_random_action(match, users, rng)
        views[match.version] = match.rules.view(match.state, 0)
    for version, view in views.items():
        frame = replay_frame(match=match, seat=0, version=version)
        assert frame["view"] == view and frame["step"] == version and frame["legal"] == []


def test_a_finished_match_reveals_every_seat_to_anyone(client, start_table):
    match, users = start_table("perudo", 3)
    play_to_the_end(match, users)
    assert replay_seats(match=match, user=users[0]) == [None, 0, 1, 2]
    page = client.get(reverse("turnengine:replay", args=[match.pk]))
    assert page.status_code == 200
    for seat in ("0", "1", "2", ""):
        frame = client.get(
            reverse("turnengine:replay_data", args=[match.pk]), {"seat": seat, "step": "2"}
        ).json()
        assert frame["step"] == 2
    last = client.get(reverse("turnengine:replay_data", args=[match.pk]), {"seat": "2"}).json()
    assert last["status"] == "finished" and last["result"] == match.result


def test_an_unstarted_table_has_no_replay(client, make_user):
    from lobby import services

    match = services.table_create(user=make_user(), game="perudo", num_players=2, options={}, ranked=False)
    assert client.get(reverse("turnengine:replay", args=[match.pk])).status_code == 404
