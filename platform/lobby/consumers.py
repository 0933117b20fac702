"""The lobby websocket: pushes a small ``lobby`` frame whenever a table opens, fills, starts or closes, so open
lobby pages refresh their table lists without a reload. Visitors need not be logged in. The socket only listens: a
client frame gets an ``error`` (``unknown_frame``, or why it could not be read) and the socket stays open."""

from realtime.sockets import FrameSocket
from turnengine.table_notices import LOBBY_GROUP


class LobbyConsumer(FrameSocket):
    kinds = frozenset()  # nothing to send here

    async def open(self) -> None:
        await self.channel_layer.group_add(LOBBY_GROUP, self.channel_name)
        self.joined = True
        await self.accept()

    async def closed(self) -> None:
        if getattr(self, "joined", False):
            await self.channel_layer.group_discard(LOBBY_GROUP, self.channel_name)
