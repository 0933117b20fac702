"""The heartbeat's watch on the channel layer (``realtime.layerwatch``): probes through the site's layer, on both
passes; a layer that loses probes (dropped on their way, as while this process is not subscribed) makes the
heartbeat heal every match at once (``test_delivery.py``). Redis cut off: ``test_delivery_faults.py``."""

from __future__ import annotations

import asyncio

import pytest

from realtime.channel_layer import InMemoryLayer
from realtime.layerwatch import LayerWatch
from tests.faults import lose_probes


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


@pytest.mark.asyncio
async def test_a_lost_probe_heals_once_the_next_comes_back(monkeypatch):
    layer = InMemoryLayer()
    watch = LayerWatch(layer)
    try:
        assert await watch.tick() is False
        await _heard(watch)
        lose_probes(monkeypatch, layer, 1)
        assert await watch.tick() is False  # lost, but the one before it came back
        assert await watch.tick() is True  # the lost one has not come back: deaf
        await _heard(watch)  # this one came back, after one that never did
        assert await watch.tick() is True  # once more
        await _heard(watch)
        assert await watch.tick() is False
    finally:
        watch.close()


@pytest.mark.asyncio
async def test_while_probes_are_lost_every_tick_heals_and_once_more_after_one_comes_back(monkeypatch):
    layer = InMemoryLayer()
    watch = LayerWatch(layer)
    try:
        assert await watch.tick() is False
        await _heard(watch)
        lose_probes(monkeypatch, layer, 3)
        ticks = [await watch.tick() for _ in range(3)]
        assert ticks == [False, True, True]  # deaf once the probe before the last has not come back
        assert await watch.tick() is True  # this probe gets through, but is not back yet
        await _heard(watch)
        assert await watch.tick() is True  # heard again: one more heal, for what was lost before it came back
        await _heard(watch)
        assert await watch.tick() is False
    finally:
        watch.close()
