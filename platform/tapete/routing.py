"""Websocket URL routes."""

from django.conf import settings
from django.urls import path

from botapi.events import EventStreamConsumer
from lobby.consumers import LobbyConsumer
from turnengine.consumers import MatchConsumer
from turnengine.echo import EchoConsumer, PairEchoConsumer

websocket_urlpatterns = [
    path("ws/lobby/", LobbyConsumer.as_asgi()),
    path("ws/match/<int:match_id>/", MatchConsumer.as_asgi()),
    path("ws/events/", EventStreamConsumer.as_asgi()),
]

if settings.TAPETE_BENCH_ECHO:
    websocket_urlpatterns += [
        path("ws/echo/", EchoConsumer.as_asgi()),
        path("ws/echo/<int:pair>/", PairEchoConsumer.as_asgi()),
    ]
