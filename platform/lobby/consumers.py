"""The lobby websocket, which every page of the site opens: it pushes a small ``lobby`` frame whenever a table
opens, fills, starts or closes, so open lobby pages refresh their table lists without a reload; and, to a logged-in
player, a ``turns`` frame whenever the number of tables awaiting their move changes (``turnengine.awaiting``: the
header's badge, the tab's title and icon, the "Your move" page, the browser notification), the first one as it
opens. Visitors need not be logged in. The socket only listens: a client frame gets an ``error``
(``unknown_frame``, or why it could not be read) and the socket stays open.

A page without table lists opens ``/ws/lobby/?lists=0`` and hears no ``lobby`` frame: when a large tournament starts
and ends tables by the dozen each second, the pages of its players (and every other page) need not hear each one."""

from urllib.parse import parse_qs

from channels.db import database_sync_to_async

from realtime.sockets import FrameSocket
from turnengine import awaiting
from turnengine.table_notices import LOBBY_GROUP
from turnengine.updates import encode_frame

_count_of = database_sync_to_async(awaiting.count_of)


class LobbyConsumer(FrameSocket):
    kinds = frozenset()  # nothing to send here

    async def open(self) -> None:
        query = parse_qs(self.scope.get("query_string", b"").decode("latin-1"))
        self.groups_joined = [] if query.get("lists") == ["0"] else [LOBBY_GROUP]
        user = self.scope.get("user")
        counts_turns = user is not None and user.is_authenticated and not user.is_bot
        if counts_turns:
            self.groups_joined.append(awaiting.group(user.pk))
        for name in self.groups_joined:
            await self.channel_layer.group_add(name, self.channel_name)
        await self.accept()
        if counts_turns:
            # The count as the socket opens (a page kept in the browser's cache, a reconnection): read, not counted.
            count = await _count_of(user)
            await self.send(text_data=encode_frame("turns", None, {"count": count, "match_id": None, "yours": False}))

    async def closed(self) -> None:
        for name in getattr(self, "groups_joined", ()):
            await self.channel_layer.group_discard(name, self.channel_name)
