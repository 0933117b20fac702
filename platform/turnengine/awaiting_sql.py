"""The awaited turns' change on PostgreSQL in two round trips (``turnengine.awaiting`` does it with the ORM
elsewhere): one statement rewrites the match's ``AwaitedTurn`` rows and locks the concerned players' ``TurnsWaiting``
rows (creating those missing), the next one recounts them, reading what every change that committed before has
written. Built once from the models' metadata, as ``turnengine.match_sql`` does for the move's own statements: on a
loaded database each round trip of the move's transaction holds the ASGI process's database thread."""

from __future__ import annotations

from datetime import datetime
from functools import cache

from django.contrib.auth import get_user_model
from django.db import connection

from turnengine.models import AwaitedTurn, Seat, TurnsWaiting


@cache
def _change_sql() -> str:
    quote = connection.ops.quote_name
    awaited, seats = quote(AwaitedTurn._meta.db_table), quote(Seat._meta.db_table)
    waiting, users = quote(TurnsWaiting._meta.db_table), quote(get_user_model()._meta.db_table)
    index = quote("index")
    return f"""
WITH humans AS (
    SELECT s.{index} AS seat, s.user_id FROM {seats} s JOIN {users} u ON u.id = s.user_id
    WHERE s.match_id = %(match)s AND NOT u.is_bot
), gone AS (
    DELETE FROM {awaited} a WHERE a.match_id = %(match)s AND NOT (a.seat = ANY(%(after)s::int[]))
), added AS (
    INSERT INTO {awaited} (match_id, seat, user_id, since, deadline_at, mailed, reminded)
    SELECT %(match)s, h.seat, h.user_id, v.since, v.deadline, false, false
    FROM humans h JOIN unnest(%(after)s::int[], %(since)s::timestamptz[], %(deadline)s::timestamptz[])
        AS v(seat, since, deadline) ON v.seat = h.seat
    ON CONFLICT (match_id, seat) DO NOTHING
), locked AS (
    INSERT INTO {waiting} (user_id, count)
    SELECT h.user_id, 0 FROM humans h WHERE h.seat = ANY(%(changed)s::int[]) ORDER BY h.user_id
    ON CONFLICT (user_id) DO UPDATE SET count = {waiting}.count
)
SELECT seat, user_id FROM humans"""


@cache
def _recount_sql() -> str:
    quote = connection.ops.quote_name
    awaited, waiting = quote(AwaitedTurn._meta.db_table), quote(TurnsWaiting._meta.db_table)
    return (
        f"UPDATE {waiting} t SET count = (SELECT COUNT(*) FROM {awaited} a WHERE a.user_id = t.user_id) "
        f"WHERE t.user_id = ANY(%s::bigint[]) RETURNING t.user_id, t.count"
    )


def change(
    match_id: int,
    after: dict[int, tuple[datetime | None, datetime | None]],
    changed: frozenset[int],
) -> tuple[dict[int, int], dict[int, int]]:
    """Rewrite the match's rows to the seats of ``after`` (seat -> since, deadline; rows already there kept) and
    recount the players of the ``changed`` seats. Returns the match's human seats (seat -> user id) and the new
    counts (user id -> count)."""
    seats = sorted(after)
    params = {
        "match": match_id,
        "after": seats,
        "since": [after[seat][0] for seat in seats],
        "deadline": [after[seat][1] for seat in seats],
        "changed": sorted(changed),
    }
    with connection.cursor() as cursor:
        cursor.execute(_change_sql(), params)
        humans = dict(cursor.fetchall())
        concerned = sorted({humans[seat] for seat in changed if seat in humans})
        if not concerned:
            return humans, {}
        cursor.execute(_recount_sql(), [concerned])
        return humans, dict(cursor.fetchall())
