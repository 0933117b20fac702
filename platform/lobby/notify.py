"""Tells open lobby pages, and the waiting page of the table concerned, that a table changed."""

from asgiref.sync import async_to_sync
from channels.layers import get_channel_layer

from turnengine.broadcast import MESSAGE_TYPE
from turnengine.models import Match
from turnengine.services import encode_frame

LOBBY_GROUP = "lobby"


def lobby_changed(match: Match) -> None:
    text = encode_frame(
        "lobby", match.version, {"game": match.game, "match_id": match.pk, "status": match.status}
    )
    layer = get_channel_layer()
    send = async_to_sync(layer.group_send)
    send(LOBBY_GROUP, {"type": MESSAGE_TYPE, "text": text})
    send(match.group_name("all"), {"type": MESSAGE_TYPE, "text": text})
