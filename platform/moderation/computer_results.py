"""Ranked results that a computer moved: the ranked matches rated before ranked tables seated people only, where a
computer player (``Match.bot_seats``) or a bot account sat at a table rated in a people's pool. Listed by
``manage.py ranked_computer_results``, which a moderator runs to reverse them through the audited reversal
(``services.moderation_reverse_ratings``); nothing is reversed without them (docs/fair-play.md)."""

from __future__ import annotations

from django.db.models import Exists, OuterRef, Q

from ratings.models import RatingChange
from ratings.pools import BOT_POOL
from turnengine.models import Match, Seat


def computer_ranked_results():
    """The ranked matches with a rating change still standing in a people's pool and a computer player or a bot
    account at the table, oldest first."""
    standing = RatingChange.objects.filter(match=OuterRef("pk"), reversed_at__isnull=True).exclude(pool=BOT_POOL)
    program = Seat.objects.filter(match=OuterRef("pk"), user__is_bot=True)
    return (
        Match.objects.filter(ranked=True, status=Match.Status.FINISHED)
        .filter(Exists(standing))
        .filter(Q(Exists(program)) | ~Q(bot_seats=[]))
        .order_by("finished_at", "pk")
    )


def describe(match: Match) -> str:
    """One line: the match, when it ended, who sat where (computer seats marked) and each standing change."""
    seats = ", ".join(
        f"{seat.index}:{seat.user.username}{' (computer)' if seat.user.is_bot else ''}"
        for seat in match.seats.select_related("user").order_by("index")
    )
    changes = ", ".join(
        f"{change.user.username} {change.delta:+.1f}"
        for change in RatingChange.objects.filter(match=match, reversed_at__isnull=True).select_related("user")
    )
    ended = match.finished_at.strftime("%Y-%m-%d %H:%M") if match.finished_at else "?"
    return f"#{match.pk} {match.game} ended {ended} UTC; seats {seats}; changes {changes}"
