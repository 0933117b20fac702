"""The lobby socket, with a logged-in player's social frames: the site's ``/ws/lobby/`` is served by this
subclass of the lobby's socket (``tapete.routing``). A visitor's socket is the lobby's as it was. A player's joins
their own group (``social.frames.user_group``): invitations, answers to their invitations, friend requests and
their friends' comings and goings reach every page they have open. Their socket is counted while it is open
(``social.presence``): the first one and the last one tell their friends who are online. The socket is held by
this process's life (``realtime.liveness``), so that a server killed without closing it leaves no row for ever."""

from __future__ import annotations

import logging
from functools import partial

from lobby.consumers import LobbyConsumer
from realtime.broadcast import run_writer
from realtime.liveness import current_life, send_bound
from social import presence
from social.frames import user_group

logger = logging.getLogger("tapete.social")


class SocialLobbyConsumer(LobbyConsumer):
    async def open(self) -> None:
        await super().open()
        user = self.scope.get("user")
        if user is None or not user.is_authenticated:
            return
        self.social_user = user
        self.social_group = user_group(user.pk)
        await self.channel_layer.group_add(self.social_group, self.channel_name)
        self.life = current_life(self.scope)  # the row names this process's life, which the sweeper watches
        self.socket_key = self.life.hold(self)
        try:
            await run_writer(
                partial(
                    presence.socket_open,
                    key=self.socket_key,
                    user=user,
                    server=self.life.name,
                    life=self.life.id,
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
                self.life.release(self.socket_key)
                await self.channel_layer.group_discard(self.social_group, self.channel_name)
                try:
                    await run_writer(
                        partial(presence.socket_close, key=self.socket_key, user=self.social_user),
                        timeout=send_bound(),
                    )
                except Exception as error:  # noqa: BLE001  (its row is forgotten once its life is given up)
                    logger.warning("social presence close failed with %s", type(error).__name__)
