"""The notice that a table changed where the lobby shows it: it opened, a seat was taken or freed, it started,
finished or closed. Open lobby pages (and bots listening to the lobby) refresh their lists when they hear it; the
waiting page of a table not started yet reloads its seats. The match writer registers it with every such change
(``turnengine.writer``), so no caller tells the lobby by hand."""

from __future__ import annotations

from turnengine.models import Match
from turnengine.updates import Update, encode_frame

LOBBY_GROUP = "lobby"


def table_notice(match: Match, *, waiting: bool) -> Update:
    """The notice for the lobby's group, and for the table's own sockets while it was still ``waiting`` for its
    players (a running table's sockets get its views instead)."""
    text = encode_frame(
        "lobby", match.version, {"game": match.game, "match_id": match.pk, "status": match.status}
    )
    groups = [LOBBY_GROUP, match.group_name("all")] if waiting else [LOBBY_GROUP]
    return Update(dict.fromkeys(groups, text))
