"""Rating pools: where a variant changes a game too much for one rating to mean anything across it.

Each game declares its pools (``RULES.rating_pools``, see :class:`tapete_sdk.plugin.RatingPool`; one pool,
``standard``, when it declares none). Tables that admit bot accounts (``botapi``) are rated in the bot pool, for
everyone at them, so programs never move a rating among humans.
"""

from django.utils.translation import gettext
from django.utils.translation import gettext_lazy as _
from tapete_sdk import registry
from tapete_sdk.plugin import rating_pool_for, rating_pools_of

BOT_POOL = "bots"


def pool_for(*, game: str, num_players: int, admits_bots: bool = False) -> str:
    """The pool a table of ``game`` for ``num_players`` is rated in."""
    if admits_bots:
        return BOT_POOL
    return rating_pool_for(registry.get(game), num_players).key


def pools_of(*, game: str) -> list[str]:
    """Every pool of ``game``, in the order the leaderboard shows them as tabs."""
    return [pool.key for pool in rating_pools_of(registry.get(game))]


def pool_label(*, game: str, pool: str) -> str:
    """The pool's name in the reader's language: the game's label, else "N players" for a pool of one count,
    else "All tables"."""
    if pool == BOT_POOL:
        return str(_("Tables open to bot accounts"))
    declared = next((p for p in rating_pools_of(registry.get(game)) if p.key == pool), None)
    if declared is None:
        return pool
    if declared.label:
        return gettext(declared.label)
    if len(declared.player_counts) == 1:
        return gettext("%(count)s players") % {"count": declared.player_counts[0]}
    return str(_("All tables"))
