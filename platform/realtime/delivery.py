"""What a match socket is sent, in order: :class:`OrderedViews`, mixed into ``MatchConsumer``.

* **Views in order.** The socket remembers the version of the last view it was sent (``sent_version``) and never
  sends one older than it, nor the same version again, whichever way a view comes: relayed through the channel
  layer, the mover's own view sent straight after its commit, a ``sync`` snapshot or the heartbeat's catch-up. Only
  ``view`` frames are ordered: ``presence``, ``chat``, ``error``, ``heartbeat`` and the rest always go through. A
  snapshot the client asked for (``sync``) may repeat the version it has (it carries the whole log and the chat);
  nothing else may.
* **The mover first.** A seat's own move sends that seat's view to the moving socket directly after the commit; the
  copy the channel layer relays to it later is then a duplicate and dropped. So the mover's view never waits behind
  frames queued for the socket, and arrives even when the channel layer is down.
* **``sync`` off the message loop, and capped.** A snapshot is a database read: it runs as a task of its own (one at
  a time per socket; a ``sync`` that arrives meanwhile is answered by one more read after it), so a move sent after
  a ``sync`` does not wait for it. Each socket may ask ``TAPETE_WS_SYNC_PER_SECOND`` times a second (bursts of
  ``TAPETE_WS_SYNC_BURST``) and each user, over all their sockets, ``TAPETE_WS_SYNC_PER_USER_PER_SECOND`` (bursts
  of ``TAPETE_WS_SYNC_PER_USER_BURST``); beyond that the answer is the error ``sync_limited``. Refusing is safe: the
  heartbeat (``realtime.heartbeat``) brings a socket that is behind up to date anyway.
"""

from __future__ import annotations

import asyncio

from django.conf import settings

from realtime.errors import transport_error
from realtime.ratelimit import TokenBucket
from turnengine import timing
from turnengine.updates import view_version


class OrderedViews:
    """Mixed into a ``FrameSocket`` that defines ``snapshot_text`` (a coroutine returning this socket's snapshot
    frame) and ``seat_group`` (the group whose views it takes), and calls :meth:`start_delivery` when it opens and
    :meth:`stop_delivery` when it closes."""

    sent_version = -1
    syncing: asyncio.Task | None = None
    sync_again = False

    def start_delivery(self, user_bucket: TokenBucket) -> None:
        self.sync_bucket = TokenBucket(settings.TAPETE_WS_SYNC_PER_SECOND, settings.TAPETE_WS_SYNC_BURST)
        self.user_sync_bucket = user_bucket

    async def send_view(self, text: str, version: int, *, asked: bool = False) -> bool:
        """Send a view unless this socket has a newer one (or, unless ``asked``, this very version)."""
        if version < self.sent_version or (version == self.sent_version and not asked):
            return False
        self.sent_version = version
        await self.send(text_data=text)
        return True

    async def frame_relay(self, message: dict) -> None:
        """A frame committed elsewhere (``realtime.broadcast``): a view goes through :meth:`send_view`. A new
        version's views come together to the match's group: this socket's is its own group's (``seat_group``: its
        seat's, or the spectators'), and a socket whose group has none (spectators nobody had counted yet) gets
        nothing."""
        frames = message.get("frames")
        text = message["text"] if frames is None else frames.get(self.seat_group)
        if text is None:
            return
        version = view_version(text)
        if version is None:
            await self.send(text_data=text)
        else:
            timing.stamp("relay", self.match_id, version)
            await self.send_view(text, version)
            timing.stamp("relayed", self.match_id, version)

    async def send_quietly(self, text: str) -> None:
        """For the heartbeat: a socket closing meanwhile is not an error."""
        try:
            await self.send(text_data=text)
        except Exception:  # noqa: BLE001, S110  (the socket went away between the beat's read and this send)
            pass

    async def catch_up(self, *, asked: bool = False) -> None:
        """Send this socket its snapshot if it is newer than what it has (``asked``: at least as new)."""
        text = await self.snapshot_text()
        await self.send_view(text, view_version(text), asked=asked)

    def request_sync(self) -> None:
        """A client's ``sync``: refused with ``sync_limited`` beyond the caps, else answered by a task of its own."""
        if not (self.sync_bucket.allow() and self.user_sync_bucket.allow()):
            raise transport_error("sync_limited")
        self.resync()

    def resync(self) -> None:
        """A snapshot the server chose to send (not counted against the client's caps), by a task of its own."""
        if self.syncing is not None and not self.syncing.done():
            self.sync_again = True
            return
        self.syncing = asyncio.get_running_loop().create_task(self._answer_sync())

    async def _answer_sync(self) -> None:
        try:
            while True:
                self.sync_again = False
                await self.catch_up(asked=True)
                if not self.sync_again:
                    return
        except Exception as error:  # noqa: BLE001  (as for any frame: logged, the socket stays open)
            self.log_failure(None, error)
            await self.send_error(transport_error("server_error"))

    def stop_delivery(self) -> None:
        if self.syncing is not None:
            self.syncing.cancel()
