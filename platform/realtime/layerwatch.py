"""Whether this process hears its channel layer: a probe through the layer at every part of the heartbeat.

A frame published while this process is not subscribed is lost for its sockets, and nothing tells the publisher:
Redis took it. That happens while Redis cannot be reached from here, and also for up to a second after it can again:
channels_redis' receiving task tries its connection once a second and only then subscribes this process's channels
again, while the publishers' connections are back at once. The heartbeat brings a socket that lost a frame up to
date at its own pace (each match every ``TAPETE_HEARTBEAT_SECONDS``, once the commit is older than the delivery
bound), which is later than a short clock runs out: a move made in that second after Redis came back left the
other seat timed out on a position it never saw (``tests/realtime/test_delivery_faults.py``).

So at every part of its beat the heartbeat sends a numbered probe to a channel of this process's own, through the
layer, and a task here receives them. :meth:`LayerWatch.tick` says when the heartbeat must heal every match of the
process at once (``Heartbeat.heal_all``), however young its last commit:

* while the layer is **deaf**: the last probe could not be sent (within ``SEND_TIMEOUT_SECONDS``), or the one before
  it has not come back (it had half a second at the default period, a whole one at most);
* once more when a probe comes back after the layer was deaf or after a probe was lost (the numbers skip one).

A probe that came back was published after this process was subscribed again, and the heal reads the database after
it came back: so every frame lost meanwhile belongs to a commit the heal reads, and the seats it finds behind have
their clocks re-armed (``timers.seats_rearm``) within about a second of the loss, not a heartbeat.
"""

from __future__ import annotations

import asyncio
import logging

from channels.layers import get_channel_layer

logger = logging.getLogger("tapete.delivery")

MESSAGE_TYPE = "layer.probe"
# A probe not sent within this counts as not sent: a Redis that drops packets would otherwise hold the heartbeat.
SEND_TIMEOUT_SECONDS = 1.0


class LayerWatch:
    def __init__(self, layer=None) -> None:
        self.layer = layer or get_channel_layer()
        self.channel: str | None = None
        self.receiver: asyncio.Task | None = None
        self.sent = 0  # the number of the last probe sent (or tried)
        self.heard = 0  # the number of the last probe that came back
        self.failed = False  # the last probe could not be sent
        self.skipped = False  # a probe came back after one that never did
        self.deaf = False  # at the last tick

    async def tick(self) -> bool:
        """Send the next probe; whether every match of the process must be healed now."""
        self.sent += 1
        try:
            # wait_for, as broadcast does: the cancellation at the timeout stays in a task of its own.
            await asyncio.wait_for(self._send(), SEND_TIMEOUT_SECONDS)
        except Exception:  # noqa: BLE001  (the layer unreachable: deaf until a probe comes back)
            self.failed = True
        else:
            self.failed = False
        deaf = self.failed or self.sent - self.heard >= 2
        heal = deaf or self.deaf or self.skipped
        if deaf != self.deaf:
            if deaf:
                logger.warning(
                    "the channel layer is not heard: sockets are healed from the database every beat"
                )
            else:
                logger.warning("the channel layer is heard again")
        self.deaf, self.skipped = deaf, False
        return heal

    async def _send(self) -> None:
        if self.channel is None:
            self.channel = await self.layer.new_channel("tapete.probe.")
            self.receiver = asyncio.get_running_loop().create_task(self._receive(self.channel))
        await self.layer.send(self.channel, {"type": MESSAGE_TYPE, "n": self.sent})

    async def _receive(self, channel: str) -> None:
        while True:
            number = (await self.layer.receive(channel))["n"]
            if number > self.heard + 1:
                self.skipped = True
            self.heard = max(self.heard, number)

    def close(self) -> None:
        """Stop receiving: the cancelled ``receive`` gives up the channel's subscription (channels_redis' own
        clean-up)."""
        if self.receiver is not None:
            self.receiver.cancel()
