"""Websocket URL routes. A path served by none of them, or a table path whose id is not a number, is accepted and
closed with code 4404 (``realtime.sockets.NotFoundSocket``) rather than failing in the router."""

from django.urls import path, re_path

from botapi.events import EventStreamConsumer
from realtime.consumers import MatchConsumer
from realtime.sockets import NotFoundSocket
from social.consumers import SocialLobbyConsumer
from tournaments.consumers import TournamentConsumer

websocket_urlpatterns = [
    path("ws/lobby/", SocialLobbyConsumer.as_asgi()),  # the lobby's socket, with a player's social frames
    path("ws/match/<int:match_id>/", MatchConsumer.as_asgi()),
    path("ws/events/", EventStreamConsumer.as_asgi()),
    path("ws/tournament/<int:tournament_id>/", TournamentConsumer.as_asgi()),
]

websocket_urlpatterns.append(re_path(r"", NotFoundSocket.as_asgi()))  # last: everything else
