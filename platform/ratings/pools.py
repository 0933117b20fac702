"""Rating pools: where a variant changes a game too much for one rating to mean anything across it.

Chinese Checkers is rated per player count (a duel and a six-player race are different games); Perudo separates
the duel from the table game; Spicy has one pool. Tables that admit bot accounts (``botapi``) are rated in each
game's bot pool, for everyone at them, so programs never move a rating among humans.
"""

from django.utils.functional import lazy
from django.utils.translation import gettext
from django.utils.translation import gettext_lazy as _

BOT_POOL = "bots"


def pool_for(*, game: str, num_players: int, options: dict, admits_bots: bool = False) -> str:
    if admits_bots:
        return BOT_POOL
    if game == "chinesecheckers":
        return f"{num_players}p"
    if game == "perudo":
        return "duel" if num_players == 2 else "table"
    return "standard"


def pools_of(*, game: str) -> list[str]:
    """Every pool of ``game``, in the order the leaderboard shows them as tabs."""
    if game == "chinesecheckers":
        return ["2p", "3p", "4p", "6p"]
    if game == "perudo":
        return ["duel", "table"]
    return ["standard"]


POOL_LABELS = {
    "duel": _("Duel"),
    "table": _("Table (3 to 6 players)"),
    "standard": _("All tables"),
    BOT_POOL: _("Tables open to bot accounts"),
    # Lazy, so each page says it in its reader's language (formatting at import would freeze it in English).
    **{f"{n}p": lazy(lambda n: gettext("%(count)s players") % {"count": n}, str)(n) for n in (2, 3, 4, 6)},
}
