"""Tells open lobby pages, and the waiting page of the table concerned, that a table changed.

Called once the change is committed; the notice is sent like every frame (``turnengine.outbox``): one that cannot
be published (the channel layer's Redis unreachable) is logged and dropped, and the request that made the change
still succeeds. Pages that missed it see the table on their next refresh.
"""

from turnengine import outbox
from turnengine.models import Match
from turnengine.updates import Update, encode_frame

LOBBY_GROUP = "lobby"


def lobby_changed(match: Match) -> None:
    text = encode_frame(
        "lobby", match.version, {"game": match.game, "match_id": match.pk, "status": match.status}
    )
    outbox.send_on_commit(Update({LOBBY_GROUP: text, match.group_name("all"): text}))
