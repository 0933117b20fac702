"""The match websocket: a thin adapter between typed client messages and the turn engine's services.

It authenticates (session cookie; the origin is checked by the ASGI router), resolves the user's seat, joins the
table's group (where each version's views come, the socket taking its seat's: ``realtime.delivery``) and, for a
spectator, the spectators' group, sends a snapshot, then turns each client message into a service call. A visitor
without an account may watch: their socket joins the spectators' group like any spectator's (the same one frame per
version) and may only read (``login_required`` for chat), unless the table allows no spectators
(``spectating.may_watch``: closed with 4405). Limits, parsing, errors and close codes are the base's
(``realtime.sockets``); views in order, the mover's own view first and ``sync`` are ``realtime.delivery``'s; the
process's heartbeat (``realtime.heartbeat``) keeps every socket up to date. Frame format and codes:
``docs/protocol.md``.
"""

from __future__ import annotations

from functools import partial

from channels.db import database_sync_to_async
from django.conf import settings
from django.db.models import OuterRef, QuerySet, Subquery

from moderation.notices import lifted_notice, socket_notice
from moderation.sanctions import is_locked_out, lockout_of, user_group
from moderation.services import chat_mute_toggle
from realtime.broadcast import run_writer
from realtime.delivery import OrderedViews
from realtime.frames import Act, Chat, ClientMessage, Intent, Mute, Quick
from realtime.heartbeat import HEARTBEAT
from realtime.liveness import Presence
from realtime.sockets import (
    CLOSE_NO_SPECTATORS,
    CLOSE_NOT_FOUND,
    CLOSE_SUSPENDED,
    CLOSE_UNAUTHENTICATED,
    REGISTER,
    FrameSocket,
)
from turnengine import chat, quick_chat, seat_frames, services, spectating, timers, timing, updates
from turnengine.errors import engine_error
from turnengine.models import Match, Seat
from turnengine.rematch_offers import rematch_state, series_score
from web.compiled import Compiled, row_reader

# A move's transaction and the frames built from it run on the process's writer thread in one hop (run_writer):
# measured under load, a second hop to another thread for the frames cost more than the frames themselves.
SEAT_INTENTS = {
    "back": timers.seat_reclaim,
    "leave": timers.seat_leave,
    "end": timers.match_end_by_vote,
    "claim": timers.match_claim_win,
}


def _table(match_id: int) -> QuerySet:
    return Match.objects.filter(pk=match_id).values_list("version", "status", "spectators_allowed")


def _table_for_user(match_id: int, user_id: int) -> QuerySet:
    seat = Seat.objects.filter(match=OuterRef("pk"), user_id=user_id).order_by("index").values("index")[:1]
    return (
        Match.objects.filter(pk=match_id)
        .annotate(user_seat=Subquery(seat), locked_out=lockout_of(user_id))
        .values_list("version", "status", "spectators_allowed", "user_seat", "locked_out")
    )


# Every socket's handshake reads one of these: compiled once (web.compiled says why).
_TABLE = Compiled(_table, match_id=int)
_TABLE_FOR_USER = Compiled(_table_for_user, match_id=int, user_id=int)
_read_match = row_reader(Match)  # every snapshot's


class MatchConsumer(OrderedViews, FrameSocket):
    hidden: frozenset[int] = frozenset()  # the authors whose chat lines this socket drops (whom its user blocked)
    may_watch_play = True  # False: opened on the waiting page of a table that allows no spectators, by a stranger

    async def open(self) -> None:
        user = self.scope.get("user")
        if user is None:
            await self.refuse(CLOSE_UNAUTHENTICATED)
            return
        self.user = user  # a visitor's AnonymousUser watches (spectators' group, read-only)
        self.match_id = self.scope["url_route"]["kwargs"]["match_id"]
        refusal = await database_sync_to_async(self._resolve)()
        if refusal == CLOSE_SUSPENDED:
            await self.accept()  # accepted, so that the page can read why (a refused handshake says nothing)
            if not await self.close_sanctioned(None):
                await self.close_with(CLOSE_SUSPENDED)  # lifted meanwhile: the plain refusal
            return
        if refusal is not None:
            await self.refuse(refusal)
            return
        # A seat's views come with everyone's to the table's group; the spectators' group also carries their chat
        # and their control messages (``turnengine.spectating``), so spectators join it too.
        self.groups_joined = [self.table_group] if self.seat is not None else [self.table_group, self.seat_group]
        if user.is_authenticated:
            self.groups_joined.append(user_group(self.user.pk))  # a suspension or ban closes this socket at once
            self.groups_joined.append(chat.reader_group(self.user.pk))  # whom they block changed
        for group in self.groups_joined:
            await self.channel_layer.group_add(group, self.channel_name)
        self.presence = Presence(self, self.match_id, self.seat, user_id=self.user.pk)
        try:
            if self.seat is None:  # counted before the snapshot is read (presence.connection_open says why)
                await self.presence.opened()
            await self.accept()
            self.start_delivery(self._user_sync_bucket())
            await self.catch_up()
            HEARTBEAT.add(self)
            if self.seat is not None:
                await self.presence.opened()
        except BaseException:
            await self.presence.closed()  # the socket will not live: uncount it whatever the close does
            raise

    def _resolve(self) -> int | None:
        """This user's seat at the table, or the close code that refuses the socket (``CLOSE_SUSPENDED`` first: a
        suspended or banned player). The socket keeps the table's id and the version it last read, not the table: a
        match with its state was about 5 KiB of every idle socket (bench/idle_sockets.py --breakdown), and each
        snapshot reads the table again anyway. One query reads what the checks need, the user's seat and whether
        they are locked out, and not the state."""
        if self.user.is_authenticated:
            row = _TABLE_FOR_USER.first(match_id=self.match_id, user_id=self.user.pk)
        else:  # a visitor: no seat, no sanction
            row = _TABLE.first(match_id=self.match_id)
            row = None if row is None else (*row, None, False)
        if row is None:  # no such table; a locked-out player is told that first all the same
            return CLOSE_SUSPENDED if self.user.is_authenticated and is_locked_out(self.user) else CLOSE_NOT_FOUND
        version, status, spectators_allowed, self.seat, locked_out = row
        if locked_out:
            return CLOSE_SUSPENDED
        # What the checks below read of the table:
        match = Match(pk=self.match_id, version=version, status=status, spectators_allowed=spectators_allowed)
        self.match_version = match.version
        self.seat_group, self.table_group = match.group_name(self.seat), match.group_name("all")
        if not spectating.may_watch(match, self.user, self.seat):
            return CLOSE_NO_SPECTATORS
        self.may_watch_play = spectating.may_watch_play(match, self.user, self.seat)
        self.hidden = chat.hidden_authors(self.user)
        return None

    def _snapshot(self) -> str:
        match = _read_match(self.match_id)
        if match is None:  # deleted since the socket opened (an abandoned guest's table)
            raise Match.DoesNotExist
        self.match_version = match.version
        extra = {"spectators": spectating.spectators_data(match)}
        if match.status == Match.Status.FINISHED:  # the result screen: the rematch offer, the series' score
            extra.update(rematch=rematch_state(match), series=series_score(match))
        return seat_frames.match_snapshot(match=match, seat=self.seat, extra=extra, hidden=self.hidden)

    def _table(self) -> Match:
        """The table as a chat line needs it: its id, and the version this socket last read (the line's ``v``)."""
        return Match(pk=self.match_id, version=self.match_version)

    async def snapshot_text(self) -> str:
        return await database_sync_to_async(self._snapshot)()

    def _user_sync_bucket(self):
        """Every socket of one user draws its ``sync`` snapshots from one bucket (``realtime.delivery``)."""
        return REGISTER.bucket(
            f"sync:{self.user_key or self.ip_key or self.channel_name}",
            rate=settings.TAPETE_WS_SYNC_PER_USER_PER_SECOND,
            burst=settings.TAPETE_WS_SYNC_PER_USER_BURST,
        )

    async def closed(self) -> None:
        HEARTBEAT.discard(self)
        self.stop_delivery()
        try:
            for group in getattr(self, "groups_joined", []):
                await self.channel_layer.group_discard(group, self.channel_name)
        finally:  # uncounted whatever the channel layer says (else the ticker would count it on)
            if getattr(self, "presence", None) is not None:
                await self.presence.closed()

    async def handle(self, message: ClientMessage) -> None:
        if isinstance(message, Chat | Quick | Mute) and not self.user.is_authenticated:
            raise engine_error("login_required")
        if isinstance(message, Act):
            await self.on_act(message)
        elif isinstance(message, Chat):
            await self.on_chat(message)
        elif isinstance(message, Quick):
            await self.on_quick(message)
        elif isinstance(message, Mute):
            await self.on_mute(message)
        elif message.kind == "sync":
            await self.on_sync()
        else:
            await self.on_seat_intent(message)

    async def on_act(self, message: Act) -> None:
        if self.seat is None:
            raise engine_error("not_seated")
        timing.stamp("act", self.match_id, message.version)
        move = partial(
            services.match_apply_action,
            match_id=self.match_id,
            user=self.user,
            expected_version=message.version,
            action=message.action,
        )
        await run_writer(move, first=self.send_own_view)  # the mover's view ahead of everyone's
        timing.stamp("acted", self.match_id, message.version)

    async def send_own_view(self, committed: list[updates.Update]) -> None:
        """The mover's own view, from the updates its move committed, straight to this socket."""
        own = updates.frame_for(committed, self.seat_group)
        if own is not None:
            await self.send_view(*own)

    async def on_seat_intent(self, message: Intent) -> None:
        """``back`` (an absent player returns), ``leave`` (stand up from a running game), ``end`` (end a table where
        everyone else is absent), ``claim`` (claim the win of a two-player ranked game the opponent left). Each
        changes nothing, and sends nothing, when repeated."""
        if self.seat is None:
            raise engine_error("not_seated")
        service = SEAT_INTENTS[message.kind]
        await run_writer(partial(service, match_id=self.match_id, user=self.user))

    async def on_sync(self) -> None:
        self.request_sync()

    async def on_chat(self, message: Chat) -> None:
        await run_writer(
            partial(
                chat.chat_post,
                match=self._table(),
                user=self.user,
                seat=self.seat,
                text=message.text,
                max_length=settings.TAPETE_CHAT_MAX_LENGTH,
            )
        )

    async def on_quick(self, message: Quick) -> None:
        await run_writer(
            partial(
                quick_chat.quick_post, match=self._table(), user=self.user, seat=self.seat, phrase=message.phrase
            )
        )

    async def spectators_closed(self, message: dict) -> None:
        """The table started and allows no spectators: a socket opened on its waiting page by someone who may not
        watch it played is closed (4405; the waiting page reloads and says why)."""
        if not self.may_watch_play:
            await self.close_with(CLOSE_NO_SPECTATORS)

    async def chat_line(self, message: dict) -> None:
        """A table chat line (``turnengine.chat``): sent on unless its author is one this user blocked."""
        if message["author"] not in self.hidden:
            await self.send(text_data=message["text"])

    async def chat_reader_changed(self, message: dict) -> None:
        """This user blocked or unblocked someone: read whose lines to drop, and send a fresh snapshot, whose chat
        the page shows in place of its own."""
        self.hidden = await database_sync_to_async(chat.hidden_authors)(self.user)
        self.resync()

    async def on_mute(self, message: Mute) -> None:
        """Hide (``mute``) or show again (``unmute``) another player's chat, for this player only."""
        muted = await database_sync_to_async(chat_mute_toggle)(
            user=self.user, username=message.username, mute=message.mute
        )
        await self.send(text_data=updates.encode_frame("muted", None, {"muted": muted}))

    async def session_revoke(self, message: dict) -> None:
        """A moderator suspended or banned this player: tell them, then close the socket now."""
        await self.close_sanctioned(message.get("sanction"))

    async def close_sanctioned(self, sanction_id: int | None) -> bool:
        """A ``sanction`` frame (what, why, until when), then close code 4403 with the headline as its reason;
        False (and nothing sent) when the sanction was lifted meanwhile."""
        data, reason = await database_sync_to_async(socket_notice)(
            user=self.user, scope=self.scope, sanction_id=sanction_id
        )
        if data is None:
            return False
        await self.send(text_data=updates.encode_frame("sanction", None, data))
        await self.close(code=CLOSE_SUSPENDED, reason=reason)
        return True

    async def moderation_notice(self, message: dict) -> None:
        """A moderator warned or muted this player: the table shows it at once."""
        data, _reason = await database_sync_to_async(socket_notice)(
            user=self.user, scope=self.scope, sanction_id=message["sanction"]
        )
        if data is not None:
            await self.send(text_data=updates.encode_frame("sanction", None, data))

    async def moderation_lifted(self, message: dict) -> None:
        """A moderator lifted this player's mute: the table's chat box opens again at once."""
        kind, data = await database_sync_to_async(lifted_notice)(
            user=self.user, scope=self.scope, sanction_id=message["sanction"]
        )
        await self.send(text_data=updates.encode_frame(kind, None, data))
