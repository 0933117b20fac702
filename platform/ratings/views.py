"""Leaderboards per game and pool: a tab for every pool of the game, rated players or not."""

from django.http import Http404
from django.shortcuts import render
from tapete_sdk import registry

from ratings import selectors
from ratings.pools import pool_label, pools_of


def leaderboard(request, game: str, pool: str | None = None):
    try:
        rules = registry.get(game)
    except KeyError:
        raise Http404 from None
    pools = pools_of(game=game)
    pool = pool or pools[0]
    if pool not in pools:
        raise Http404
    rows = selectors.leaderboard(game=game, pool=pool)
    return render(
        request,
        "ratings/leaderboard.html",
        {
            "rules": rules,
            "pool": pool,
            "pool_label": pool_label(game=game, pool=pool),
            "pools": [(name, pool_label(game=game, pool=name)) for name in pools],
            "rows": rows,
            "min_games": selectors.LEADERBOARD_MIN_GAMES,
        },
    )
