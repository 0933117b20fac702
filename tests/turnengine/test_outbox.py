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

from lobby import rematch
from lobby import services as lobby
from lobby.errors import LobbyError
from realtime import broadcast
from tests.conftest import play_one_random_action, play_to_the_end
from turnengine import timers, writer
from turnengine.models import Match
from turnengine.table_notices import LOBBY_GROUP

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
        play_one_random_action(match, users, random.Random(1))
        assert sent == []
    (update,) = sent  # sent once, when the outermost transaction commits
    assert update.version == version + 1 and update.match_id == match.pk


def test_the_lobby_start_and_a_moderator_style_abort_send_through_the_outbox(
    make_user, transactional_db, sent
):
    host, guest = make_user(), make_user()
    match = lobby.table_create(user=host, game="perudo", num_players=2, options={}, ranked=False)
    lobby.table_join(user=guest, match_id=match.pk)
    sent.clear()  # the lobby's notices of the opening and the join
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

    async def mover_first(committed):
        first.append(list(committed))
        assert published == [], "the mover's own view goes ahead of everyone's"

    monkeypatch.setattr(broadcast, "broadcast", publish)
    move = partial(play_one_random_action, match, users, random.Random(2))
    (update,) = await broadcast.run_writer(move, first=mover_first, timeout=1.5)
    assert update.version == match.version, "the move's views (the helper read the match after it)"
    assert first == [[update]] and published == [(update, 1.5)]
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


def _notices(sent) -> list[tuple[set[str], dict]]:
    """The lobby notices in what was sent: the groups each went to, and its data."""
    import json

    found = []
    for update in sent:
        texts = {group: text for group, text in update.frames.items() if '"t":"lobby"' in text}
        if texts:
            assert len(set(texts.values())) == 1, "one notice per update"
            found.append((set(texts), json.loads(next(iter(texts.values())))["d"]))
    return found


def test_every_change_the_lobby_lists_tells_it_once_on_commit_and_a_refusal_tells_nobody(
    make_user, transactional_db, sent
):
    host, guest, third = make_user(), make_user(), make_user()
    match = lobby.table_create(user=host, game="perudo", num_players=2, options={}, ranked=False)
    waiting = {LOBBY_GROUP, match.group_name("all")}
    assert _notices(sent) == [(waiting, {"game": "perudo", "match_id": match.pk, "status": "open"})]
    steps = [
        lambda: lobby.table_join(user=guest, match_id=match.pk),
        lambda: lobby.table_leave(user=guest, match_id=match.pk),
        lambda: lobby.table_add_bot(user=host, match_id=match.pk, level="easy"),
    ]
    for step in steps:
        sent.clear()
        step()
        assert [groups for groups, _data in _notices(sent)] == [waiting]
    sent.clear()
    with pytest.raises(LobbyError):
        lobby.table_join(user=third, match_id=match.pk)  # the computer player took the last seat
    with pytest.raises(LobbyError):
        lobby.table_leave(user=guest, match_id=match.pk)
    assert sent == [], "a refusal sends nothing"
    lobby.table_start(user=host, match_id=match.pk)
    assert _notices(sent) == [(waiting, {"game": "perudo", "match_id": match.pk, "status": "active"})]
    sent.clear()
    match.refresh_from_db()
    seated = [seat.user for seat in match.seats.select_related("user").order_by("index")]
    play_to_the_end(match, seated)  # the computer player's seat is played here too
    assert _notices(sent) == [
        ({LOBBY_GROUP}, {"game": "perudo", "match_id": match.pk, "status": "finished"})
    ], "a running table's end leaves the lobby's list; its sockets have its last view"


def test_a_cancel_an_expiry_and_a_rematch_tell_the_lobby(make_user, start_table, transactional_db, sent):
    from datetime import timedelta

    from django.utils import timezone

    host = make_user()
    cancelled = lobby.table_create(user=host, game="spicy", num_players=2, options={}, ranked=False)
    forgotten = lobby.table_create(user=host, game="spicy", num_players=2, options={}, ranked=False)
    sent.clear()
    lobby.table_cancel(user=host, match_id=cancelled.pk)
    assert [data["status"] for _groups, data in _notices(sent)] == ["aborted"]
    sent.clear()
    assert writer.expire_open_tables(created_before=timezone.now() + timedelta(seconds=1)) == 1
    assert _notices(sent) == [
        (
            {LOBBY_GROUP, forgotten.group_name("all")},
            {"game": "spicy", "match_id": forgotten.pk, "status": "aborted"},
        )
    ]
    sent.clear()
    assert writer.expire_open_tables(created_before=timezone.now()) == 0 and sent == []

    finished, users = start_table("perudo", 2)
    play_to_the_end(finished, users)
    sent.clear()
    new, started = rematch.table_rematch(user=users[0], match_id=finished.pk)
    assert started is None and new.status == Match.Status.OPEN
    heard = [
        update.frames[finished.group_name("all")]
        for update in sent
        if finished.group_name("all") in update.frames
    ]
    assert len(heard) == 1 and '"t":"rematch"' in heard[0] and users[0].username in heard[0]
    assert {data["match_id"] for _groups, data in _notices(sent)} == {new.pk}
    sent.clear()
    new, started = rematch.table_rematch(user=users[1], match_id=finished.pk)
    assert started is not None and new.status == Match.Status.ACTIVE
    assert [data["status"] for _groups, data in _notices(sent)] == ["active"]
    assert any(finished.group_name("all") in update.frames for update in sent), (
        "the old screen hears it started"
    )


# Who registers frames with the outbox: the match writer (every match's frames, the lobby's notices included), the
# chat (a line, its own row), moderation (a hidden chat line; a user's lockout, sent to their sockets) and the Bot
# API's tokens (a revoked token's close, sent to the sockets opened with it), tournaments (a tournament changed, to
# its page's sockets), the awaited turns (a player's count of tables awaiting them, from the match writer's commit), and the social app
# (a player's own invitations, answers, friend requests and friends' presence, sent to their lobby sockets; a change
# of whom they block, sent to their table sockets).
REGISTERING = {
    "turnengine/writer.py", "turnengine/awaiting.py", "turnengine/chat.py", "moderation/services.py", "botapi/tokens.py",
    "tournaments/life_cycle.py", "social/frames.py",
}


def test_only_the_writers_of_what_a_frame_tells_register_frames():
    callers = set()
    for path in sorted(PLATFORM.rglob("*.py")):
        relative = str(path.relative_to(PLATFORM))
        if relative != "turnengine/outbox.py" and "send_on_commit(" in path.read_text():
            callers.add(relative)
    assert callers == REGISTERING
