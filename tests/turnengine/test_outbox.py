"""Frames leave on commit, from one place (``turnengine.outbox``, sent by ``realtime.broadcast``): a change that
is rolled back sends nothing, a committed one sends its frames once, after the commit, and no other module of the
platform sends frames or touches the channel layer's groups by hand."""

from __future__ import annotations

import random
import re
from functools import partial
from pathlib import Path

import pytest
from django.db import transaction
from realtime import broadcast

from lobby import services as lobby
from tests.conftest import play_one_random_action
from turnengine import timers, writer
from turnengine.models import Match

PLATFORM = Path(__file__).resolve().parents[2] / "platform"


class Rollback(Exception):
    pass


def test_a_move_rolled_back_sends_nothing_and_a_committed_one_sends_once_after_its_commit(
    start_table, transactional_db, sent
):
    match, users = start_table("perudo", 2)
    sent.clear()  # the start's first views
    version = match.version
    with pytest.raises(Rollback), transaction.atomic():
        play_one_random_action(match, users, random.Random(1))
        assert sent == [], "nothing leaves before the commit"
        raise Rollback
    assert sent == []
    assert Match.objects.get(pk=match.pk).version == version

    with transaction.atomic():
        update = play_one_random_action(match, users, random.Random(1))
        assert sent == []
    assert sent == [update], "sent once, when the outermost transaction commits"
    assert update.version == version + 1 and update.match_id == match.pk


def test_the_lobby_start_and_a_moderator_style_abort_send_through_the_outbox(
    make_user, transactional_db, sent
):
    host, guest = make_user(), make_user()
    match = lobby.table_create(user=host, game="perudo", num_players=2, options={}, ranked=False)
    lobby.table_join(user=guest, match_id=match.pk)
    with transaction.atomic():
        started = lobby.table_start(user=host, match_id=match.pk)
    assert sent == [started]
    assert {match.group_name(0), match.group_name(1)} <= set(started.frames), "each seat's first view"
    with pytest.raises(Rollback), writer.locked(match.pk) as change:
        timers.match_abort(change)
        raise Rollback
    assert sent == [started], "an abort that was rolled back tells nobody"
    assert Match.objects.get(pk=match.pk).status == Match.Status.ACTIVE


async def test_a_socket_collects_its_writers_updates_and_sends_them_from_the_event_loop(
    start_table, transactional_db, sent, monkeypatch
):
    from asgiref.sync import sync_to_async

    match, users = await sync_to_async(start_table)("perudo", 2)
    sent.clear()
    published, first = [], []

    async def publish(update, *, timeout=None):
        published.append((update, timeout))

    async def mover_first(update):
        first.append(update)
        assert published == [], "the mover's own view goes ahead of everyone's"

    monkeypatch.setattr(broadcast, "broadcast", publish)
    move = partial(play_one_random_action, match, users, random.Random(2))
    update = await broadcast.run_writer(move, first=mover_first, timeout=1.5)
    assert first == [update] and published == [(update, 1.5)]
    assert sent == [], "the database thread did not send it"


# Where the channel layer's groups may be written: the transport's broadcast and layer, and its relay endpoint,
# which publishes in the web process what the embedded default's worker committed. Everything else registers with
# the outbox.
TRANSPORT = {"realtime/broadcast.py", "realtime/views.py"}
SENDING = re.compile(r"\bbroadcast_sync\(|\bbroadcast\)?\(|\.group_send\(")


def test_no_module_but_the_transport_sends_frames():
    offenders = []
    for path in sorted(PLATFORM.rglob("*.py")):
        relative = str(path.relative_to(PLATFORM))
        if relative in TRANSPORT:
            continue
        for number, line in enumerate(path.read_text().splitlines(), 1):
            if SENDING.search(line) and not line.lstrip().startswith("#"):
                offenders.append(f"{relative}:{number}: {line.strip()}")
    assert offenders == []
