"""A tournament page's websocket: it only listens, and relays the small ``tournament`` frame each committed change
sends to the tournament's group (``tournaments.life_cycle.changed``); the page then fetches what changed. Visitors
need not be logged in; a tournament that does not exist is refused with 4404. A player's seating at a new table
reaches them over their lobby socket instead (``social.frames.push``), which every page of theirs holds."""

from channels.db import database_sync_to_async

from realtime.sockets import CLOSE_NOT_FOUND, FrameSocket
from tournaments.models import Tournament


class TournamentConsumer(FrameSocket):
    kinds = frozenset()  # nothing to send here

    async def open(self) -> None:
        tournament_id = self.scope["url_route"]["kwargs"]["tournament_id"]
        exists = await database_sync_to_async(Tournament.objects.filter(pk=tournament_id).exists)()
        if not exists:
            await self.refuse(CLOSE_NOT_FOUND)
            return
        self.group = f"tournament.{tournament_id}"
        await self.channel_layer.group_add(self.group, self.channel_name)
        await self.accept()

    async def closed(self) -> None:
        if getattr(self, "group", None):
            await self.channel_layer.group_discard(self.group, self.channel_name)
