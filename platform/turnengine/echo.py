"""A bare echo consumer on the same stack as the match socket (auth, origin check, channel layer): the baseline
that ``bench/ws_load.py`` compares move round trips against. Routed only when ``TAPETE_BENCH_ECHO`` is set."""

from channels.generic.websocket import AsyncWebsocketConsumer

from turnengine.dispatch import DispatchWithoutDatabaseHop


class EchoConsumer(DispatchWithoutDatabaseHop, AsyncWebsocketConsumer):
    async def receive(self, text_data=None, bytes_data=None):
        await self.send(text_data=text_data, bytes_data=bytes_data)
