"""Applying and reversing the rating changes of ranked matches.

:func:`rating_apply_outcome` runs inside the transaction that records a ranked match's result (see
``turnengine.writer.MatchChange.commit``), so a result never stands without its ratings, nor the reverse. It is idempotent:
a match already rated is skipped (and a unique constraint backs that up), so re-running a finish or a duplicate
Celery task never counts twice. Rating rows are locked in user-id order, so tables ending at once for the same
players cannot deadlock.
"""

from __future__ import annotations

from django.db import transaction
from django.utils import timezone

from ratings import elo
from ratings.models import Rating, RatingChange, RatingReversal
from ratings.selectors import match_pool

ABANDONED_BY_ALL = "abandoned_by_all"  # the result's reason when nobody was there any more (turnengine.writer)


def match_is_rated(match) -> bool:
    """Only ranked games between people count: a ranked table seats no computer player (the engine's writer refuses
    them, ``turnengine.writer.seat_refusal``), and one that had some before that rule is not rated; bot accounts
    sit only at tables that admit them, rated in the bot pool (``ratings.pools``). A ranked game that ended because
    nobody was there any more moves no rating (its seats count as abandoned: ``ratings.fair_play``)."""
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
        if not changes:
            return 0
        RatingReversal.objects.create(match=match, by=by, reason=reason)
        now = timezone.now()
        for change in changes:
            rating = Rating.objects.select_for_update().get(
                user=change.user, game=change.game, pool=change.pool
            )
            rating.rating -= change.delta
            if rating.games:
                rating.games -= 1
            rating.save(update_fields=["rating", "games", "updated_at"])
            change.reversed_at = now
            change.save(update_fields=["reversed_at"])
    return len(changes)
