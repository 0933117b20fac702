"""The lobby socket, with a logged-in player's social frames: the site's ``/ws/lobby/`` is served by this
subclass of the lobby's socket (``tapete.routing``). A visitor's socket is the lobby's as it was. A player's joins
their own group (``social.frames.user_group``): invitations, answers to their invitations, friend requests and
their friends' comings and goings reach every page they have open. Their socket is counted while it is open
(``social.presence``): the first one and the last one tell their friends who are online."""

from __future__ import annotations

import asyncio
import logging
import uuid
from functools import partial

from lobby.consumers import LobbyConsumer
from realtime.broadcast import run_writer
from realtime.liveness import process_name, send_bound
from social import presence
from social.frames import user_group

logger = logging.getLogger("tapete.social")

# This process's life per event loop, as realtime.liveness keeps one: the first socket of a life forgets the rows
# a previous life of the same server left.
_life: tuple[asyncio.AbstractEventLoop, str] | None = None


def _current_life() -> tuple[str, bool]:
    global _life
    loop = asyncio.get_running_loop()
    if _life is None or _life[0] is not loop:
        _life = (loop, uuid.uuid4().hex)
        return _life[1], True
    return _life[1], False


class SocialLobbyConsumer(LobbyConsumer):
    async def open(self) -> None:
        await super().open()
        user = self.scope.get("user")
        if user is None or not user.is_authenticated:
            return
        self.social_user = user
        self.social_group = user_group(user.pk)
        await self.channel_layer.group_add(self.social_group, self.channel_name)
        self.socket_key = uuid.uuid4().hex
        life, first = _current_life()
        try:
            await run_writer(
                partial(
                    presence.socket_open,
                    key=self.socket_key,
                    user=user,
                    server=process_name(self.scope),
                    life=life,
                    first_of_life=first,
                ),
                timeout=send_bound(),
            )
        except Exception as error:  # noqa: BLE001  (the socket serves its frames all the same; shown offline)
            logger.warning("social presence open failed with %s", type(error).__name__)

    async def closed(self) -> None:
        try:
            await super().closed()
        finally:
            if getattr(self, "social_group", None) is not None:
                await self.channel_layer.group_discard(self.social_group, self.channel_name)
                try:
                    await run_writer(
                        partial(presence.socket_close, key=self.socket_key, user=self.social_user),
                        timeout=send_bound(),
                    )
                except Exception as error:  # noqa: BLE001  (its row is forgotten when this server starts again)
                    logger.warning("social presence close failed with %s", type(error).__name__)
