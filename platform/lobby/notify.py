"""Tells open lobby pages, and the waiting page of the table concerned, that a table changed.

The change is committed before anyone is told: a notice that cannot be published (the channel layer's Redis
unreachable) is logged and dropped, and the request that made the change still succeeds. Pages that missed it see
the table on their next refresh.
"""

import logging

from asgiref.sync import async_to_sync
from channels.layers import get_channel_layer

from turnengine.broadcast import MESSAGE_TYPE
from turnengine.models import Match
from turnengine.services import encode_frame

LOBBY_GROUP = "lobby"

logger = logging.getLogger("tapete.lobby")


def lobby_changed(match: Match) -> None:
    text = encode_frame(
        "lobby", match.version, {"game": match.game, "match_id": match.pk, "status": match.status}
    )
    layer = get_channel_layer()
    send = async_to_sync(layer.group_send)
    try:
        send(LOBBY_GROUP, {"type": MESSAGE_TYPE, "text": text})
        send(match.group_name("all"), {"type": MESSAGE_TYPE, "text": text})
    except Exception as error:  # noqa: BLE001  (whatever the layer raises, the change stands: logged in one line)
        logger.warning("table %s changed, but the lobby was not told: %s", match.pk, type(error).__name__)
