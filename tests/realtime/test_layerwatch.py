"""The heartbeat's watch on the channel layer (``realtime.layerwatch``): probes through the site's layer, on both
passes; a layer that loses probes (dropped on their way, as while this process is not subscribed) makes the
heartbeat heal every match at once (``test_delivery.py``). Redis cut off: ``test_delivery_faults.py``."""

from __future__ import annotations

import asyncio

import pytest

from realtime import layerwatch
from realtime.channel_layer import InMemoryLayer
from realtime.layerwatch import LayerWatch
from tests.faults import assert_heals_until_heard, lose_probes, watch_answers


async def _heard(watch: LayerWatch) -> None:
    """Until the last probe sent came back."""
    while watch.heard < watch.sent:
        await asyncio.sleep(0.01)


@pytest.mark.asyncio
async def test_on_the_sites_layer_every_probe_comes_back_and_nothing_is_healed():
    watch = LayerWatch()
    try:
        for _ in range(5):
            assert await watch.tick() is False
            await asyncio.wait_for(_heard(watch), 5)
    finally:
        watch.close()


@pytest.mark.parametrize("lost", [1, 3])
@pytest.mark.asyncio
async def test_lost_probes_heal_every_tick_until_one_comes_back_and_no_longer(monkeypatch, lost):
    """One probe lost (the next comes back: the numbers skip one) or several (deaf once the one before the last is
    missing): the watch asks to heal at every tick until it has heard a probe sent after them, then no more."""
    layer = InMemoryLayer()
    watch = LayerWatch(layer)
    try:
        assert await watch.tick() is False
        await _heard(watch)
        lose_probes(monkeypatch, layer, lost)
        before = watch.sent
        assert await watch.tick() is False  # lost, but the one before it came back
        answers = await watch_answers(watch, before + lost)
    finally:
        watch.close()
    assert_heals_until_heard(answers)


@pytest.mark.asyncio
async def test_a_probe_the_layer_does_not_take_in_time_counts_as_not_sent(monkeypatch):
    """A Redis that drops packets leaves a publish waiting for minutes: the watch gives up after
    ``SEND_TIMEOUT_SECONDS`` and calls the layer deaf, so the heartbeat goes on (and heals)."""
    layer = InMemoryLayer()
    watch = LayerWatch(layer)
    monkeypatch.setattr(layerwatch, "SEND_TIMEOUT_SECONDS", 0.1)

    async def stuck(channel, message):
        await asyncio.sleep(3600)

    try:
        assert await watch.tick() is False
        await _heard(watch)
        monkeypatch.setattr(layer, "send", stuck)
        assert await asyncio.wait_for(watch.tick(), 5) is True
        assert watch.failed
    finally:
        watch.close()
