"""Bare echo consumers on the same stack as the match socket (auth, origin check, channel layer): the baselines that
``bench/ws_load.py`` compares move round trips against. ``bench.echo:application`` is the site's ASGI application
with these routes added; the site itself never serves them.

* ``/ws/echo/`` sends each frame straight back to its socket.
* ``/ws/echo/<pair>/`` is the move's round trip without the engine: a frame from either socket of a pair goes
  through the channel layer to the pair's group, so it reaches both sockets, connected to different processes
  like the two seats of a table, exactly as a move's views do.
* ``/ws/echo/memory/`` answers each frame, after a full garbage collection, with the serving process's pid and
  resident memory (``{"pid": ..., "rss_kib": ...}``, ``null`` without ``/proc``): what ``bench/idle_sockets.py``
  reads before and after it connects its idle seats.
"""

import gc
import json
import os

from channels.generic.websocket import AsyncWebsocketConsumer
from django.urls import path

from bench.proc_usage import rss_kib
from realtime.dispatch import DispatchWithoutDatabaseHop
from tapete.asgi import site_application
from tapete.routing import websocket_urlpatterns


class EchoConsumer(DispatchWithoutDatabaseHop, AsyncWebsocketConsumer):
    async def receive(self, text_data=None, bytes_data=None):
        await self.send(text_data=text_data, bytes_data=bytes_data)


class PairEchoConsumer(DispatchWithoutDatabaseHop, AsyncWebsocketConsumer):
    async def connect(self):
        self.group = f"echo.{self.scope['url_route']['kwargs']['pair']}"
        await self.channel_layer.group_add(self.group, self.channel_name)
        await self.accept()

    async def disconnect(self, code):
        await self.channel_layer.group_discard(self.group, self.channel_name)

    async def receive(self, text_data=None, bytes_data=None):
        await self.channel_layer.group_send(self.group, {"type": "frame.relay", "text": text_data})

    async def frame_relay(self, message):
        await self.send(text_data=message["text"])


class MemoryConsumer(DispatchWithoutDatabaseHop, AsyncWebsocketConsumer):
    async def receive(self, text_data=None, bytes_data=None):
        gc.collect()
        await self.send(text_data=json.dumps({"pid": os.getpid(), "rss_kib": rss_kib()}))


application = site_application(
    [
        path("ws/echo/", EchoConsumer.as_asgi()),
        path("ws/echo/memory/", MemoryConsumer.as_asgi()),
        path("ws/echo/<int:pair>/", PairEchoConsumer.as_asgi()),
        *websocket_urlpatterns,  # the site's routes, its catch-all last
    ]
)
