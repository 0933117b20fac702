"""The per-move SQL, written once from the models' metadata: the locked move (lock the row with the player's seat,
append the logged actions, write the changed fields) and, on PostgreSQL, the optimistic one (read the row without a
lock, then one statement that appends and writes only if the row's ``xmin`` is unchanged: see below).

Rather than have the ORM compile these statements again on every move, the SQL is built once per database vendor,
and values are converted by the fields' own ``get_db_prep_save``, so types (JSON, aware datetimes) are handled
exactly as the ORM would. The optimistic move's read and write are prepared on PostgreSQL
(:func:`_prepared_cursor`). A row read here goes through the same converters the ORM applies (backend's, then
field's) into ``Model.from_db``, as ``Manager.raw`` would without its per-query work. On PostgreSQL the append and
the update go in one round trip either way. Everything else in the project uses the ORM (a few reads every
connection makes are compiled by it once: ``web.compiled``). (``bench/move_cpu.py`` measures this path's CPU inside
a process.)
"""

from __future__ import annotations

from functools import cache
from weakref import WeakKeyDictionary

import psycopg
from django.db import DEFAULT_DB_ALIAS, connection, connections

from turnengine.models import Match, MatchAction, Seat


@cache
def _lock_sql(vendor: str) -> str:
    quote = connection.ops.quote_name
    columns = ", ".join(f"m.{quote(field.column)}" for field in Match._meta.concrete_fields)
    seat_of_user = (
        f"SELECT s.{quote('index')} FROM {quote(Seat._meta.db_table)} s "
        f"WHERE s.{quote('match_id')} = m.{quote('id')} AND s.{quote('user_id')} = %s"
    )
    # SQLite has no row locks: its transactions are IMMEDIATE (settings.py), which serializes writers.
    lock = " FOR UPDATE OF m" if connection.features.has_select_for_update_of else ""
    return (
        f"SELECT {columns}, ({seat_of_user}) AS user_seat "
        f"FROM {quote(Match._meta.db_table)} m WHERE m.{quote('id')} = %s{lock}"
    )


_MATCH_FIELDS = Match._meta.concrete_fields
_converters_by_connection: WeakKeyDictionary = WeakKeyDictionary()


def _match_converters(wrapper) -> list[tuple[int, list, object]]:
    """(column index, converters, expression) for the columns that need converting, as the ORM's compiler finds them;
    kept per connection object, since the backend's converters are its methods."""
    converters = _converters_by_connection.get(wrapper)
    if converters is None:
        converters = []
        for index, field in enumerate(_MATCH_FIELDS):
            column = field.get_col(Match._meta.db_table)
            functions = wrapper.ops.get_db_converters(column) + column.get_db_converters(wrapper)
            if functions:
                converters.append((index, functions, column))
        _converters_by_connection[wrapper] = converters
    return converters


def lock_match(match_id: int, user_id: int) -> Match | None:
    """The match row, locked until the end of the transaction, with ``user_seat`` (None if the user does not sit
    there); None if there is no such match. Must run inside ``transaction.atomic``."""
    wrapper = connections[DEFAULT_DB_ALIAS]
    if not _in_range(wrapper, match_id):
        return None
    with wrapper.cursor() as cursor:
        cursor.execute(_lock_sql(wrapper.vendor), [user_id, match_id])
        row = cursor.fetchone()
    if row is None:
        return None
    match = _match_from_row(wrapper, row[:-1])
    match.user_seat = row[-1]
    return match


def _in_range(wrapper, match_id: int) -> bool:
    """False for an id no row can have (the ORM answers "no such row" where the driver would raise)."""
    low, high = wrapper.ops.integer_field_range(Match._meta.pk.get_internal_type())
    return low <= match_id <= high


def _match_from_row(wrapper, row) -> Match:
    values = list(row)
    for index, functions, column in _match_converters(wrapper):
        for convert in functions:
            values[index] = convert(values[index], column, wrapper)
    return Match.from_db(DEFAULT_DB_ALIAS, [field.attname for field in _MATCH_FIELDS], values)


# --- the optimistic move (PostgreSQL): read without a lock, write only if the row is unchanged --------------------
#
# A row's ``xmin`` (the transaction that wrote its current version) changes with every write of the row, whoever
# makes it: a move, presence, a deadline, a moderator. A change read with its ``xmin`` and written ``WHERE xmin =``
# that value therefore stands only if nothing else wrote the row in between; otherwise it writes nothing and the
# writer does it again under the row's lock. One statement, autocommitted: one round trip for a move.


def optimistic_moves() -> bool:
    """Whether a move can be written optimistically here: on PostgreSQL (with client-side binding), outside any
    transaction. Inside one, every row it wrote carries that one transaction's ``xmin``, which then tells nothing."""
    wrapper = connections[DEFAULT_DB_ALIAS]
    return (
        wrapper.vendor == "postgresql"
        and not wrapper.in_atomic_block
        and not wrapper.settings_dict["OPTIONS"].get("server_side_binding")
    )


@cache
def _read_sql(vendor: str) -> str:
    quote = connection.ops.quote_name
    columns = ", ".join(f"m.{quote(field.column)}" for field in Match._meta.concrete_fields)
    seats = (
        f"SELECT json_object_agg(s.{quote('user_id')}, s.{quote('index')}) FROM {quote(Seat._meta.db_table)} s "
        f"WHERE s.{quote('match_id')} = m.{quote('id')}"
    )
    return f"SELECT {columns}, m.xmin::text, ({seats}) FROM {quote(Match._meta.db_table)} m WHERE m.{quote('id')} = %s"


def read_match(match_id: int) -> tuple[Match, str, dict[int, int]] | None:
    """The match row as it is now, unlocked, with its ``xmin`` and its seats (user id -> seat); None if there is no
    such match. PostgreSQL only (:func:`optimistic_moves`)."""
    wrapper = connections[DEFAULT_DB_ALIAS]
    if not _in_range(wrapper, match_id):
        return None
    with _prepared_cursor(wrapper) as cursor:
        cursor.execute(_read_sql(wrapper.vendor), [match_id])
        row = cursor.fetchone()
    if row is None:
        return None
    seats = {int(user_id): index for user_id, index in (row[-1] or {}).items()}
    return _match_from_row(wrapper, row[:-2]), row[-2], seats


@cache
def _guarded_sql(vendor: str, field_names: tuple[str, ...], rows: int) -> str:
    quote = connection.ops.quote_name
    match_table, action_table = quote(Match._meta.db_table), quote(MatchAction._meta.db_table)
    assignments = ", ".join(f"{quote(Match._meta.get_field(name).column)} = %s" for name in field_names)
    statement = (
        f"WITH moved AS (UPDATE {match_table} SET {assignments} "
        f"WHERE {quote('id')} = %s AND xmin = %s::xid RETURNING xmin::text AS xmin)"
    )
    if rows:
        columns = ", ".join(quote(field.column) for field in _ACTION_FIELDS)
        # Typed placeholders: a VALUES list's types are its own, not the target columns'.
        row = "(" + ", ".join(f"%s::{field.cast_db_type(connection)}" for field in _ACTION_FIELDS) + ")"
        statement += (
            f", logged AS (INSERT INTO {action_table} ({columns}) "
            f"SELECT v.* FROM moved, (VALUES {', '.join([row] * rows)}) AS v)"
        )
    return statement + " SELECT xmin FROM moved"


def _prepared_cursor(wrapper):
    """Django's cursor (its error wrapping, query log and execute wrappers) over a server-side binding psycopg
    cursor, where Django's own bind on the client: psycopg prepares a statement the connection has run a few times
    (``prepare_threshold``, settings.py), so PostgreSQL parses and plans a move's statement once per connection, not
    once per move, and its values travel as parameters, not quoted into its text. Single statements only."""
    wrapper.close_if_health_check_failed()
    wrapper.ensure_connection()
    wrapper.validate_thread_sharing()
    cursor = psycopg.Cursor(wrapper.connection)
    return wrapper.make_debug_cursor(cursor) if wrapper.queries_logged else wrapper.make_cursor(cursor)


def write_move_guarded(
    match: Match, field_names: tuple[str, ...], rows: list[MatchAction], xmin: str
) -> str | None:
    """:func:`write_move` as one autocommitted statement that writes nothing unless the row's ``xmin`` is still
    ``xmin``: the row's new ``xmin``, or None if it had changed."""
    wrapper = connections[DEFAULT_DB_ALIAS]
    _sql, update_params = _update_statement(wrapper, match, field_names)
    insert_params = _insert_statement(wrapper, rows)[1] if rows else []
    with _prepared_cursor(wrapper) as cursor:
        cursor.execute(
            _guarded_sql(wrapper.vendor, field_names, len(rows)), [*update_params, xmin, *insert_params]
        )
        row = cursor.fetchone()
    return None if row is None else row[0]


@cache
def _update_sql(vendor: str, field_names: tuple[str, ...]) -> str:
    quote = connection.ops.quote_name
    assignments = ", ".join(f"{quote(Match._meta.get_field(name).column)} = %s" for name in field_names)
    return f"UPDATE {quote(Match._meta.db_table)} SET {assignments} WHERE {quote('id')} = %s"


@cache
def _fields(field_names: tuple[str, ...]) -> tuple:
    return tuple(Match._meta.get_field(name) for name in field_names)


def _update_statement(wrapper, match: Match, field_names: tuple[str, ...]) -> tuple[str, list]:
    # ``wrapper`` is the connection itself, not Django's ``connection`` proxy: every attribute read through the
    # proxy looks the connection up again, a dozen times per field converted.
    values = [
        field.get_db_prep_save(getattr(match, field.attname), wrapper) for field in _fields(field_names)
    ]
    return _update_sql(wrapper.vendor, field_names), [*values, match.pk]


def update_match(match: Match, field_names: tuple[str, ...]) -> None:
    """Write ``field_names`` of ``match`` (like ``save(update_fields=...)``, without signals)."""
    wrapper = connections[DEFAULT_DB_ALIAS]
    with wrapper.cursor() as cursor:
        cursor.execute(*_update_statement(wrapper, match, field_names))


def write_move(match: Match, field_names: tuple[str, ...], rows: list[MatchAction]) -> None:
    """Append ``rows`` and write ``field_names`` of ``match``: one round trip on PostgreSQL, whose client-side
    binding cursor (Django's default) sends both statements as one simple query; two statements elsewhere."""
    if not rows:
        update_match(match, field_names)
        return
    wrapper = connections[DEFAULT_DB_ALIAS]
    insert = _insert_statement(wrapper, rows)
    update = _update_statement(wrapper, match, field_names)
    with wrapper.cursor() as cursor:
        if wrapper.vendor == "postgresql" and not wrapper.settings_dict["OPTIONS"].get("server_side_binding"):
            cursor.execute(f"{insert[0]}; {update[0]}", [*insert[1], *update[1]])
        else:
            cursor.execute(*insert)
            cursor.execute(*update)


_ACTION_FIELDS = [field for field in MatchAction._meta.concrete_fields if not field.primary_key]


@cache
def _insert_sql(vendor: str, rows: int) -> str:
    quote = connection.ops.quote_name
    columns = ", ".join(quote(field.column) for field in _ACTION_FIELDS)
    row = "(" + ", ".join(["%s"] * len(_ACTION_FIELDS)) + ")"
    return f"INSERT INTO {quote(MatchAction._meta.db_table)} ({columns}) VALUES {', '.join([row] * rows)}"


def _insert_statement(wrapper, rows: list[MatchAction]) -> tuple[str, list]:
    """One multi-row INSERT (``created_at`` is set here, as ``auto_now_add`` would)."""
    params = [
        field.get_db_prep_save(field.pre_save(row, add=True), wrapper)
        for row in rows
        for field in _ACTION_FIELDS
    ]
    return _insert_sql(wrapper.vendor, len(rows)), params
