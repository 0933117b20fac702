"""Pairing and ranking, as pure functions of plain data (no database): the tables a Swiss round or an arena's
waiting players are split into, who gets a bye, the points of a finished table, and the standings with their
tie-breaks. ``tournaments.life_cycle`` reads the rows, calls these, and writes what they decide.

The rules (``docs/tournaments.md`` tells them in words):

* **Table sizes** (:func:`table_sizes`): the fewest tables that hold everyone with sizes within one of each other,
  at most the chosen size, and every size one the game allows; when no number of tables does, as many full tables
  as possible, and the rest are the **odd ones out**: a bye in a Swiss round, waiting for the next pairing in an
  arena.
* **Swiss** (:func:`swiss_tables`): players in standings order (score, then rating, then who joined first); the
  bigger tables go to the top. Each table starts from the best player not seated yet and takes, one at a time, of
  the next few players in order (:data:`LOOKAHEAD` per seat), the one who has met the fewest of those already at the
  table, the earliest on ties; then a table still holding a repeat swaps a player with one of the few tables beside it
  when that leaves fewer repeats at both: repeat opponents are avoided where a near neighbour in the standings
  allows it (a bounded search, not an exhaustive one).
* **Byes** (:func:`choose_byes`): the lowest in the standings who have not had one yet (then the lowest), worth
  :func:`bye_points`: half the points of first place at the chosen table size.
* **Arena** (:func:`arena_tables`): the waiting players in standings order, grouped the same way into full tables,
  avoiding each player's opponents of their last table (a table of players who all just played each other is not
  made); once a player has waited ``TAPETE_ARENA_PATIENCE_SECONDS``, smaller tables and rematches too.
* **Points** (``tapete_sdk.plugin.ranking_points``): by place, as the game declares them per table size (by default
  two for every player finished ahead of: 1st of 4 earns 6, 1st of 2 earns 2).
* **Standings** (:func:`standings`): score, then (Swiss) Buchholz, the sum of the final scores of every opponent
  met at a table, or (arena) fewer tables played; then rating at joining, then name.

Cost: sorting is n log n in the players; each table then looks at a bounded window of players (``LOOKAHEAD`` per
seat) and each player's set of past opponents, so the grouping is linear: n log n in all
(``bench/tournament_pairing.py`` measures it).
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from dataclasses import dataclass, field
from itertools import combinations
from math import ceil

LOOKAHEAD = 3  # candidates looked at per seat to fill, beyond the seats themselves
REPAIR_REACH = 3  # tables on each side of a table with a repeat where a swap is looked for


@dataclass(frozen=True)
class Player:
    """One player as pairing sees them: ``key`` (the entry's id), score, rating and the order they joined in."""

    key: int
    score: int = 0
    rating: float = 0
    order: int = 0


def standings_key(player: Player) -> tuple:
    return (-player.score, -player.rating, player.order, player.key)


def table_sizes(count: int, size: int, allowed: Iterable[int]) -> tuple[list[int], int]:
    """How ``count`` players sit at tables of at most ``size`` among the ``allowed`` table sizes of the game:
    the sizes (biggest first) and how many players are left over (the odd ones out)."""
    allowed = {n for n in allowed if n <= size}
    if not allowed or count < min(allowed):
        return [], count
    if size not in allowed:  # the chosen size is not one of the game's: the largest below it
        return table_sizes(count, max(allowed), allowed)
    for tables in range(ceil(count / size), count // min(allowed) + 1):
        base, extra = divmod(count, tables)
        if base in allowed and (extra == 0 or base + 1 in allowed):
            return [base + 1] * extra + [base] * (tables - extra), 0
    full, rest = divmod(count, size)
    return [size] * full, rest


def bye_points(first_place_points: int) -> int:
    """A bye is worth half the points of first place at the tournament's table size, rounded down."""
    return first_place_points // 2


def choose_byes(ordered: list[Player], count: int, had_bye: set[int]) -> list[Player]:
    """The ``count`` players who sit out: from the bottom of the standings (``ordered``, best first), those who
    have not had a bye yet, then (if everyone has had one) the lowest."""
    if count <= 0:
        return []
    chosen = [player for player in reversed(ordered) if player.key not in had_bye][:count]
    if len(chosen) < count:
        chosen += [player for player in reversed(ordered) if player not in chosen][: count - len(chosen)]
    return chosen


def group(ordered: list[Player], sizes: list[int], met: Mapping[int, set[int]]) -> list[list[Player]]:
    """Seat ``ordered`` (best first) at tables of ``sizes`` (biggest first), each table started by the best player
    left and filled from the next few in order with whoever met the fewest of those already there."""
    remaining = list(ordered)
    taken: set[int] = set()
    start = 0
    tables = []
    for size in sizes:
        while remaining[start].key in taken:
            start += 1
        table = [remaining[start]]
        taken.add(remaining[start].key)
        for _seat in range(size - 1):
            window, index = [], start
            while index < len(remaining) and len(window) < LOOKAHEAD + size:
                if remaining[index].key not in taken:
                    window.append(remaining[index])
                index += 1
            best = min(
                window,
                key=lambda candidate: sum(1 for seated in table if seated.key in met.get(candidate.key, ())),
            )
            table.append(best)
            taken.add(best.key)
        tables.append(table)
    repair(tables, met)
    return tables


def repeats(table: list[Player], met: Mapping[int, set[int]]) -> int:
    return sum(1 for a, b in combinations(table, 2) if b.key in met.get(a.key, ()))


def repair(tables: list[list[Player]], met: Mapping[int, set[int]]) -> None:
    """Where a table still holds players who met before, swap one of them with a player of one of the
    :data:`REPAIR_REACH` tables below or above it (close in the standings) when that leaves fewer repeats at both: a bounded search,
    so the pairing stays linear in the players."""
    for index, table in enumerate(tables):
        near = [*range(index + 1, index + 1 + REPAIR_REACH), *range(index - 1, index - 1 - REPAIR_REACH, -1)]
        for other in near:
            if not repeats(table, met):
                break
            if 0 <= other < len(tables):
                _swap_better(table, tables[other], met)


def _swap_better(table: list[Player], other: list[Player], met: Mapping[int, set[int]]) -> None:
    before = repeats(table, met) + repeats(other, met)
    for i in range(len(table)):
        for j in range(len(other)):
            table[i], other[j] = other[j], table[i]
            if repeats(table, met) + repeats(other, met) < before:
                return
            table[i], other[j] = other[j], table[i]


def swiss_tables(
    players: list[Player],
    size: int,
    allowed: Iterable[int],
    met: Mapping[int, set[int]],
    had_bye: set[int],
) -> tuple[list[list[Player]], list[Player]]:
    """A Swiss round: the tables (each a list of players) and the players given a bye."""
    ordered = sorted(players, key=standings_key)
    sizes, rest = table_sizes(len(ordered), size, allowed)
    byes = choose_byes(ordered, rest, had_bye)
    bye_keys = {player.key for player in byes}
    seated = [player for player in ordered if player.key not in bye_keys]
    return group(seated, sizes, met), byes


def arena_tables(
    waiting: list[Player],
    size: int,
    allowed: Iterable[int],
    last_opponents: Mapping[int, set[int]],
    *,
    patient_out: bool,
) -> tuple[list[list[Player]], list[Player]]:
    """An arena's pairing of the players waiting: the tables, and who keeps waiting (from the bottom of the
    standings). Full tables only, and none made only of players who have just played each other, until someone
    has waited out the patience (``patient_out``): then the table sizes of :func:`table_sizes`, smaller tables and
    rematches included."""
    ordered = sorted(waiting, key=standings_key)
    if patient_out:
        sizes, rest = table_sizes(len(ordered), size, allowed)
    else:
        full = max((n for n in allowed if n <= size), default=0)
        sizes, rest = ([full] * (len(ordered) // full), len(ordered) % full) if full else ([], len(ordered))
    left = ordered[len(ordered) - rest :] if rest else []
    tables = group(ordered[: len(ordered) - rest], sizes, last_opponents)
    if not patient_out:  # no table of players who just played each other, but for those who waited long
        rematches = [table for table in tables if repeats(table, last_opponents) == len(table) * (len(table) - 1) // 2]
        tables = [table for table in tables if table not in rematches]
        left += [player for table in rematches for player in table]
    return tables, left


@dataclass
class Standing:
    key: int
    score: int
    tiebreak: float
    games: int
    rating: float
    name: str
    out: bool = False  # disqualified: listed last
    opponents: list[int] = field(default_factory=list)


def standings(rows: list[Standing], *, swiss: bool) -> list[Standing]:
    """Rank ``rows`` (their ``opponents`` list every opponent met at each table, once per table): Swiss ties are
    broken by Buchholz (the sum of those opponents' scores), arena ties by fewer tables played; then rating,
    then name. Disqualified players come last."""
    scores = {row.key: row.score for row in rows}
    for row in rows:
        row.tiebreak = sum(scores.get(opponent, 0) for opponent in row.opponents) if swiss else -row.games
    return sorted(rows, key=lambda row: (row.out, -row.score, -row.tiebreak, -row.rating, row.name))
