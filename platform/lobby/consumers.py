"""The lobby websocket: pushes a small ``lobby`` frame whenever a table opens, fills, starts or closes, so open
lobby pages refresh their table lists without a reload."""

from channels.generic.websocket import AsyncJsonWebsocketConsumer

from lobby.notify import LOBBY_GROUP
from turnengine.dispatch import DispatchWithoutDatabaseHop


class LobbyConsumer(DispatchWithoutDatabaseHop, AsyncJsonWebsocketConsumer):
    async def connect(self) -> None:
        await self.channel_layer.group_add(LOBBY_GROUP, self.channel_name)
        await self.accept()

    async def disconnect(self, code: int) -> None:
        await self.channel_layer.group_discard(LOBBY_GROUP, self.channel_name)

    async def receive_json(self, content, **kwargs) -> None:
        """The lobby socket only listens; anything a client sends is ignored."""

    async def frame_relay(self, message: dict) -> None:
        await self.send(text_data=message["text"])
