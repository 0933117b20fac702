"""What the tournament pages read: the lists, the standings with their tie-breaks (``tournaments.pairing``), each
round's tables with who sits there, a player's table in play, and a player's results for their profile."""

from __future__ import annotations

from collections import defaultdict
from dataclasses import dataclass

from django.db.models import Count, Q

from tournaments import pairing
from tournaments.models import Entry, Pairing, Tournament, TournamentTable
from turnengine.models import Match

FINISHED_LISTED = 20


def tournament_lists() -> dict[str, list[Tournament]]:
    """Upcoming (soonest first), running, and the latest finished or cancelled."""
    players = Count("entries", filter=Q(entries__status=Entry.Status.ACTIVE))
    base = Tournament.objects.annotate(players=players)
    return {
        "upcoming": list(base.filter(status=Tournament.Status.UPCOMING).order_by("starts_at")),
        "running": list(base.filter(status=Tournament.Status.RUNNING).order_by("started_at")),
        "finished": list(
            base.filter(status__in=[Tournament.Status.FINISHED, Tournament.Status.CANCELLED]).order_by(
                "-finished_at"
            )[:FINISHED_LISTED]
        ),
    }


@dataclass
class Row:
    rank: int
    entry: Entry
    standing: pairing.Standing


def standings(tournament: Tournament) -> list[Row]:
    entries = {entry.pk: entry for entry in tournament.entries.select_related("user")}
    opponents: dict[int, list[int]] = defaultdict(list)
    games: dict[int, int] = defaultdict(int)
    by_table: dict[int, list[int]] = defaultdict(list)
    played = Pairing.objects.filter(round__tournament=tournament, table__isnull=False, scored=True)
    for table_id, entry_id in played.values_list("table_id", "entry_id"):
        by_table[table_id].append(entry_id)
        games[entry_id] += 1
    for seated in by_table.values():
        for entry_id in seated:
            opponents[entry_id] += [other for other in seated if other != entry_id]
    rows = [
        pairing.Standing(
            key=entry.pk,
            score=entry.score,
            tiebreak=0,
            games=games[entry.pk],
            rating=entry.rating,
            name=entry.user.username,
            out=entry.status == Entry.Status.DISQUALIFIED,
            opponents=opponents[entry.pk],
        )
        for entry in entries.values()
    ]
    ranked = pairing.standings(rows, swiss=tournament.kind == Tournament.Kind.SWISS)
    return [Row(rank=index + 1, entry=entries[row.key], standing=row) for index, row in enumerate(ranked)]


@dataclass
class TableView:
    match: Match
    seats: list[Pairing]


def rounds(tournament: Tournament) -> list[tuple[int, list[TableView], list[Pairing]]]:
    """Each round, latest first: its tables (with each seat's player, place and points) and its byes."""
    pairings = (
        Pairing.objects.filter(round__tournament=tournament)
        .select_related("round", "entry__user", "table__match")
        .order_by("-round__number", "table_id", "seat")
    )
    numbers: dict[int, tuple[dict[int, TableView], list[Pairing]]] = {}
    for row in pairings:
        tables, byes = numbers.setdefault(row.round.number, ({}, []))
        if row.table is None:
            byes.append(row)
        else:
            tables.setdefault(row.table_id, TableView(row.table.match, [])).seats.append(row)
    return [(number, list(tables.values()), byes) for number, (tables, byes) in numbers.items()]


def table_in_play(tournament: Tournament, user) -> int | None:
    """The match id of ``user``'s table in this tournament that is still being played, if any."""
    if not user.is_authenticated:
        return None
    return (
        TournamentTable.objects.filter(
            round__tournament=tournament,
            pairings__entry__user=user,
            match__status=Match.Status.ACTIVE,
        )
        .order_by("-pk")
        .values_list("match_id", flat=True)
        .first()
    )


def tournament_of_match(match_id: int) -> Tournament | None:
    return Tournament.objects.filter(round_set__tables__match_id=match_id).first()


def results_of(user, limit: int = 10) -> list[tuple[Tournament, int, int, int]]:
    """``user``'s finished tournaments, latest first: (tournament, final place, players, score)."""
    entries = (
        Entry.objects.filter(user=user, tournament__status=Tournament.Status.FINISHED)
        .select_related("tournament")
        .order_by("-tournament__finished_at")[:limit]
    )
    results = []
    for entry in entries:
        table = standings(entry.tournament)
        rank = next(row.rank for row in table if row.entry.pk == entry.pk)
        results.append((entry.tournament, rank, len(table), entry.score))
    return results
