"""Applying and reversing the rating changes of ranked matches, and refunding what a cheater's opponents lost.

:func:`rating_apply_outcome` runs inside the transaction that records a ranked match's result (see
``turnengine.writer.MatchChange.commit``), so a result never stands without its ratings, nor the reverse. It is idempotent:
a match already rated is skipped (and a unique constraint backs that up), so re-running a finish or a duplicate
Celery task never counts twice. Rating rows are locked in user-id order, so tables ending at once for the same
players cannot deadlock.
"""

from __future__ import annotations

from django.db import transaction
from django.db.models import Q
from django.utils import timezone

from ratings import elo
from ratings.models import Rating, RatingChange, RatingReversal
from ratings.selectors import match_pool

ABANDONED_BY_ALL = "abandoned_by_all"  # the result's reason when nobody was there any more (turnengine.writer)


def match_is_rated(match) -> bool:
    """Only ranked games between people count: a ranked table seats no computer player (the engine's writer refuses
    them, ``turnengine.writer.seat_refusal``), and one that had some before that rule is not rated; bot accounts
    sit only at tables that admit them, rated in the bot pool (``ratings.pools``). A ranked game that ended because
    nobody was there any more moves no rating (its seats count as abandoned: ``turnengine.fair_play``)."""
    if not match.ranked or match.bot_seats:
        return False
    return match.result is None or match.result.get("reason") != ABANDONED_BY_ALL


def rating_apply_outcome(*, match) -> list[RatingChange]:
    """Rate a finished ranked match once. Call inside the transaction that records its result."""
    if not match_is_rated(match) or match.result is None:
        return []
    if RatingChange.objects.filter(match=match).exists():
        return []
    seats = {seat.index: seat for seat in match.seats.select_related("user")}
    pool = match_pool(match)
    users = sorted((seat.user for seat in seats.values()), key=lambda user: user.pk)
    for user in users:  # create missing rows first, then lock them all in a fixed order
        Rating.objects.get_or_create(user=user, game=match.game, pool=pool)
    ratings = {
        rating.user_id: rating
        for rating in Rating.objects.select_for_update()
        .filter(user__in=users, game=match.game, pool=pool)
        .order_by("user_id")
    }
    by_seat = {index: ratings[seat.user_id] for index, seat in seats.items()}
    abandoned = {index for index, seat in seats.items() if seat.abandoned}
    # The result already ranks every seat the computer played for last (``turnengine.writer.final_result``): each
    # loses its duel with every player who stayed, so the computer's play helps none of them.
    changes = elo.rating_changes(
        match.result["ranking"],
        ratings={index: rating.rating for index, rating in by_seat.items()},
        games_played={index: rating.games for index, rating in by_seat.items()},
        abandoned=abandoned,
    )
    before_by_seat = {index: rating.rating for index, rating in by_seat.items()}
    rows = []
    for index, delta in changes.items():
        rating = by_seat[index]
        before = rating.rating
        rating.rating = before + delta
        rating.games += 1
        rating.save(update_fields=["rating", "games", "updated_at"])
        opponents = [
            {"user": seats[other].user.username, "rating": round(before_by_seat[other])}
            for other in seats
            if other != index
        ]
        rows.append(
            RatingChange(
                match=match,
                user=seats[index].user,
                game=match.game,
                pool=pool,
                before=before,
                after=rating.rating,
                delta=delta,
                opponents=opponents,
                abandoned=index in abandoned,
                counted_game=True,  # every rated seat plays a counted game (a seat the computer played ranks last)
            )
        )
    return RatingChange.objects.bulk_create(rows)


def rating_reverse_match(*, match, by, reason: str) -> int:
    """Undo a match's rating changes (cheating, collusion): every rating gets its change back, the reversal is
    recorded with who and why. Returns how many changes were reversed; a match can be reversed once."""
    if not reason.strip():
        raise ValueError("a reversal needs a reason")
    with transaction.atomic():
        changes = list(
            RatingChange.objects.select_for_update()
            .filter(match=match, reversed_at__isnull=True)
            .order_by("user_id")
        )
        return _reverse(changes, by=by, reason=reason)


def _reverse(changes: list[RatingChange], *, by, reason: str) -> int:
    """Give each change (locked, not reversed yet) back to its rating, in user-id order, inside the caller's
    transaction: the rating loses the change, and a rated game only if the change had counted one."""
    if not changes:
        return 0
    now = timezone.now()
    for match_id in sorted({change.match_id for change in changes}):
        RatingReversal.objects.get_or_create(match_id=match_id, defaults={"by": by, "reason": reason})
    for change in sorted(changes, key=lambda change: (change.user_id, change.match_id)):
        rating = Rating.objects.select_for_update().get(user=change.user, game=change.game, pool=change.pool)
        rating.rating -= change.delta
        if change.counted_game and rating.games:
            rating.games -= 1
        rating.save(update_fields=["rating", "games", "updated_at"])
        change.reversed_at = now
        change.save(update_fields=["reversed_at"])
    return len(changes)


def refundable_changes(*, cheater) -> list[RatingChange]:
    """What a refund for ``cheater`` undoes, in every ranked match of theirs not reversed yet: each of their own
    gains, and each loss of a player who sat with them. Their own losses stay, and so do the others' gains: a
    refund takes nothing from a player who beat a cheater (as Lichess refunds)."""
    matches = RatingChange.objects.filter(user=cheater, reversed_at__isnull=True).values("match_id")
    mine = Q(user=cheater, delta__gt=0)
    theirs = ~Q(user=cheater) & Q(delta__lt=0)
    return list(
        RatingChange.objects.filter(match_id__in=matches, reversed_at__isnull=True)
        .filter(mine | theirs)
        .select_related("user", "match")
        .order_by("match_id", "user_id")
    )


def rating_refund(*, cheater, by, reason: str) -> list[RatingChange]:
    """Undo ``cheater``'s rating gains and give back what every opponent lost in their ranked matches
    (:func:`refundable_changes`); returns the changes undone."""
    if not reason.strip():
        raise ValueError("a refund needs a reason")
    with transaction.atomic():
        ids = [change.pk for change in refundable_changes(cheater=cheater)]
        changes = list(
            RatingChange.objects.select_for_update()
            .filter(pk__in=ids, reversed_at__isnull=True)
            .select_related("user", "match")
            .order_by("user_id", "match_id")
        )
        _reverse(changes, by=by, reason=reason)
    return changes
