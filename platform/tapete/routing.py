"""Websocket URL routes."""

from django.urls import path

from lobby.consumers import LobbyConsumer
from turnengine.consumers import MatchConsumer

websocket_urlpatterns = [
    path("ws/lobby/", LobbyConsumer.as_asgi()),
    path("ws/match/<int:match_id>/", MatchConsumer.as_asgi()),
]
