"""The home page's featured tables: one live table per game for anyone to watch, visitors included.

The rule: among a game's tables being played, the one most spectators watch now; between equals, the one whose last
move is the most recent (a live game, not a table left to its clocks). A table with a spectator delay qualifies like
any other (its spectators see it late); a table that allows no spectators never does. The choice is one query per game, kept in the cache for
:data:`FEATURED_SECONDS`, so the home page does not run it per request; a featured table that ended meanwhile still
links to its result for those few seconds.
"""

from __future__ import annotations

from django.core.cache import cache
from tapete_sdk import registry

from lobby.selectors import with_ratings
from turnengine.models import Match

FEATURED_SECONDS = 20
CACHE_KEY = "lobby:featured:v2"  # v2: tables that allow no spectators are left out


def featured_table_ids() -> dict[str, int]:
    """Game key -> the id of its featured table (games with no table being played are left out), cached briefly."""
    chosen = cache.get(CACHE_KEY)
    if chosen is None:
        chosen = {}
        for rules in registry.all_games():
            pk = (
                Match.objects.filter(game=rules.key, status=Match.Status.ACTIVE, spectators_allowed=True)
                .order_by("-spectator_connections", "-last_action_at", "-pk")
                .values_list("pk", flat=True)
                .first()
            )
            if pk is not None:
                chosen[rules.key] = pk
        cache.set(CACHE_KEY, chosen, FEATURED_SECONDS)
    return chosen


def featured_tables() -> dict[str, Match]:
    """Game key -> its featured table, with its players and their ratings (``selectors.with_ratings``)."""
    ids = featured_table_ids()
    matches = Match.objects.filter(pk__in=ids.values()).prefetch_related("seats__user")
    return {match.game: match for match in with_ratings(matches)}
