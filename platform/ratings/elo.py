"""Pairwise multiplayer Elo: the pure maths behind Tapete's ratings (standard library only).

A finished game's ranking (groups of seats, best first, seats in one group tied) is read as a set of duels: every
pair of rated seats played one game against each other, won by the better ranked seat, drawn when they are tied.
For a seat ``a`` at a table of ``n`` rated seats::

    E(a, b) = 1 / (1 + 10 ** ((R_b - R_a) / 400))          expected score of a against b
    S(a, b) = 1 if a ranks above b, 1/2 if tied, 0 if below  actual score of a against b
    change(a) = K_a / (n - 1) * sum over b != a of (S(a, b) - E(a, b))

Dividing by ``n - 1`` makes ``change(a)`` K times a's average surplus over its opponents, so a six-player game
moves a rating no more than a duel does (never more than K). With equal K factors the changes sum to zero, since
E(a, b) + E(b, a) = 1 and S(a, b) + S(b, a) = 1.

Sources: the two-player formula is Elo's logistic curve on the 400-point scale (A. Elo, "The Rating of
Chessplayers, Past and Present", 1978; used by the USCF, close to FIDE's tables); scoring a multiplayer ranking
as its pairwise duels is the usual "multiplayer Elo" (Tom Kerrigan's Simple Multiplayer Elo uses the same
two-player equations, but only against the neighbours just above and below: see ``_duels_change``).

Public API
----------
``k_factor(games_played)``
    K for a player who has already played ``games_played`` rated games of this game.
``expected_score(rating, opponent_rating)``
    E above.
``duel_score(position, opponent_position)``
    S above, from places in the ranking (0 = best).
``final_ranking(ranking, abandoned=())``
    The ranking used for rating: abandoning seats moved below everyone else.
``rating_changes(ranking, ratings=..., games_played=..., abandoned=(), unrated_seats=())``
    Seat -> change as a float.
``round_changes(changes)``
    Seat -> change as an int, by largest-remainder rounding (the rounded total is the rounded float total, so
    zero-sum changes stay zero-sum).

Decisions
---------
- Abandoning seats (``abandoned``) rank below every seat that stayed; among themselves they keep the order (and
  ties) the engine's ranking gave them. Each also loses ``ABANDON_PENALTY`` on top of its duels.
- A seat the engine auto-played because its player was absent, but who did not abandon, is rated normally from
  the rank the engine gave it. Seats listed in ``unrated_seats`` take part in no duel at all: nobody wins or loses
  points against them and ``n`` counts rated seats only, so the other seats' changes are exactly those of the same
  game without them. An unrated seat's change is 0 (minus the penalty if it also abandoned).
- Fewer than two rated seats: no duel, every change is 0 (apart from penalties).
"""

from __future__ import annotations

import math
from collections.abc import Collection, Mapping, Sequence

INITIAL_RATING: float = 1500.0
"""Rating of a player before their first rated game."""

ELO_SCALE: float = 400.0
"""A rating gap of this many points means 10:1 odds (expected score 10/11)."""

PROVISIONAL_GAMES: int = 20
"""A player's first this-many rated games use ``K_PROVISIONAL``; later ones ``K_ESTABLISHED``."""

K_PROVISIONAL: float = 40.0
K_ESTABLISHED: float = 20.0

ABANDON_PENALTY: float = 10.0
"""Points an abandoning seat loses on top of ranking last."""

WIN, DRAW, LOSS = 1.0, 0.5, 0.0


def k_factor(games_played: int) -> float:
    """K for a player with ``games_played`` rated games already behind them: new players move faster."""
    if games_played < 0:
        raise ValueError(f"games_played must be >= 0, not {games_played}")
    return K_PROVISIONAL if games_played < PROVISIONAL_GAMES else K_ESTABLISHED


def expected_score(rating: float, opponent_rating: float) -> float:
    """Expected score of ``rating`` against ``opponent_rating`` in one duel, between 0 and 1.

    Elo's logistic curve on the 400-point scale, E = 1 / (1 + 10 ** ((Rb - Ra) / 400)): A. Elo, "The Rating of
    Chessplayers, Past and Present" (1978), as used by the USCF; FIDE's expected-score table, derived from a normal
    curve on the same 400-point scale, is close to it (at most about 0.015 apart).
    """
    return 1.0 / (1.0 + 10.0 ** ((opponent_rating - rating) / ELO_SCALE))


def duel_score(position: int, opponent_position: int) -> float:
    """Score of a seat in its duel against another, from their places in the ranking (0 = best)."""
    if position < opponent_position:
        return WIN
    if position == opponent_position:
        return DRAW
    return LOSS


def final_ranking(ranking: Sequence[Sequence[int]], abandoned: Collection[int] = ()) -> list[list[int]]:
    """The ranking used for rating: abandoning seats below all others, in the order the engine ranked them."""
    stayed = [[seat for seat in group if seat not in abandoned] for group in ranking]
    left = [[seat for seat in group if seat in abandoned] for group in ranking]
    return [group for group in stayed + left if group]


def rating_changes(
    ranking: Sequence[Sequence[int]],
    *,
    ratings: Mapping[int, float],
    games_played: Mapping[int, int],
    abandoned: Collection[int] = (),
    unrated_seats: Collection[int] = (),
) -> dict[int, float]:
    """Rating change of every seat of ``ranking`` (groups of seats, best first, ties share a group).

    ``ratings`` and ``games_played`` give each seat's rating and rated games before this one (K comes from
    ``k_factor``). ``abandoned`` seats rank last and pay ``ABANDON_PENALTY``; ``unrated_seats`` play no duel.
    """
    _check_seats(ranking, ratings, games_played, abandoned, unrated_seats)
    positions = _positions(final_ranking(ranking, abandoned))
    rated = [seat for seat in positions if seat not in unrated_seats]
    changes = {seat: 0.0 for seat in positions}
    if len(rated) >= 2:
        for seat in rated:
            changes[seat] = _duels_change(seat, rated, positions, ratings, k_factor(games_played[seat]))
    for seat in abandoned:
        changes[seat] -= ABANDON_PENALTY
    return changes


def round_changes(changes: Mapping[int, float]) -> dict[int, int]:
    """Integer changes by largest-remainder rounding: each one is its float rounded down or up, and their total
    is the float total rounded, so changes that sum to zero (equal K, no penalty) still sum to exactly zero.

    The units left over after rounding every change down go to the largest fractional parts (lowest seat first
    on equal parts, so the result is deterministic).
    """
    rounded = {seat: math.floor(change) for seat, change in changes.items()}
    missing = round(math.fsum(changes.values())) - sum(rounded.values())
    largest_remainders_first = sorted(changes, key=lambda seat: (rounded[seat] - changes[seat], seat))
    for seat in largest_remainders_first[:missing]:
        rounded[seat] += 1
    return rounded


def _duels_change(
    seat: int, rated: Sequence[int], positions: Mapping[int, int], ratings: Mapping[int, float], k: float
) -> float:
    """K times the seat's average surplus (actual minus expected score) over its duels with the other rated seats.

    Pairwise multiplayer Elo: a ranking of n players decomposed into its n(n-1)/2 duels, each scored like a chess
    game with Elo's formula (see ``expected_score``), the sum divided by n - 1 so the table size does not multiply
    the K factor. (Tom Kerrigan's "Simple Multiplayer Elo", tckerrigan.com/Misc/Multiplayer_Elo, uses the same
    two-player equations but only against the neighbours just above and below; we score every pair.)
    """
    surpluses = [
        duel_score(positions[seat], positions[opponent]) - expected_score(ratings[seat], ratings[opponent])
        for opponent in rated
        if opponent != seat
    ]
    # fsum: correctly rounded, so the result does not depend on the seats' order.
    return k * math.fsum(surpluses) / len(surpluses)


def _positions(ranking: Sequence[Sequence[int]]) -> dict[int, int]:
    """Seat -> index of its group in the ranking (0 = best; tied seats share an index)."""
    return {seat: place for place, group in enumerate(ranking) for seat in group}


def _check_seats(
    ranking: Sequence[Sequence[int]],
    ratings: Mapping[int, float],
    games_played: Mapping[int, int],
    abandoned: Collection[int],
    unrated_seats: Collection[int],
) -> None:
    """Refuse a ranking listing a seat twice, a seat without rating or game count, or unknown special seats."""
    seats = [seat for group in ranking for seat in group]
    if len(seats) != len(set(seats)):
        raise ValueError(f"a seat appears twice in the ranking {ranking!r}")
    for name, mapping in (("ratings", ratings), ("games_played", games_played)):
        if missing := set(seats) - set(mapping):
            raise ValueError(f"{name} has no entry for seats {sorted(missing)}")
    for name, special in (("abandoned", abandoned), ("unrated_seats", unrated_seats)):
        if unknown := set(special) - set(seats):
            raise ValueError(f"{name} lists seats {sorted(unknown)} that are not in the ranking")
