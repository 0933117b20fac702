"""The three statements of the per-move transaction, as SQL written once from the models' metadata.

Every move locks the match row (finding the player's seat in the same query), appends its logged actions and
writes the match's changed fields. Measured on PostgreSQL (``bench/ws_load.py``, design.md §8), compiling these
through the ORM cost about three times the database work itself, on the single database thread that each ASGI
process has: here the SQL is built once per database vendor and values are converted by the fields' own
``get_db_prep_save``, so types (JSON, aware datetimes) are handled exactly as the ORM would. Reading goes through
``Manager.raw``, which applies the backend's converters. Everything else in the project uses the ORM.
"""

from __future__ import annotations

from functools import cache

from django.db import connection

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


def lock_match(match_id: int, user_id: int) -> Match | None:
    """The match row, locked until the end of the transaction, with ``user_seat`` (None if the user does not sit
    there); None if there is no such match. Must run inside ``transaction.atomic``."""
    rows = list(Match.objects.raw(_lock_sql(connection.vendor), [user_id, match_id]))
    return rows[0] if rows else None


@cache
def _update_sql(vendor: str, field_names: tuple[str, ...]) -> str:
    quote = connection.ops.quote_name
    assignments = ", ".join(f"{quote(Match._meta.get_field(name).column)} = %s" for name in field_names)
    return f"UPDATE {quote(Match._meta.db_table)} SET {assignments} WHERE {quote('id')} = %s"


def update_match(match: Match, field_names: tuple[str, ...]) -> None:
    """Write ``field_names`` of ``match`` (like ``save(update_fields=...)``, without signals)."""
    fields = [Match._meta.get_field(name) for name in field_names]
    values = [field.get_db_prep_save(getattr(match, field.attname), connection) for field in fields]
    with connection.cursor() as cursor:
        cursor.execute(_update_sql(connection.vendor, field_names), [*values, match.pk])


_ACTION_FIELDS = [field for field in MatchAction._meta.concrete_fields if not field.primary_key]


@cache
def _insert_sql(vendor: str, rows: int) -> str:
    quote = connection.ops.quote_name
    columns = ", ".join(quote(field.column) for field in _ACTION_FIELDS)
    row = "(" + ", ".join(["%s"] * len(_ACTION_FIELDS)) + ")"
    return f"INSERT INTO {quote(MatchAction._meta.db_table)} ({columns}) VALUES {', '.join([row] * rows)}"


def insert_actions(rows: list[MatchAction]) -> None:
    """Append logged actions in one statement (``created_at`` is set here, as ``auto_now_add`` would)."""
    if not rows:
        return
    params = [
        field.get_db_prep_save(field.pre_save(row, add=True), connection)
        for row in rows
        for field in _ACTION_FIELDS
    ]
    with connection.cursor() as cursor:
        cursor.execute(_insert_sql(connection.vendor, len(rows)), params)
