"""A tournament's websockets: they only listen, and relay the small ``tournament`` frames each committed change sends
(``tournaments.life_cycle.changed``); the page then fetches what changed.

- ``ws/tournament/<id>/``, the tournament's page: every change (its group), and for a logged-in player also the
  frame that seats them (their own group). Visitors need not be logged in.
- ``ws/tournament/<id>/mine/``, a tournament table's page: only the frames that seat its player at a new table, so
  that the tables of a large arena do not each hear every other table's end. Logged-in players only (4401).

A tournament that does not exist is refused with 4404."""

from channels.db import database_sync_to_async

from realtime.sockets import CLOSE_NOT_FOUND, CLOSE_UNAUTHENTICATED, FrameSocket
from tournaments.models import Tournament


class TournamentConsumer(FrameSocket):
    kinds = frozenset()  # nothing to send here
    every_change = True  # the page's socket; the table page's hears only its player's seating

    async def open(self) -> None:
        tournament_id = self.scope["url_route"]["kwargs"]["tournament_id"]
        tournament = await database_sync_to_async(Tournament.objects.filter(pk=tournament_id).only("pk").first)()
        if tournament is None:
            await self.refuse(CLOSE_NOT_FOUND)
            return
        user = self.scope.get("user")
        mine = [tournament.player_group_name(user.pk)] if user is not None and user.is_authenticated else []
        if not self.every_change and not mine:
            await self.refuse(CLOSE_UNAUTHENTICATED)
            return
        self.joined = ([tournament.group_name()] if self.every_change else []) + mine
        for group in self.joined:
            await self.channel_layer.group_add(group, self.channel_name)
        await self.accept()

    async def closed(self) -> None:
        for group in getattr(self, "joined", ()):
            await self.channel_layer.group_discard(group, self.channel_name)


class TournamentSeatingConsumer(TournamentConsumer):
    every_change = False
