"""The notice that a table changed where the lobby shows it: it opened, a seat was taken or freed, it started,
finished or closed. Open lobby pages (and bots listening to the lobby) refresh their lists when they hear it; the
waiting page of a table not started yet reloads its seats. The match writer registers it with every such change
(``turnengine.writer``), so no caller tells the lobby by hand.

The same change goes to the Bot API's event streams (``botapi.events``, group ``EVENTS_GROUP``) as a channel-layer
message that already holds what a stream needs to decide whether it concerns its account: who sits there, and what
a bot account is told of a table open to bots. It is built here, once per change, so that a stream whose account
the change does not concern reads nothing from the database.
"""

from __future__ import annotations

from turnengine.models import Match, Seat
from turnengine.updates import Update, encode_frame

LOBBY_GROUP = "lobby"
EVENTS_GROUP = "lobby.events"
EVENTS_MESSAGE = "table.changed"  # botapi.events.EventStreamConsumer.table_changed
# What expire_open_tables reads of each table it closes: what the notice below needs.
NOTICE_FIELDS = ("game", "version", "status", "num_players", "ranked", "options", "admits_bots", "created_by")


def table_notice(match: Match, *, waiting: bool) -> Update:
    """The notice for the lobby's group, and for the table's own sockets while it was still ``waiting`` for its
    players (a running table's sockets get its views instead); and the event streams' message."""
    text = encode_frame(
        "lobby", match.version, {"game": match.game, "match_id": match.pk, "status": match.status}
    )
    groups = [LOBBY_GROUP, match.group_name("all")] if waiting else [LOBBY_GROUP]
    return Update(dict.fromkeys(groups, text), messages={EVENTS_GROUP: events_message(match)})


def events_message(match: Match) -> dict:
    """What the event streams need of a changed table: the accounts seated there (a stream of one of them reads its
    account's tables again), and for a table open to bot accounts the ``challenge`` a bot account is sent."""
    message = {
        "type": EVENTS_MESSAGE,
        "match_id": match.pk,
        "seated": list(Seat.objects.filter(match_id=match.pk).values_list("user_id", flat=True)),
        "challenge": None,
    }
    if match.status == Match.Status.OPEN and match.admits_bots:
        message["challenge"] = challenge_event(match)
    return message


def challenge_event(match: Match) -> dict:
    """The event stream's ``challenge`` for a table open to bot accounts (``botapi.events``)."""
    return {
        "type": "challenge",
        "match_id": match.pk,
        "game": match.game,
        "num_players": match.num_players,
        "ranked": match.ranked,
        "options": match.options,
        "created_by": match.created_by.username,
    }
