"""Which tables await a player's move: kept on commit by the match writer, counted once per change.

Turn-based and untimed tables only (a real-time table is played with its page open; its moves pay nothing here
beyond reading the time control's kind). The match writer reads :func:`awaited` when it locks a match and calls
:func:`record` once it has written the change; when the set of awaited seats is the same as before (a chat line,
presence, most changes of a real-time table) nothing else happens. When it differs (a turn passed, the table
started, finished or was aborted), in the same transaction:

* the match's ``AwaitedTurn`` rows are rewritten (one per awaited human seat: since when, and its deadline);
* each player whose turn started or ended gets their ``TurnsWaiting`` count rewritten under that row's lock (so two
  tables of the same player changing at once count in commit order);
* a ``turns`` frame goes on commit (through the outbox) to each of those players' group, which every page of the
  site listens to over the lobby socket: the new count, the table, and whether it now awaits them.

So the count is never computed for a viewer: a page reads the player's ``TurnsWaiting`` row, a socket is pushed
the count when it changes.
"""

from __future__ import annotations

from datetime import UTC, datetime

from django.db import connection
from django.db.models import Count, OuterRef, Subquery
from django.db.models.functions import Coalesce

from turnengine import awaiting_sql, clocks, outbox
from turnengine.models import AwaitedTurn, Match, Seat, TurnsWaiting
from turnengine.updates import Update, encode_frame

NONE_AWAITED: frozenset[int] = frozenset()


def group(user_id: int) -> str:
    """The channel-layer group of one player's ``turns`` frames (every page's lobby socket joins it)."""
    return f"turns.{user_id}"


def tracked(match: Match) -> bool:
    """Whether the match's awaited seats are kept: a running table that is not played in real time."""
    control = match.time_control or {}
    return control.get("kind", clocks.REALTIME) != clocks.REALTIME


def awaited(match: Match | None) -> frozenset[int]:
    """The seats whose clock runs at a tracked, running ``match`` (none at any other)."""
    if match is None or match.status != Match.Status.ACTIVE or not match.clock or not tracked(match):
        return NONE_AWAITED
    return frozenset(seat for seat, since in enumerate(match.clock["since"]) if since is not None)


def record(match: Match, before: frozenset[int]) -> None:
    """After the writer wrote ``match`` (locked), whose awaited seats were ``before``: if they changed, rewrite its
    rows and the counts of the players concerned, and push them their count on commit."""
    after = awaited(match)
    if after == before:
        return
    if connection.vendor == "postgresql":
        deadlines = clocks.deadlines(match.clock, clocks.of_match(match)) if after else {}
        rows = {seat: (_moment(match.clock["since"][seat]), _moment(deadlines.get(seat))) for seat in after}
        humans, counts = awaiting_sql.change(match.pk, rows, before ^ after)
    else:
        humans, counts = _change_orm(match, before, after)
    if counts:
        newly = {humans[seat] for seat in after - before if seat in humans}
        outbox.send_on_commit(
            Update({group(user): turns_frame(count, match, user in newly) for user, count in counts.items()})
        )


def _change_orm(match: Match, before: frozenset[int], after: frozenset[int]) -> tuple[dict, dict]:
    """:func:`awaiting_sql.change` through the ORM (SQLite: its writers are serialized anyway)."""
    humans = dict(Seat.objects.filter(match=match, user__is_bot=False).values_list("index", "user_id"))
    concerned = {humans[seat] for seat in before ^ after if seat in humans}
    if before - after:
        AwaitedTurn.objects.filter(match=match).exclude(seat__in=after).delete()
    if after - before:
        # Every awaited seat's row, those already there kept as they are (their turns go on): a table that was
        # running before these rows existed gets its rows at its next change.
        deadlines = clocks.deadlines(match.clock, clocks.of_match(match))
        AwaitedTurn.objects.bulk_create(
            (
                AwaitedTurn(
                    match=match,
                    seat=seat,
                    user_id=humans[seat],
                    since=_moment(match.clock["since"][seat]),
                    deadline_at=_moment(deadlines.get(seat)),
                )
                for seat in sorted(after)
                if seat in humans
            ),
            ignore_conflicts=True,
        )
    return humans, recount(concerned) if concerned else {}


def recount(users: set[int]) -> dict[int, int]:
    """Rewrite the ``TurnsWaiting`` count of ``users`` inside the caller's transaction and return them. The upsert
    locks each player's row first (in the order of their ids), so the count, read by the next statement, includes
    every table whose change committed before; two changes for one player count in commit order."""
    TurnsWaiting.objects.bulk_create(
        [TurnsWaiting(user_id=user) for user in sorted(users)],
        update_conflicts=True,
        unique_fields=["user"],
        update_fields=["count"],
    )
    awaited_here = AwaitedTurn.objects.filter(user_id=OuterRef("user_id")).values("user_id")
    TurnsWaiting.objects.filter(user_id__in=users).update(
        count=Coalesce(Subquery(awaited_here.annotate(n=Count("pk")).values("n")), 0)
    )
    return dict(TurnsWaiting.objects.filter(user_id__in=users).values_list("user_id", "count"))


def turns_frame(count: int, match: Match, yours: bool) -> str:
    """The ``turns`` frame a player is pushed: how many tables await them now, and the table that changed."""
    return encode_frame(
        "turns", None, {"count": count, "match_id": match.pk, "game": match.game, "yours": yours}
    )


def count_of(user) -> int:
    """How many tables await ``user``'s move (a page reads this row; nothing is counted)."""
    if not getattr(user, "is_authenticated", False):
        return 0
    return TurnsWaiting.objects.filter(user_id=user.pk).values_list("count", flat=True).first() or 0


def _moment(epoch_ms: int | None) -> datetime | None:
    return None if epoch_ms is None else datetime.fromtimestamp(epoch_ms / 1000, tz=UTC)
