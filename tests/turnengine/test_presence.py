"""Presence counted from live connections (turnengine.presence): the sweeper closes the connections of a server
process that stopped ticking, exactly as their sockets' own closes would; a process's tick reconciles its rows with
the sockets it holds; the next life of a server closes its previous life's rows; the log's connection lines are
kept and come back in the snapshot, in their place."""

import json
import random
from datetime import timedelta

import pytest
from django.utils import timezone

from ratings.models import Rating
from ratings.selectors import match_pool
from realtime.consumers import MatchConsumer
from tests.conftest import play_one_random_action
from turnengine import clocks, presence, seat_frames, spectating, timers
from turnengine.models import Connection, Match, PresenceNotice, ServerProcess

pytestmark = pytest.mark.django_db

TICK = timedelta(seconds=5)


@pytest.fixture(autouse=True)
def five_second_ticks(settings):
    settings.TAPETE_PRESENCE_TICK_SECONDS = TICK.total_seconds()


def _open(match, seat, process="alive", key=None, now=None):
    key = key or f"{process}-{match.pk}-{seat}-{Connection.objects.count()}"
    presence.connection_open(
        key=key, process_id=process, process_name=f"host:{process}", match_id=match.pk, seat=seat, now=now
    )
    return key


def _seat_facts(match):
    match.refresh_from_db()
    return {
        seat.index: (seat.connections, clocks.offline_since(match.clock, seat.index))
        for seat in match.seats.all()
    }


def _presence_frames(updates, match):
    return [json.loads(update.frames[match.group_name("all")]) for update in updates if update.frames]


def test_the_sweeper_closes_a_dead_process_connections_as_their_own_closes_would(start_table):
    match, _users = start_table("perudo", 3)
    awaited = min(match.rules.awaited(match.state))
    bank_deadline = match.deadline_at
    long_ago = timezone.now() - 10 * TICK
    _open(match, awaited, process="dead", now=long_ago)
    _open(match, awaited, process="dead", now=long_ago)  # a second tab on the same dead server
    other = next(seat for seat in range(3) if seat != awaited)
    _open(match, other, process="dead", now=long_ago)
    _open(match, None, process="dead", now=long_ago)
    survivor = next(seat for seat in range(3) if seat not in (awaited, other))
    _open(match, survivor, process="alive")
    _open(match, None, process="alive")
    assert Match.objects.get(pk=match.pk).spectator_connections == 2

    # Seen within the bound: nothing is closed yet.
    assert presence.sweep_dead_processes(now=long_ago + 2 * TICK) == []
    updates = presence.sweep_dead_processes()

    facts = _seat_facts(match)
    assert facts[awaited][0] == 0 and facts[awaited][1] is not None
    assert facts[other][0] == 0 and facts[other][1] is not None
    assert facts[survivor] == (1, None)
    assert Match.objects.get(pk=match.pk).spectator_connections == 1  # the live process's spectator
    assert not ServerProcess.objects.filter(pk="dead").exists()
    assert set(Connection.objects.values_list("process_id", flat=True)) == {"alive"}
    # The grace started for the seat the game awaits: its deadline moved to the end of the grace.
    grace_end = facts[awaited][1] + clocks.DEFAULT_GRACE_MS
    assert clocks.epoch_ms(match.deadline_at) == grace_end < clocks.epoch_ms(bank_deadline)
    frames = _presence_frames(updates, match)
    assert len(frames) == 2 and not any(frame["d"]["notice"] for frame in frames)  # the log waits (grace)
    online = {player["seat"]: player["online"] for player in frames[-1]["d"]["players"]}
    assert online == {awaited: False, other: False, survivor: True}


def test_the_sweep_task_settles_dead_processes_with_the_deadlines(start_table):
    from turnengine.tasks import sweep_deadlines

    match, _users = start_table("perudo", 2)
    _open(match, 0, process="dead", now=timezone.now() - 10 * TICK)
    summary = sweep_deadlines()
    assert summary["presence_settled"] == 1
    assert _seat_facts(match)[0][0] == 0


def test_a_tick_closes_rows_of_sockets_the_process_no_longer_holds_and_counts_the_missing_ones(start_table):
    match, _users = start_table("perudo", 2)
    started = timezone.now()
    kept = _open(match, 0, process="p1")
    lost = _open(match, 1, process="p1")  # its close never reached the database
    updates = presence.process_tick(
        process_id="p1",
        process_name="host:p1",
        started_at=started,
        live={kept: (match.pk, 0), "unwritten": (match.pk, None)},  # an open whose write failed
    )
    assert set(Connection.objects.values_list("key", flat=True)) == {kept, "unwritten"}
    assert _seat_facts(match)[1][0] == 0 and _seat_facts(match)[1][1] is not None
    assert Match.objects.get(pk=match.pk).spectator_connections == 1
    (frame,) = _presence_frames(updates, match)
    assert frame["d"]["players"][1]["online"] is False
    assert lost not in Connection.objects.values_list("key", flat=True)


def test_a_process_given_up_for_dead_counts_its_sockets_again_at_its_next_tick(start_table):
    match, _users = start_table("perudo", 2)
    long_ago = timezone.now() - 10 * TICK
    key = _open(match, 0, process="stalled", now=long_ago)
    presence.sweep_dead_processes()
    assert _seat_facts(match)[0][0] == 0
    updates = presence.process_tick(
        process_id="stalled", process_name="host:stalled", started_at=long_ago, live={key: (match.pk, 0)}
    )
    assert ServerProcess.objects.filter(pk="stalled").exists()
    assert _seat_facts(match)[0] == (1, None)
    assert _presence_frames(updates, match)[0]["d"]["players"][0]["online"] is True


def test_the_next_life_of_a_server_closes_the_rows_of_its_previous_life_on_its_first_tick(start_table):
    match, _users = start_table("perudo", 2)
    _open(match, 0, process="old-life")  # seen just now: the sweeper would still wait
    _open(match, 1, process="elsewhere")
    presence.process_tick(
        process_id="new-life", process_name="host:old-life", started_at=timezone.now(), live={}, first=True
    )
    assert not ServerProcess.objects.filter(pk="old-life").exists()
    assert _seat_facts(match)[0][0] == 0 and _seat_facts(match)[1] == (1, None)


def test_opening_and_closing_are_idempotent_and_say_it_once(start_table):
    """A socket's open is written by its own socket and, if it ticks first, by its process's ticker; its close by
    the socket and by the ticker or the sweeper: the second write of each changes nothing and sends nothing (a
    second ``presence`` frame, the same, came at a moment of its own to tests that wait for silence)."""
    match, _users = start_table("perudo", 2)
    opened = presence.connection_open(
        key="same", process_id="alive", process_name="host:alive", match_id=match.pk, seat=0
    )
    assert _presence_frames([opened], match)[0]["d"]["players"][0]["online"]
    again = presence.connection_open(
        key="same", process_id="alive", process_name="host:alive", match_id=match.pk, seat=0
    )
    assert _seat_facts(match)[0] == (1, None)
    assert not again
    closed = presence.connection_close(key="same", match_id=match.pk, seat=0)
    assert not _presence_frames([closed], match)[0]["d"]["players"][0]["online"]
    first_offline = _seat_facts(match)[0]
    update = presence.connection_close(key="same", match_id=match.pk, seat=0)
    assert _seat_facts(match)[0] == first_offline  # a second close neither counts nor restarts the grace
    assert not update


def test_the_snapshot_log_has_the_connection_lines_in_their_place(start_table):
    match, users = start_table("perudo", 2)
    rng = random.Random(1)
    key = _open(match, 0)
    presence.connection_close(key=key, match_id=match.pk, seat=0)
    play_one_random_action(match, users, rng)
    moved_at = match.version
    _open(match, 0, now=timezone.now() + timedelta(milliseconds=presence.real_absence_ms(clocks.of_match(match))))
    timers.seat_leave(match_id=match.pk, user=users[1])

    log = json.loads(seat_frames.match_snapshot(match=Match.objects.get(pk=match.pk), seat=None))["d"]["events"]
    lines = [event for event in log if event["type"] in presence.NOTICE_TYPES]
    assert [line["type"] for line in lines] == ["reconnected", "left"]
    positions = [index for index, event in enumerate(log) if event["type"] in presence.NOTICE_TYPES]
    public = seat_frames.visible_events  # the spectator's log
    before_move = sum(len(public(row.events, None)) for row in match.actions.filter(version__lt=moved_at))
    of_the_move = sum(len(public(row.events, None)) for row in match.actions.filter(version=moved_at))
    # Each line after the actions of the version it happened at, before the next version's.
    assert positions == [before_move + of_the_move, len(log) - 1]


def test_the_snapshot_keeps_only_the_latest_connection_lines(start_table):
    match, _users = start_table("perudo", 2)
    older = {"type": "reconnected", "seat": 1, "away_s": 0}  # as many older lines as a snapshot keeps, less one
    kept = seat_frames.SNAPSHOT_NOTICES
    PresenceNotice.objects.bulk_create(
        PresenceNotice(match=match, version=match.version, notice=older) for _ in range(kept - 1)
    )
    grace = timedelta(milliseconds=presence.real_absence_ms(clocks.of_match(match)))
    key = _open(match, 0)
    for times in range(1, 4):  # three real disconnections, each longer than the one before
        presence.connection_close(key=key, match_id=match.pk, seat=0)
        key = _open(match, 0, now=timezone.now() + times * grace)
    log = json.loads(seat_frames.match_snapshot(match=match, seat=0))["d"]["events"]
    lines = [event for event in log if event["type"] in presence.NOTICE_TYPES]
    seconds = grace // timedelta(seconds=1)
    assert len(lines) == kept and lines[: kept - 3] == [older] * (kept - 3)  # the two oldest left out
    assert [line["away_s"] for line in lines[-3:]] == [seconds, 2 * seconds, 3 * seconds]


def test_opening_a_connection_registers_its_process_life_with_the_row(start_table):
    match, _users = start_table("chinesecheckers")
    _open(match, 0, process="newlife")
    life = ServerProcess.objects.get(pk="newlife")
    assert life.name == "host:newlife"
    assert Connection.objects.filter(process_id="newlife", match=match, seat=0).count() == 1
    seen = life.seen_at
    _open(match, 1, process="newlife", now=seen + TICK)
    assert ServerProcess.objects.get(pk="newlife").seen_at == seen + TICK


def test_the_players_list_shows_each_rating_in_the_tables_own_pool_in_one_query(
    start_table, django_assert_num_queries
):
    match, (rated, unrated) = start_table("chinesecheckers")
    pool = match_pool(match)
    Rating.objects.create(user=rated, game=match.game, pool=pool, rating=1612.4, games=7)
    Rating.objects.create(user=rated, game=match.game, pool=f"{pool}-elsewhere", rating=1900, games=3)
    Rating.objects.create(user=unrated, game="perudo", pool=pool, rating=1800, games=3)
    _open(match, 0)
    match.refresh_from_db()
    with django_assert_num_queries(1):
        players = seat_frames.seats_public(match)
    assert [(p["seat"], p["username"], p["rating"], p["online"]) for p in players] == [
        (0, rated.username, 1612, True),
        (1, unrated.username, None, False),
    ]
    assert not any(p["bot"] or p["guest"] or p["absent"] or p["left"] for p in players)


def test_a_seats_socket_finds_its_table_seat_and_lockout_in_one_query(start_table, django_assert_num_queries):
    match, users = start_table("chinesecheckers")
    socket = MatchConsumer()
    socket.user, socket.match_id = users[1], match.pk
    with django_assert_num_queries(2):  # the table with the seat and the lockout; then whom the player blocks
        assert socket._resolve() is None
    assert (socket.seat, socket.match_version, socket.seat_group) == (1, match.version, match.group_name(1))


def test_the_spectators_of_a_table_nobody_watches_cost_no_query(start_table, make_user, django_assert_num_queries):
    match, _users = start_table("chinesecheckers")
    with django_assert_num_queries(0):
        assert spectating.spectators_data(match) == {"count": 0, "users": [], "more": 0}
    watcher = make_user()
    presence.connection_open(
        key="w1", process_id="alive", process_name="host:alive", match_id=match.pk, seat=None, user_id=watcher.pk
    )
    presence.connection_open(key="w2", process_id="alive", process_name="host:alive", match_id=match.pk, seat=None)
    match.refresh_from_db()
    assert spectating.spectators_data(match) == {"count": 2, "users": [watcher.username], "more": 0}
