"""What a finished table's result screen says about playing again: the open offer (who accepted, who declined) and
the running score of a series of rematches. Read-only; ``lobby.rematch`` changes the offers and sends
:func:`rematch_state` to the old table when they change, and the match socket's snapshot of a finished table
carries it, so a reloaded result screen shows the offer too.
"""

from __future__ import annotations

from collections import Counter

from turnengine.models import Match, RematchDecline

MAX_SERIES = 100  # a series longer than this counts its last games only


def rematch_state(old: Match) -> dict:
    """The offer to play ``old`` again: the rematch table (None before anyone offered), its status, who offered
    (its creator), who accepted (took their seat) and who declined, by name."""
    new = Match.objects.filter(rematch_of=old).select_related("created_by").first()
    declined = sorted(
        RematchDecline.objects.filter(match=old).values_list("user__username", flat=True)
    )
    if new is None:
        return {"match_id": None, "status": None, "offered_by": None, "accepted": [], "declined": declined}
    accepted = list(
        new.seats.filter(user__is_bot=False).order_by("index").values_list("user__username", flat=True)
    )
    return {
        "match_id": new.pk,
        "status": new.status,
        "offered_by": new.created_by.username,
        "accepted": accepted,
        "declined": declined,
    }


def series_score(match: Match) -> dict | None:
    """Wins of each player over the series of finished rematches that ends with ``match`` (winners of a shared
    first place each count one), most wins first, and how many games were finished; None when ``match`` is no
    rematch. One query per game of the series: it runs when a result screen is read, never with a move."""
    if match.rematch_of_id is None:
        return None
    games, current = [], match
    while current is not None and len(games) < MAX_SERIES:
        games.append(current)
        current = current.rematch_of
    wins: Counter[str] = Counter()
    players: set[str] = set()
    for game in games:
        names = dict(game.seats.filter(user__is_bot=False).values_list("index", "user__username"))
        players.update(names.values())
        if game.status == Match.Status.FINISHED and game.result:
            wins.update(names[seat] for seat in game.result["ranking"][0] if seat in names)
    finished = sum(game.status == Match.Status.FINISHED for game in games)
    return {
        "games": finished,
        "scores": [{"user": name, "wins": wins[name]} for name in sorted(players, key=lambda n: (-wins[n], n))],
    }
