"""Signs of rating farming, for the moderators' player page: how much of a player's rated play was against one
opponent (a friend, or a second account of theirs, losing on purpose), and what they gained against accounts that
were new when they met (accounts made to be beaten). They are signs for a moderator to look at, never sanctions;
a refund (``moderation.services.moderation_refund``) undoes what they find.

Both count the player's rating changes that are not reversed, with opponents read from the other rated seats of
the same matches (so a rename does not hide one).
"""

from __future__ import annotations

from collections import Counter
from dataclasses import dataclass
from datetime import timedelta

from ratings.models import RatingChange

NEW_ACCOUNT_AGE = timedelta(days=7)
"""An opponent whose account was younger than this when the match was created counts as a new account."""


@dataclass(frozen=True)
class FarmingSignals:
    rated_games: int
    top_opponent: str | None  # the opponent met in most of the player's rated games
    top_opponent_games: int
    new_account_games: int  # rated games with at least one new account among the opponents
    new_account_gain: float  # the player's rating change summed over those games

    @property
    def top_opponent_share(self) -> int:
        """Percent of the rated games played against the top opponent."""
        return round(100 * self.top_opponent_games / self.rated_games) if self.rated_games else 0

    @property
    def signed_new_account_gain(self) -> str:
        return f"{self.new_account_gain:+.1f}"


def farming_signals(*, user) -> FarmingSignals:
    mine = {
        change.match_id: change
        for change in RatingChange.objects.filter(user=user, reversed_at__isnull=True).select_related("match")
    }
    met = Counter()
    new_matches = set()
    opponents = RatingChange.objects.filter(match_id__in=mine).exclude(user=user).select_related("user")
    for other in opponents:
        met[other.user.username] += 1
        created = mine[other.match_id].match.created_at
        if other.user.date_joined > created - NEW_ACCOUNT_AGE:
            new_matches.add(other.match_id)
    top, top_games = met.most_common(1)[0] if met else (None, 0)
    return FarmingSignals(
        rated_games=len(mine),
        top_opponent=top,
        top_opponent_games=top_games,
        new_account_games=len(new_matches),
        new_account_gain=sum(mine[match_id].delta for match_id in new_matches),
    )
