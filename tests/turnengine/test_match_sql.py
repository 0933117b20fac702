"""The per-move SQL (``turnengine.match_sql``) reads and writes exactly what the ORM does, on either database."""

from datetime import timedelta

import pytest
from django.db import connection, transaction
from django.utils import timezone

from ratings.models import RatingChange
from turnengine import match_cache, match_sql, outbox, services
from turnengine.models import Match, MatchAction

pytestmark = pytest.mark.django_db


def play_first_moves(match, users, count: int) -> None:
    """``count`` moves at ``match``, each the first legal action of the seat to act, through the engine's service."""
    for _move in range(count):
        match.refresh_from_db()
        seat = next(iter(match.rules.to_act(match.state)))
        action = match.rules.legal_actions(match.state, seat)[0]
        services.match_apply_action(
            match_id=match.pk, user=users[seat], expected_version=match.version, action=action
        )


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
        play_first_moves(match, users, 3)
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


# --- the optimistic move (PostgreSQL) ---------------------------------------------------------------------------

def optimistic(test):
    """A test of the optimistic move, PostgreSQL's, whose write is autocommitted (so the frames leave)."""
    return pytest.mark.skipif(connection.vendor != "postgresql", reason="the optimistic move is PostgreSQL's")(
        pytest.mark.django_db(transaction=True)(test)
    )


def _play_first_legal(match, users):
    match.refresh_from_db()
    seat = next(iter(match.rules.to_act(match.state)))
    action = match.rules.legal_actions(match.state, seat)[0]
    collected = []
    outbox.collect_into(
        collected,
        services.match_apply_action,
        match_id=match.pk,
        user=users[seat],
        expected_version=match.version,
        action=action,
    )
    return collected


@optimistic
def test_a_move_from_the_process_copy_of_its_match_is_one_statement(start_table, django_assert_num_queries):
    match, users = start_table("chinesecheckers", 2)
    _play_first_legal(match, users)  # the process keeps a copy of the match as it wrote it
    match.refresh_from_db()
    seat = next(iter(match.rules.to_act(match.state)))
    action = match.rules.legal_actions(match.state, seat)[0]
    with django_assert_num_queries(1):
        services.match_apply_action(
            match_id=match.pk, user=users[seat], expected_version=match.version, action=action
        )
    stored = Match.objects.get(pk=match.pk)
    assert stored.version == match.version + 1 and stored.steps == match.steps + 1
    assert MatchAction.objects.filter(match=match, version=stored.version, seat=seat).count() == 1


@optimistic
def test_a_row_written_since_the_copy_was_kept_is_read_again_and_what_was_written_stays(start_table):
    """Another process (presence, a deadline, a moderator) may write the row without a new version: the move made
    from the stale copy is refused by the database and made again from the row, losing nothing of that write."""
    match, users = start_table("chinesecheckers", 2)
    _play_first_legal(match, users)
    Match.objects.filter(pk=match.pk).update(spectator_connections=2)  # a watcher arrived, in another process
    updates = _play_first_legal(match, users)
    stored = Match.objects.get(pk=match.pk)
    assert stored.spectator_connections == 2 and stored.version == match.version + 1
    # The frames were built from the row as it is: the new watcher gets the spectators' view.
    assert match.group_name(None) in updates[-1].frames


@optimistic
def test_a_move_at_a_version_the_copy_has_not_reached_reads_the_row(start_table):
    """A move made through another process leaves this process's copy behind: the move at the newer version reads
    the row instead of calling it stale."""
    match, users = start_table("chinesecheckers", 2)
    _play_first_legal(match, users)
    match.refresh_from_db()
    seat = next(iter(match.rules.to_act(match.state)))
    with transaction.atomic():  # as another process would: under the lock, leaving this process's copy alone
        locked = match_sql.lock_match(match.pk, users[seat].pk)
        locked.version += 1
        match_sql.update_match(locked, ("version",))
    kept = match_cache.recall(match.pk)
    assert kept is not None and kept[0].version == match.version
    bumped = match.version + 1
    _play_first_legal(match, users)  # at the newer version
    assert Match.objects.get(pk=match.pk).version == bumped + 1


@optimistic
def test_a_move_that_finishes_a_ranked_game_is_written_under_the_lock_with_its_ratings(start_table):
    """The optimistic write is one statement; a finish settles the ratings in the result's transaction, so the
    finishing move is made again under the lock, and the game is rated once."""
    match, users = start_table("tictactoe", 2, ranked=True)
    for seat, cell in [(0, 0), (1, 3), (0, 1), (1, 4), (0, 2)]:  # seat 0: three in the top row
        match.refresh_from_db()
        services.match_apply_action(
            match_id=match.pk, user=users[seat], expected_version=match.version, action={"type": "mark", "cell": cell}
        )
    match.refresh_from_db()
    assert match.status == Match.Status.FINISHED and match.result["ranking"] == [[0], [1]]
    deltas = dict(RatingChange.objects.filter(match=match).values_list("user_id", "delta"))
    assert deltas[users[0].pk] > 0 > deltas[users[1].pk] and len(deltas) == 2
    assert match_cache.recall(match.pk) is None, "no copy is kept of a finished match"


def test_a_recalled_copy_is_the_moves_own(start_table):
    """A move changes its copy's fields and clocks in place; the kept match and the next copy do not see it."""
    match, _users = start_table("chinesecheckers", 2)
    match.clock["vacation"] = [[1, 2], None]  # nested, as a turn-based seat's vacation is
    match_cache.remember(match, "1", {7: 0})
    try:
        own, xmin, seats = match_cache.recall(match.pk)
        assert (xmin, seats) == ("1", {7: 0}) and own is not match and own.clock == match.clock
        for field in Match._meta.concrete_fields:
            assert getattr(own, field.attname) == getattr(match, field.attname), field.name
        assert own._state is not match._state and own._state.db == match._state.db and not own._state.adding
        own.clock["timeouts"][0] = 9
        own.clock["vacation"][0][0] = 9
        own.version += 1
        own._state.fields_cache["seen"] = True
        again, _xmin, _seats = match_cache.recall(match.pk)
        assert again.clock == match.clock and match.clock["timeouts"][0] == 0 and match.clock["vacation"][0] == [1, 2]
        assert again.version == match.version and "seen" not in match._state.fields_cache
    finally:
        match_cache.forget(match.pk)


@optimistic
def test_the_optimistic_moves_statements_are_prepared_once_per_connection_on_postgresql(start_table):
    """PostgreSQL parses and plans a move's read and write once per connection (psycopg prepares them: the
    settings' ``prepare_threshold``, ``match_sql``'s server-binding cursor), not once per move; the ORM's own
    statements stay unprepared (Django binds them on the client)."""
    match, users = start_table("chinesecheckers", 2)
    play_first_moves(match, users, 4)
    with connection.cursor() as cursor:
        cursor.execute("SELECT statement, generic_plans + custom_plans FROM pg_prepared_statements")
        prepared = cursor.fetchall()
    writes = [runs for statement, runs in prepared if statement.startswith("WITH moved AS (UPDATE")]
    assert writes and max(writes) >= 2, prepared
    assert all("xmin" in statement for statement, _runs in prepared), prepared  # match_sql's, nobody else's
    assert Match.objects.get(pk=match.pk).version == match.version + 1
