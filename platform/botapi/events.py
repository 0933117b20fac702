"""The account's event stream, ``/ws/events/``: what a program needs to know to play, without polling.

Frames are ``{"t": "event", "v": null, "d": {"type": ..., "match_id": ..., ...}}`` with these types:

* ``challenge``: a table open to bot accounts is waiting for players (sent to bot accounts only);
* ``table_waiting``: you sit at a table that has not started (again whenever its seats change);
* ``game_start``: a table you sit at is being played (open its table websocket to play);
* ``your_turn``: the game awaits your seat at ``version``;
* ``game_end``: a table you sat at is over (``result`` has the ranking) or was cancelled.

The stream does not push state: it recomputes the account's tables whenever something may have changed for them
(a table the account sits or sat at opening, filling, starting or closing, and any move at the account's own
tables, whose groups it joins: it hears a move by its views, which come to the table's group together, and nothing
else said there) and sends what it has not sent yet. So a program that reconnects gets every pending
``game_start`` and ``your_turn`` again at once, which is its resync. What it reveals of a running match is
public (who sits where, whose turn), never a view. The writer's notice of a table change names who sits there and
carries the challenge itself (``turnengine.table_notices``), so a change costs a stream whose account it does not
concern no database read.
"""

from __future__ import annotations

import asyncio

from channels.db import database_sync_to_async

from botapi.accounts import is_bot_account
from moderation.sanctions import is_locked_out, user_group
from realtime.sockets import CLOSE_SUSPENDED, CLOSE_UNAUTHENTICATED, FrameSocket
from turnengine.models import Match, Seat
from turnengine.table_notices import EVENTS_GROUP, challenge_event
from turnengine.updates import encode_frame

CHALLENGES_LISTED = 50


def account_events(*, user, tracked: set[int]) -> tuple[list[tuple[tuple, dict]], dict[int, str]]:
    """Every event that holds now for ``user``, each with a key that names it once; and the group to follow at each
    of the user's tables (the table's). ``tracked`` are the matches followed so far (to notice their end)."""
    events: list[tuple[tuple, dict]] = []
    seats = list(
        Seat.objects.filter(user=user, match__status__in=[Match.Status.OPEN, Match.Status.ACTIVE])
        .select_related("match")
        .order_by("match_id")
    )
    following = {}
    for seat in seats:
        match = seat.match
        following[match.pk] = match.group_name("all")
        base = {"match_id": match.pk, "game": match.game, "seat": seat.index}
        if match.status == Match.Status.OPEN:
            seated = match.seats.count()
            events.append(
                (
                    ("table_waiting", match.pk, seated),
                    {"type": "table_waiting", **base, "seated": seated, "num_players": match.num_players},
                )
            )
            continue
        events.append((("game_start", match.pk), {"type": "game_start", **base, "version": match.version}))
        if seat.index in match.rules.awaited(match.state):
            events.append(
                (
                    ("your_turn", match.pk, match.version),
                    {"type": "your_turn", **base, "version": match.version},
                )
            )
    for match in Match.objects.filter(pk__in=tracked - following.keys()):
        if match.status in {Match.Status.FINISHED, Match.Status.ABORTED}:
            events.append(
                (
                    ("game_end", match.pk),
                    {
                        "type": "game_end",
                        "match_id": match.pk,
                        "game": match.game,
                        "status": match.status,
                        "result": match.result,
                    },
                )
            )
    if is_bot_account(user):
        open_tables = (
            Match.objects.filter(status=Match.Status.OPEN, admits_bots=True)
            .exclude(seats__user=user)
            .select_related("created_by")
            .order_by("-pk")[:CHALLENGES_LISTED]
        )
        for match in open_tables:
            events.append((("challenge", match.pk), challenge_event(match)))
    return events, following


class EventStreamConsumer(FrameSocket):
    """Counted against the same limits per user and per address as every socket (``realtime.sockets``). It only
    speaks: a client frame gets an ``error`` (``unknown_frame``) and the socket stays open."""

    kinds = frozenset()

    async def open(self) -> None:
        user = self.scope.get("user")
        if user is None or not user.is_authenticated:
            await self.refuse(CLOSE_UNAUTHENTICATED)
            return
        if await database_sync_to_async(is_locked_out)(user):
            await self.refuse(CLOSE_SUSPENDED)
            return
        self.user = user
        self.bot_account = await database_sync_to_async(is_bot_account)(user)
        self.sent: set[tuple] = set()
        self.following: dict[int, str] = {}
        self.refreshing = asyncio.Lock()
        self.dirty = False
        self.groups_joined = [user_group(user.pk), EVENTS_GROUP]  # a suspension closes this socket at once
        for group in self.groups_joined:
            await self.channel_layer.group_add(group, self.channel_name)
        await self.accept()
        await self.send(
            text_data=encode_frame("hello", None, {"username": user.username, "bot": user.is_bot})
        )
        await self.refresh()

    async def closed(self) -> None:
        for group in [*getattr(self, "groups_joined", []), *getattr(self, "following", {}).values()]:
            await self.channel_layer.group_discard(group, self.channel_name)

    async def refresh(self) -> None:
        """Recompute and send what is new; pokes arriving meanwhile make one more round, not one each."""
        self.dirty = True
        if self.refreshing.locked():
            return
        async with self.refreshing:
            while self.dirty:
                self.dirty = False
                events, following = await database_sync_to_async(account_events)(
                    user=self.user, tracked=set(self.following)
                )
                for match_id, group in following.items():  # the moves at the account's tables poke us
                    if match_id not in self.following:
                        await self.channel_layer.group_add(group, self.channel_name)
                for match_id, group in self.following.items():
                    if match_id not in following:
                        await self.channel_layer.group_discard(group, self.channel_name)
                self.following = following
                for key, event in events:
                    await self.send_event(key, event)

    async def send_event(self, key: tuple, event: dict) -> None:
        if key not in self.sent:
            self.sent.add(key)
            await self.send(text_data=encode_frame("event", None, event))

    async def table_changed(self, message: dict) -> None:
        """A table opened, filled, started or closed (``turnengine.table_notices``): read the account's tables again
        only if the account sits (or sat) there; a challenge for a bot account comes whole with the message."""
        if self.user.pk in message["seated"] or message["match_id"] in self.following:
            await self.refresh()
        elif self.bot_account and message["challenge"] is not None:
            await self.send_event(("challenge", message["match_id"]), message["challenge"])

    async def frame_relay(self, message: dict) -> None:
        """A move was made at one of the account's tables (its views, ``realtime.broadcast``); the table's other
        frames (presence, spectators, chat) change nothing of the account's."""
        if "frames" in message:
            await self.refresh()

    async def chat_line(self, message: dict) -> None:
        """A chat line at one of the account's tables: not an event."""

    async def session_revoke(self, message: dict) -> None:
        await self.close_with(CLOSE_SUSPENDED)
