"""One writer of match rows (``turnengine.writer``): every statement that locks or changes a match row, over a
table's whole life (lobby, start, moves, deadlines, computer players, presence, seat intents, the finish and its
ratings, a rematch, a moderator's abort, the sweeper), is issued from inside the writer; no other module's source
writes one; a change's frames are built once its lock is released, and a refused change writes and sends nothing.
"""

from __future__ import annotations

import ast
import re
import traceback
from contextlib import contextmanager
from datetime import timedelta
from pathlib import Path

import pytest
from django.db import connection, transaction
from django.utils import timezone

from lobby import rematch
from lobby import services as lobby
from moderation.services import moderation_abort_match
from tests.conftest import play_to_the_end, socket_presence
from turnengine import bot_moves, services, timers, writer
from turnengine.errors import EngineError
from turnengine.models import Match
from turnengine.updates import Update

ROOT = Path(__file__).resolve().parents[2]
WRITER = {"platform/turnengine/writer.py", "platform/turnengine/match_sql.py"}  # the writer and its SQL
MATCH_TABLE = Match._meta.db_table
# A statement that locks or changes a row of the match table (Django quotes the table's name on every backend).
WRITES_MATCH = re.compile(
    rf'^\s*(UPDATE\s+"{MATCH_TABLE}"|INSERT\s+INTO\s+"{MATCH_TABLE}"|DELETE\s+FROM\s+"{MATCH_TABLE}"'
    rf'|SELECT\b.*\bFROM\s+"{MATCH_TABLE}"\s+m?\s*WHERE.*\bFOR\s+UPDATE)',
    re.IGNORECASE | re.DOTALL,
)


@contextmanager
def match_statements():
    """Every statement on the match table that locks or changes a row, with the project files on its stack."""
    seen: list[tuple[str, set[str]]] = []

    def record(execute, sql, params, many, context):
        if WRITES_MATCH.match(sql):
            files = {
                str(Path(frame.filename).resolve().relative_to(ROOT))
                for frame in traceback.extract_stack()
                if Path(frame.filename).resolve().is_relative_to(ROOT / "platform")
            }
            seen.append((sql.split()[0].upper(), files))
        return execute(sql, params, many, context)

    with connection.execute_wrapper(record):
        yield seen


def test_every_write_of_a_match_row_over_a_tables_life_comes_from_the_writer(
    make_user, transactional_db, sent, settings
):
    settings.TAPETE_SCHEDULE_BOTS = False  # the computer players' moves are played below, as the task would
    host, guest, moderator = make_user(), make_user(), make_user()
    with match_statements() as statements:
        match = lobby.table_create(  # friendly: a ranked table seats no computer player
            user=host, game="perudo", num_players=3, options={}, ranked=False, time_control="blitz"
        )
        lobby.table_add_bot(user=host, match_id=match.pk, level="easy")
        lobby.table_join(user=guest, match_id=match.pk)
        lobby.table_start(user=host, match_id=match.pk)
        socket_presence(match, 0, +1)
        socket_presence(match, None, +1)
        socket_presence(match, None, -1)
        socket_presence(match, 0, -1)
        match.refresh_from_db()
        timers.seats_rearm(match_id=match.pk, version=match.version, seats={0, 1, 2})
        timers.match_expire(
            match_id=match.pk, version=match.version, now=match.deadline_at + timedelta(seconds=1)
        )
        match.refresh_from_db()
        bot_moves.bot_play(match_id=match.pk, version=match.version)
        timers.seat_leave(match_id=match.pk, user=guest)
        timers.seat_reclaim(match_id=match.pk, user=guest)
        play_to_the_end(match, _seated_users(match))
        new, _update = rematch.table_rematch(user=host, match_id=match.pk)
        lobby.table_cancel(user=host, match_id=new.pk)

        other = lobby.table_create(user=host, game="perudo", num_players=2, options={}, ranked=False)
        lobby.table_join(user=guest, match_id=other.pk)
        lobby.table_start(user=host, match_id=other.pk)
        writer.mark_undelivered(match_id=other.pk, version=1)
        moderation_abort_match(moderator=moderator, match=other, reason="a test of the writer")
        lobby.table_create(user=host, game="perudo", num_players=2, options={}, ranked=False)
        timers.sweep(now=timezone.now() + timedelta(days=30))
    kinds = {kind for kind, _files in statements}
    locks = (
        {"SELECT"} if connection.features.has_select_for_update else set()
    )  # SQLite: IMMEDIATE transactions
    assert {"INSERT", "UPDATE", *locks} <= kinds, "the scenario locked, created and changed match rows"
    outside = [(kind, sorted(files)) for kind, files in statements if not files & WRITER]
    assert outside == []


def _seated_users(match: Match) -> list:
    return [seat.user for seat in match.seats.order_by("index").select_related("user")]


# A call that writes match rows through the ORM: Match.objects.<write>() or a match's save()/delete().
MATCH_NAMES = {
    "match",
    "new",
    "old",
    "locked",
    "table",
    "self.match",
}  # what the platform calls a match it holds
ORM_WRITES = {"create", "update", "bulk_create", "bulk_update", "get_or_create", "update_or_create", "delete"}


def test_no_module_but_the_writer_writes_a_match_row_in_its_source():
    offenders = []
    for path in sorted([*(ROOT / "platform").rglob("*.py"), *(ROOT / "games").rglob("*.py")]):
        relative = str(path.relative_to(ROOT))
        if relative in WRITER or "migrations" in path.parts:
            continue
        for node in ast.walk(ast.parse(path.read_text())):
            if not (isinstance(node, ast.Call) and isinstance(node.func, ast.Attribute)):
                continue
            chain = ast.unparse(node.func.value)
            method = node.func.attr
            if chain.startswith("Match.objects") and (
                method in ORM_WRITES or "select_for_update" in f"{chain}.{method}"
            ):
                offenders.append(f"{relative}:{node.lineno}: {ast.unparse(node)[:80]}")
            elif method in {"save", "delete"} and chain in MATCH_NAMES:
                offenders.append(f"{relative}:{node.lineno}: {ast.unparse(node)[:80]}")
    assert offenders == []


def test_a_changes_frames_are_built_after_its_lock_is_released_and_sent_after_the_commit(
    start_table, transactional_db, sent
):
    match, users = start_table("perudo", 2)
    sent.clear()  # the start's
    built_inside = []

    def frames(committed: Match) -> Update:
        built_inside.append(connection.in_atomic_block)
        return Update({committed.group_name("all"): "{}"})

    with writer.locked(match.pk) as change:
        change.match.bot_seats = []
        change.commit(changed=("bot_seats",), frames=frames)
        assert sent == []
    assert built_inside == [False], "built once the transaction closed, with the row lock released"
    assert sent == [change.update]

    sent.clear()
    built_inside.clear()
    with transaction.atomic():  # an outer transaction (a moderator's, the lobby's): sent when it commits
        with writer.locked(match.pk) as change:
            change.commit(changed=("bot_seats",), frames=frames)
        assert built_inside == [True] and sent == []
    assert sent == [change.update]


def test_a_refused_change_writes_and_sends_nothing_and_a_change_never_committed_sends_nothing(
    start_table, transactional_db, sent
):
    match, users = start_table("perudo", 2)
    sent.clear()  # the start's
    before = Match.objects.get(pk=match.pk)
    seat = min(match.rules.awaited(match.state))
    bid = next(action for action in match.rules.legal_actions(match.state, seat) if action["type"] == "bid")
    with pytest.raises(EngineError) as refused:
        services.match_apply_action(
            match_id=match.pk, user=users[seat], expected_version=match.version + 1, action=bid
        )
    assert refused.value.code == "stale"
    with writer.locked(match.pk) as change:
        change.match.state = None  # changed, never committed: not written
    after = Match.objects.get(pk=match.pk)
    assert (after.version, after.state, after.clock) == (before.version, before.state, before.clock)
    assert sent == [] and not change.update


def test_only_a_change_that_logs_makes_a_new_version_and_a_clock_change_moves_the_deadline(
    start_table, transactional_db, sent
):
    match, users = start_table("perudo", 2, time_control="blitz")
    seat = min(match.rules.awaited(match.state))
    with writer.locked(match.pk) as change:
        change.match.clock["since"][seat] += 60_000  # the running clock starts a minute later
        change.commit(changed=("clock",))
    moved = Match.objects.get(pk=match.pk)
    assert moved.version == match.version, "a clock change alone does not move the version"
    assert moved.deadline_at == match.deadline_at + timedelta(minutes=1)
    with writer.locked(match.pk) as change:
        change.commit(logged=[])
    assert Match.objects.get(pk=match.pk).version == match.version + 1
    assert change.update.version == match.version + 1 and match.group_name(seat) in change.update.frames
