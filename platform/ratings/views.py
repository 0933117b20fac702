"""Leaderboards per game and pool."""

from django.http import Http404
from django.shortcuts import render

from ratings import selectors
from ratings.models import Rating
from ratings.pools import POOL_LABELS
from turnengine import registry


def leaderboard(request, game: str, pool: str | None = None):
    try:
        rules = registry.get(game)
    except KeyError:
        raise Http404 from None
    pools = sorted(set(Rating.objects.filter(game=game).values_list("pool", flat=True))) or []
    pool = pool or (pools[0] if pools else None)
    if pool is not None and pool not in POOL_LABELS:
        raise Http404
    rows = selectors.leaderboard(game=game, pool=pool) if pool else []
    return render(
        request,
        "ratings/leaderboard.html",
        {
            "rules": rules,
            "pool": pool,
            "pool_label": POOL_LABELS.get(pool, ""),
            "pools": [(name, POOL_LABELS[name]) for name in pools if name in POOL_LABELS],
            "rows": rows,
            "min_games": selectors.LEADERBOARD_MIN_GAMES,
        },
    )
