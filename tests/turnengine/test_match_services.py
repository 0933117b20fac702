"""The turn engine's services against the database: apply, refuse, log, finish, replay."""

import hashlib
import json
import random
from datetime import timedelta

import pytest
from tapete_sdk.plugin import CHANCE

from tests.conftest import (
    FAST_OPTIONS,
    GAME_KEYS,
    committed_updates,
    play_one_random_action,
    play_to_the_end,
    socket_presence,
)
from turnengine import chat, seat_frames, services
from turnengine.errors import EngineError
from turnengine.models import Match, MatchAction
from turnengine.updates import Update

pytestmark = pytest.mark.django_db


def _first_legal(match):
    seat = min(match.rules.to_act(match.state))
    return seat, match.rules.legal_actions(match.state, seat)[0]


@pytest.mark.parametrize("game", GAME_KEYS)
def test_starting_a_table_deals_through_logged_chance_steps(start_table, game):
    match, _users = start_table(game)
    assert match.status == Match.Status.ACTIVE
    assert match.version == 1
    assert CHANCE not in match.rules.to_act(match.state)
    assert match.seed_hash == hashlib.sha256(match.seed.encode()).hexdigest()
    deals = CHANCE in match.rules.to_act(match.rules.initial_state(match.options, match.num_players))
    assert MatchAction.objects.filter(match=match, seat=CHANCE).exists() == deals


@pytest.mark.parametrize("game", GAME_KEYS)
def test_a_legal_action_bumps_the_version_and_is_logged(start_table, game):
    match, users = start_table(game)
    seat, action = _first_legal(match)
    services.match_apply_action(match_id=match.pk, user=users[seat], expected_version=1, action=action)
    match.refresh_from_db()
    assert match.version == 2
    logged = MatchAction.objects.filter(match=match, version=2).order_by("step").first()
    assert (logged.seat, logged.action) == (seat, action)


def test_a_stale_version_is_refused_and_changes_nothing(start_table):
    match, users = start_table("perudo")
    seat, action = _first_legal(match)
    before = (match.state, match.version, MatchAction.objects.count())
    with pytest.raises(EngineError) as refused:
        services.match_apply_action(match_id=match.pk, user=users[seat], expected_version=0, action=action)
    assert refused.value.code == "stale"
    assert refused.value.version == 1
    match.refresh_from_db()
    assert (match.state, match.version, MatchAction.objects.count()) == before


def test_an_illegal_action_is_refused_with_the_rules_code(start_table):
    match, users = start_table("perudo")
    seat = min(match.rules.to_act(match.state))
    with pytest.raises(EngineError) as refused:
        services.match_apply_action(
            match_id=match.pk,
            user=users[seat],
            expected_version=1,
            action={"type": "bid", "quantity": 0, "face": 9},
        )
    assert refused.value.code not in {"stale", "not_seated"}
    assert refused.value.message
    match.refresh_from_db()
    assert match.version == 1


def test_acting_at_a_table_you_do_not_sit_at_is_refused(start_table, make_user):
    match, _users = start_table("perudo")
    _seat, action = _first_legal(match)
    with pytest.raises(EngineError) as refused:
        services.match_apply_action(match_id=match.pk, user=make_user(), expected_version=1, action=action)
    assert refused.value.code == "not_seated"


def test_acting_out_of_turn_is_refused(start_table):
    match, users = start_table("chinesecheckers")
    (current,) = match.rules.to_act(match.state)
    other = 1 - current
    _seat, action = _first_legal(match)
    with pytest.raises(EngineError) as refused:
        services.match_apply_action(match_id=match.pk, user=users[other], expected_version=1, action=action)
    assert refused.value.code not in {"stale", "not_seated"}


def test_an_unknown_match_is_reported(make_user):
    with pytest.raises(EngineError) as refused:
        services.match_apply_action(
            match_id=999_999, user=make_user(), expected_version=1, action={"type": "dudo"}
        )
    assert refused.value.code == "not_found"


def test_each_seat_frame_carries_only_that_seats_view(start_table):
    match, users = start_table("perudo", num_players=3)
    socket_presence(match, None, +1)  # someone watches
    (update,) = committed_updates(play_one_random_action, match, users, random.Random(3))
    for seat in range(3):
        frame = json.loads(update.frames[match.group_name(seat)])
        assert frame["t"] == "view" and frame["v"] == match.version
        assert frame["d"]["view"] == match.rules.view(match.state, seat)
        assert frame["d"]["legal"] == match.rules.legal_actions(match.state, seat)
    spectators = json.loads(update.frames[match.group_name(None)])
    assert spectators["d"]["view"] == match.rules.view(match.state, None)
    assert spectators["d"]["legal"] == []
    assert spectators["d"]["seed"] is None


def moved(match, users, rng) -> Update:
    (update,) = committed_updates(play_one_random_action, match, users, rng)
    return update


def test_the_spectators_frame_is_built_only_while_someone_watches(start_table):
    match, users = start_table("perudo", num_players=2)
    rng = random.Random(5)
    spectators = match.group_name(None)
    assert spectators not in moved(match, users, rng).frames
    socket_presence(match, None, +1)
    socket_presence(match, None, +1)
    socket_presence(match, None, -1)
    assert Match.objects.get(pk=match.pk).spectator_connections == 1
    assert spectators in moved(match, users, rng).frames
    socket_presence(match, None, -1)
    socket_presence(match, None, -1)  # a duplicate close never makes it negative
    assert Match.objects.get(pk=match.pk).spectator_connections == 0
    assert spectators not in moved(match, users, rng).frames
    socket_presence(match, 0, -1)  # nor does a seat's count
    assert match.seats.get(index=0).connections == 0


@pytest.mark.parametrize("game", GAME_KEYS)
def test_a_finished_match_publishes_its_seed_and_replays_exactly(start_table, game):
    match, users = start_table(game, options=FAST_OPTIONS[game])
    play_to_the_end(match, users)
    assert match.status == Match.Status.FINISHED
    assert match.result["ranking"]
    assert services.match_replay_state(match=match) == match.state
    logged_chance = list(
        MatchAction.objects.filter(match=match, seat=CHANCE).order_by("step").values_list("action", flat=True)
    )
    assert services.match_recompute_chance(match=match) == logged_chance
    snapshot = json.loads(seat_frames.match_snapshot(match=match, seat=None))
    assert snapshot["d"]["seed"] == match.seed


def test_no_action_is_accepted_after_the_end(start_table):
    match, users = start_table("perudo")
    play_to_the_end(match, users)
    with pytest.raises(EngineError) as refused:
        services.match_apply_action(
            match_id=match.pk, user=users[0], expected_version=match.version, action={"type": "dudo"}
        )
    assert refused.value.code == "not_active"


def test_the_action_log_is_append_only(start_table):
    match, _users = start_table("perudo")
    row = MatchAction.objects.filter(match=match).first()
    row.action = {"type": "forged"}
    with pytest.raises(PermissionError):
        row.save()
    with pytest.raises(PermissionError):
        row.delete()


def test_chat_is_persisted_and_length_limited(start_table):
    match, users = start_table("spicy")
    update = chat.chat_post(match=match, user=users[0], seat=0, text="  hola  ", max_length=10)
    message = update.messages[match.group_name("all")]  # a chat.line naming its author, for readers who block
    assert message["type"] == "chat.line" and message["author"] == users[0].pk
    frame = json.loads(message["text"])
    assert frame["t"] == "chat" and frame["d"]["text"] == "hola"
    assert match.chat.get().text == "hola"
    for bad in ["", "   ", None, 42, "x" * 11]:
        with pytest.raises(EngineError):
            chat.chat_post(match=match, user=users[0], seat=0, text=bad, max_length=10)
    assert match.chat.count() == 1


def test_spicy_grace_period_holds_the_next_play_back_until_it_has_passed(start_table):
    match, users = start_table("spicy", 2, {"challengeGraceMs": 3000})
    rules = match.rules
    (seat,) = rules.awaited(match.state)
    play = next(a for a in rules.legal_actions(match.state, seat) if a["type"] == "play")
    services.match_apply_action(
        match_id=match.pk, user=users[seat], expected_version=match.version, action=play
    )
    match.refresh_from_db()
    (following,) = rules.awaited(match.state)
    follow = next(a for a in rules.legal_actions(match.state, following) if a["type"] == "play")
    assert rules.action_delay_ms(match.state, following, follow) == 3000
    with pytest.raises(EngineError) as refused:
        services.match_apply_action(
            match_id=match.pk, user=users[following], expected_version=match.version, action=follow
        )
    assert refused.value.code == "too_early"
    Match.objects.filter(pk=match.pk).update(last_action_at=match.last_action_at - timedelta(seconds=3.1))
    services.match_apply_action(
        match_id=match.pk, user=users[following], expected_version=match.version, action=follow
    )
    assert Match.objects.get(pk=match.pk).version == match.version + 1
