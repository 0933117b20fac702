"""The frames the social app pushes to one player, over the lobby socket every page of a logged-in player holds
(``social.consumers``), and the word it sends a player's table sockets when whom they block changes: they leave on
commit through the engine's outbox, as every frame does."""

from __future__ import annotations

from turnengine import chat, outbox
from turnengine.updates import Update, encode_frame


def user_group(user_id: int) -> str:
    """The channel-layer group of every lobby socket of one player."""
    return f"social.{user_id}"


def push(user_ids, kind: str, data: dict) -> None:
    """Send ``kind`` with ``data`` to every lobby socket of each of ``user_ids`` once the transaction commits."""
    text = encode_frame(kind, None, data)
    outbox.send_on_commit(Update({user_group(user_id): text for user_id in user_ids}))


def blocks_changed(user_id: int) -> None:
    """Once the transaction commits, ``user_id``'s open table sockets read whom they block again (and send a
    snapshot without their lines): ``turnengine.chat``."""
    outbox.send_on_commit(Update(messages={chat.reader_group(user_id): {"type": chat.READER_CHANGED}}))
