"""The per-move SQL (``turnengine.match_sql``) reads and writes exactly what the ORM does, on either database."""

from datetime import timedelta

import pytest
from django.db import connection, transaction
from django.utils import timezone

from turnengine import match_sql, services
from turnengine.models import Match, MatchAction

pytestmark = pytest.mark.django_db


def test_the_locked_row_carries_the_same_fields_as_the_orm_and_the_users_seat(start_table, make_user):
    match, users = start_table("spicy", 3)
    with transaction.atomic():
        locked = match_sql.lock_match(match.pk, users[2].pk)
        stranger = match_sql.lock_match(match.pk, make_user().pk)
        missing = match_sql.lock_match(match.pk + 1000, users[0].pk)
    assert locked.user_seat == 2 and stranger.user_seat is None and missing is None
    for field in Match._meta.concrete_fields:
        assert getattr(locked, field.attname) == getattr(match, field.attname), field.name


def test_written_fields_read_back_through_the_orm_unchanged(start_table):
    match, _users = start_table("perudo", 2)
    match.state = {**match.state, "note": "é 🎲", "nested": [[1, None, True]]}
    match.last_action_at = timezone.now() - timedelta(minutes=3)
    match.deadline_at = None
    match.version += 7
    match_sql.update_match(match, ("state", "last_action_at", "deadline_at", "version"))
    stored = Match.objects.get(pk=match.pk)
    assert stored.state == match.state
    assert stored.last_action_at == match.last_action_at and stored.deadline_at is None
    assert stored.version == match.version


def test_a_move_appends_its_actions_with_their_time_and_writes_the_match_in_one_round_trip_on_postgresql(
    start_table, django_assert_num_queries
):
    match, _users = start_table("perudo", 2)
    before = MatchAction.objects.filter(match=match).count()
    match.version += 1
    rows = [
        MatchAction(
            match=match, step=match.steps + k, version=match.version, seat=k, action={"k": k}, events=[]
        )
        for k in (1, 2)
    ]
    with django_assert_num_queries(1 if connection.vendor == "postgresql" else 2):
        match_sql.write_move(match, ("version",), rows)
    logged = list(MatchAction.objects.filter(match=match).order_by("step")[before:])
    assert [(row.seat, row.action, row.version) for row in logged] == [
        (1, {"k": 1}, match.version),
        (2, {"k": 2}, match.version),
    ]
    assert all(timezone.now() - row.created_at < timedelta(minutes=1) for row in logged)
    assert Match.objects.get(pk=match.pk).version == match.version


@pytest.mark.skipif(connection.vendor != "postgresql", reason="HOT updates are PostgreSQL's")
def test_a_move_rewrites_the_match_row_without_touching_its_indexes_on_postgresql(start_table):
    """No column a move changes is indexed, so PostgreSQL updates the row in place (a HOT update): an index on one
    of them would make every move write into every index of the table."""
    match, users = start_table("chinesecheckers", 2)
    hot_updates = "SELECT n_tup_upd, n_tup_hot_upd FROM pg_stat_xact_user_tables WHERE relname = %s"
    with transaction.atomic(), connection.cursor() as cursor:
        cursor.execute(hot_updates, [Match._meta.db_table])  # the counts run from the transaction's start
        updated_before, in_place_before = cursor.fetchone()
        for _move in range(3):
            match.refresh_from_db()
            seat = next(iter(match.rules.to_act(match.state)))
            action = match.rules.legal_actions(match.state, seat)[0]
            services.match_apply_action(
                match_id=match.pk, user=users[seat], expected_version=match.version, action=action
            )
        cursor.execute(hot_updates, [Match._meta.db_table])
        updated, in_place = cursor.fetchone()
    assert updated - updated_before == 3 and in_place - in_place_before == 3


@pytest.mark.skipif(connection.vendor != "postgresql", reason="HOT updates are PostgreSQL's")
def test_the_match_table_keeps_room_on_its_pages_for_in_place_updates_on_postgresql():
    """On full pages a HOT update has nowhere to put the row's new version (bench/ws_load.py: 60 % HOT, 90 % with
    the room)."""
    with connection.cursor() as cursor:
        cursor.execute("SELECT reloptions FROM pg_class WHERE relname = %s", [Match._meta.db_table])
        (options,) = cursor.fetchone()
    assert "fillfactor=80" in (options or [])
