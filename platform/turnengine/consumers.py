"""The match websocket: a thin adapter between frames and the turn engine's services.

It authenticates (session cookie; the origin is checked by the ASGI router), resolves the user's seat, joins that
seat's group (or the spectators') and the table's, sends a snapshot, then turns allow-listed client frames into
service calls. Errors go back to the sender only. Frame format and codes: ``docs/protocol.md``.
"""

from __future__ import annotations

import orjson
from channels.db import database_sync_to_async
from channels.generic.websocket import AsyncJsonWebsocketConsumer
from django.conf import settings

from moderation.notices import socket_notice
from moderation.services import (
    chat_mute_toggle,
    is_locked_out,
    user_group,
)
from turnengine import chat, services, timers
from turnengine.broadcast import broadcast
from turnengine.dispatch import DispatchWithoutDatabaseHop
from turnengine.errors import EngineError, engine_error
from turnengine.models import Match, Seat
from turnengine.ratelimit import TokenBucket

CLOSE_UNAUTHENTICATED = 4401
CLOSE_SUSPENDED = 4403
CLOSE_NOT_FOUND = 4404

# The transaction and the frames built from it run on Channels' database thread in one hop: measured under load,
# a second hop to another thread for the frames cost more than the frames themselves. (A pool of database threads
# measured worse too: the threads fight the event loop for the GIL.)
apply_action = database_sync_to_async(services.match_apply_action)


class MatchConsumer(DispatchWithoutDatabaseHop, AsyncJsonWebsocketConsumer):
    async def connect(self) -> None:
        user = self.scope.get("user")
        if user is None or not user.is_authenticated:
            await self.close(code=CLOSE_UNAUTHENTICATED)
            return
        self.user = user
        self.match_id = self.scope["url_route"]["kwargs"]["match_id"]
        if await database_sync_to_async(is_locked_out)(user):
            await self.accept()  # accepted, so that the page can read why (a refused handshake says nothing)
            await self.close_sanctioned(None)
            return
        found = await database_sync_to_async(self._resolve)()
        if not found:
            await self.close(code=CLOSE_NOT_FOUND)
            return
        self.bucket = TokenBucket(settings.TAPETE_WS_RATE_PER_SECOND, settings.TAPETE_WS_RATE_BURST)
        self.groups_joined = [
            self.match.group_name(self.seat),
            self.match.group_name("all"),
            user_group(self.user.pk),  # a suspension or ban closes this socket at once
        ]
        for group in self.groups_joined:
            await self.channel_layer.group_add(group, self.channel_name)
        if self.seat is None:  # counted before the snapshot is read (services.presence_change says why)
            await database_sync_to_async(self._presence)(+1)
        await self.accept()
        await self.send(text_data=await database_sync_to_async(self._snapshot)())
        if self.seat is not None:
            await broadcast(await database_sync_to_async(self._presence)(+1))

    def _resolve(self) -> bool:
        self.match = Match.objects.filter(pk=self.match_id).first()
        if self.match is None:
            return False
        self.seat = (
            Seat.objects.filter(match=self.match, user=self.user).values_list("index", flat=True).first()
        )
        return True

    def _snapshot(self) -> str:
        self.match.refresh_from_db()
        return services.match_snapshot(match=self.match, seat=self.seat)

    def _presence(self, delta: int) -> services.Update:
        update = services.presence_change(match=self.match, seat=self.seat, delta=delta)
        self.counted = delta > 0  # a socket that failed before being counted must not uncount another
        return update

    async def disconnect(self, code: int) -> None:
        for group in getattr(self, "groups_joined", []):
            await self.channel_layer.group_discard(group, self.channel_name)
        if getattr(self, "counted", False):
            await broadcast(await database_sync_to_async(self._presence)(-1))

    async def receive(self, text_data: str | None = None, bytes_data: bytes | None = None, **kwargs) -> None:
        if not self.bucket.allow():
            await self.send_error(engine_error("rate_limited"))
            return
        raw = text_data if text_data is not None else (bytes_data or b"").decode("utf-8", "replace")
        if len(raw.encode("utf-8")) > settings.TAPETE_WS_MAX_FRAME_BYTES:
            await self.send_error(engine_error("too_large"))
            return
        try:
            frame = orjson.loads(raw)
        except orjson.JSONDecodeError:
            await self.send_error(engine_error("malformed"))
            return
        await self.receive_json(frame)

    async def receive_json(self, content, **kwargs) -> None:
        if not isinstance(content, dict) or not isinstance(content.get("t"), str):
            await self.send_error(engine_error("malformed"))
            return
        handler = {
            "act": self.on_act,
            "sync": self.on_sync,
            "chat": self.on_chat,
            "back": self.on_seat_service,
            "leave": self.on_seat_service,
            "end": self.on_seat_service,
            "mute": self.on_mute,
            "unmute": self.on_mute,
        }.get(content["t"])
        if handler is None:
            await self.send_error(engine_error("unknown_frame"))
            return
        try:
            await handler(content)
        except EngineError as error:
            await self.send_error(error)

    async def on_act(self, frame: dict) -> None:
        version, action = frame.get("v"), frame.get("d")
        if isinstance(version, bool) or not isinstance(version, int) or not isinstance(action, dict):
            raise engine_error("malformed")
        if self.seat is None:
            raise engine_error("not_seated")
        update = await apply_action(
            match_id=self.match.pk, user=self.user, expected_version=version, action=action
        )
        await broadcast(update)

    async def on_seat_service(self, frame: dict) -> None:
        """``back`` (an absent player returns), ``leave`` (stand up from a running game), ``end`` (end a table where
        everyone else is absent)."""
        if self.seat is None:
            raise engine_error("not_seated")
        service = {"back": timers.seat_reclaim, "leave": timers.seat_leave, "end": timers.match_end_by_vote}
        update = await database_sync_to_async(service[frame["t"]])(match_id=self.match.pk, user=self.user)
        await broadcast(update)

    async def on_sync(self, frame: dict) -> None:
        await self.send(text_data=await database_sync_to_async(self._snapshot)())

    async def on_chat(self, frame: dict) -> None:
        data = frame.get("d")
        text = data.get("text") if isinstance(data, dict) else None
        update = await database_sync_to_async(chat.chat_post)(
            match=self.match,
            user=self.user,
            seat=self.seat,
            text=text,
            max_length=settings.TAPETE_CHAT_MAX_LENGTH,
        )
        await broadcast(update)

    async def on_mute(self, frame: dict) -> None:
        """Hide (``mute``) or show again (``unmute``) another player's chat, for this player only."""
        data = frame.get("d")
        username = data.get("username") if isinstance(data, dict) else None
        if not isinstance(username, str):
            raise engine_error("malformed")
        muted = await database_sync_to_async(chat_mute_toggle)(
            user=self.user, username=username, mute=frame["t"] == "mute"
        )
        await self.send(text_data=services.encode_frame("muted", None, {"muted": muted}))

    async def session_revoke(self, message: dict) -> None:
        """A moderator suspended or banned this player: tell them, then close the socket now."""
        await self.close_sanctioned(message.get("sanction"))

    async def close_sanctioned(self, sanction_id: int | None) -> None:
        """A ``sanction`` frame (what, why, until when), then close code 4403 with the headline as its reason."""
        data, reason = await database_sync_to_async(socket_notice)(
            user=self.user, scope=self.scope, sanction_id=sanction_id
        )
        if data is None:  # lifted meanwhile
            return
        await self.send(text_data=services.encode_frame("sanction", None, data))
        await self.close(code=CLOSE_SUSPENDED, reason=reason)

    async def moderation_notice(self, message: dict) -> None:
        """A moderator warned or muted this player: the table shows it at once."""
        data, _reason = await database_sync_to_async(socket_notice)(
            user=self.user, scope=self.scope, sanction_id=message["sanction"]
        )
        if data is not None:
            await self.send(text_data=services.encode_frame("sanction", None, data))

    async def frame_relay(self, message: dict) -> None:
        await self.send(text_data=message["text"])

    async def send_error(self, error: EngineError) -> None:
        await self.send(text_data=services.encode_frame("error", error.version, error.as_frame_data()))
