"""Delivery that heals, views in order, the ``sync`` cap and clocks fair to a seat that could not see (embedded
default: SQLite and the in-memory channel layer; the Redis outage itself is in test_delivery_faults.py)."""

from __future__ import annotations

import asyncio
import contextvars
import json
from datetime import timedelta
from functools import partial

import pytest
from channels.db import database_sync_to_async
from channels.layers import get_channel_layer
from django.db import DatabaseError
from django.utils import timezone

from realtime.broadcast import MESSAGE_TYPE, broadcast, broadcast_sync
from realtime.heartbeat import HEARTBEAT, Heartbeat, beat_parts
from tests.conftest import committed_updates, play_bid_then_dudo
from tests.faults import lose_probes
from tests.servers import free_port
from tests.turnengine.wsclient import connect, receive, receive_until
from turnengine import clocks, outbox, services, timers, updates, writer
from turnengine.models import Match

pytestmark = [pytest.mark.django_db(transaction=True)]


def _first_bid(match: Match) -> tuple[int, dict]:
    seat = min(match.rules.awaited(match.state))
    return seat, next(a for a in match.rules.legal_actions(match.state, seat) if a["type"] == "bid")


@database_sync_to_async
def _move_whose_frames_are_lost(match: Match, users: list, *, ago: timedelta) -> tuple[int, int]:
    """Commit a move ``ago`` in the past and send nothing, as when the channel layer was down."""
    seat, bid = _first_bid(match)
    outbox.collect_into(  # collected, never sent
        [],
        services.match_apply_action,
        match_id=match.pk,
        user=users[seat],
        expected_version=match.version,
        action=bid,
        now=timezone.now() - ago,
    )
    match.refresh_from_db()
    return seat, min(match.rules.awaited(match.state))


async def _frames_until(socket, kind: str) -> list[dict]:
    """Every frame up to and including the first of ``kind``."""
    frames = []
    while not frames or frames[-1]["t"] != kind:
        frames.append(await receive(socket))
    return frames


@pytest.mark.asyncio
async def test_the_heartbeat_brings_a_socket_left_behind_up_to_date_and_gives_the_late_seat_its_time_back(
    start_table,
):
    match, users = await database_sync_to_async(start_table)("perudo", 2)
    sockets = [(await connect(f"/ws/match/{match.pk}/", user))[0] for user in users]
    for socket in sockets:
        await receive_until(socket, "view")
    mover, awaited = await _move_whose_frames_are_lost(match, users, ago=timedelta(seconds=10))
    bank_ms = match.clock["bank"][awaited]
    before_beat = clocks.epoch_ms(timezone.now())

    await HEARTBEAT.beat()

    frames = await _frames_until(sockets[awaited], "heartbeat")
    views = [frame for frame in frames if frame["t"] == "view"]
    assert [view["v"] for view in views] == [match.version], "exactly one view: the missed version"
    snapshot = views[0]["d"]
    assert snapshot["snapshot"] and snapshot["seat"] == awaited and snapshot["legal"]
    assert frames[-1] == {"t": "heartbeat", "v": match.version, "d": {}}
    # Its clock starts again from the delivery, with the whole bank it had at the commit (not 10 s less).
    assert snapshot["clock"]["deadlines"][str(awaited)] >= before_beat + bank_ms
    await match.arefresh_from_db()
    assert match.clock["since"][awaited] >= before_beat
    # The mover's socket was behind too (the move was not made through it): same catch-up, but its clock is stopped.
    mover_views = [f for f in await _frames_until(sockets[mover], "heartbeat") if f["t"] == "view"]
    assert [view["v"] for view in mover_views] == [match.version]

    await HEARTBEAT.beat()  # up to date now: the heartbeat, and no view again
    again = await _frames_until(sockets[awaited], "heartbeat")
    assert again[-1]["v"] == match.version and [frame for frame in again if frame["t"] == "view"] == []
    for socket in sockets:
        await socket.disconnect()


@pytest.mark.asyncio
async def test_the_heartbeat_brings_the_result_to_sockets_whose_finishing_move_views_were_lost(start_table):
    match, users = await database_sync_to_async(start_table)("perudo", 2, options={"startingDice": 1})
    sockets = [(await connect(f"/ws/match/{match.pk}/", user))[0] for user in users]
    for socket in sockets:
        await receive_until(socket, "view")

    @database_sync_to_async
    def finish_unheard() -> None:
        outbox.collect_into([], play_bid_then_dudo, match, users)  # collected, never sent
        writer.mark_undelivered(match_id=match.pk, version=match.version)  # as broadcast records a failed publish

    await finish_unheard()
    assert match.status == Match.Status.FINISHED

    await HEARTBEAT.beat()

    for socket in sockets:
        frames = await _frames_until(socket, "heartbeat")
        views = [frame for frame in frames if frame["t"] == "view"]
        assert [view["v"] for view in views] == [match.version], "the finished match's last view, once"
        assert views[0]["d"]["status"] == "finished"
        await socket.disconnect()


@pytest.mark.asyncio
async def test_a_view_still_within_the_delivery_bound_is_left_alone(start_table):
    match, users = await database_sync_to_async(start_table)("perudo", 2)
    socket, _ = await connect(f"/ws/match/{match.pk}/", users[1])
    await receive_until(socket, "view")
    _mover, awaited = await _move_whose_frames_are_lost(match, users, ago=timedelta(0))
    since = match.clock["since"][awaited]
    # The socket is behind, but the commit is younger than the delivery bound: its view may be on its way, so the
    # beat sends it nothing (a heartbeat ahead of the view would make the client ask sync for nothing).
    await HEARTBEAT.beat()
    frames = []
    while not await socket.receive_nothing(0.3):
        frames.append(await receive(socket))
    assert [frame for frame in frames if frame["t"] in ("view", "heartbeat")] == []
    await match.arefresh_from_db()
    assert match.clock["since"][awaited] == since
    await socket.disconnect()


async def _young_move_unheard_by_the_awaited_seat(start_table):
    """A table whose awaited seat's socket is open, and a move made a second ago whose frames were lost (younger
    than the delivery bound): the socket, the match and the awaited seat's clock start at the commit."""
    match, users = await database_sync_to_async(start_table)("perudo", 2)
    awaited = 1 - _first_bid(match)[0]
    socket, _ = await connect(f"/ws/match/{match.pk}/", users[awaited])
    await receive_until(socket, "view")
    await _move_whose_frames_are_lost(match, users, ago=timedelta(seconds=1))
    return socket, match, awaited, match.clock["since"][awaited]


@pytest.mark.asyncio
async def test_heal_all_brings_a_socket_behind_a_young_commit_up_to_date_and_re_arms_its_clock(start_table):
    socket, match, awaited, since = await _young_move_unheard_by_the_awaited_seat(start_table)
    await HEARTBEAT.heal_all()
    view = await receive_until(socket, "view")
    assert view["v"] == match.version and view["d"]["snapshot"] and view["d"]["seat"] == awaited
    await match.arefresh_from_db()
    assert match.clock["since"][awaited] >= since + 1000, "re-armed at the heal, a second after the commit"
    await HEARTBEAT.heal_all()  # up to date: no view again (the re-arm's new clocks come in a presence frame)
    frames = []
    while not await socket.receive_nothing(0.3):
        frames.append(await receive(socket))
    assert [frame["t"] for frame in frames if frame["t"] == "view"] == []
    await socket.disconnect()


@pytest.mark.asyncio
async def test_heal_all_heals_every_match_while_a_layer_that_does_not_answer_holds_their_publishes(
    start_table, settings, monkeypatch
):
    """A heal ends with the re-armed clocks' publish, which a layer that does not answer holds for the broadcast
    timeout (a minute here): the next match's socket does not wait for it. Both sockets are brought up to date while
    both publishes are still held; once the layer answers, the heal ends."""
    settings.TAPETE_BROADCAST_TIMEOUT_SECONDS = 60
    tables = [await _young_move_unheard_by_the_awaited_seat(start_table) for _ in range(2)]
    layer = get_channel_layer()
    answer = asyncio.Event()
    held = []
    send = layer.group_send

    async def unanswered(group, message):
        held.append(group)
        await answer.wait()
        await send(group, message)

    monkeypatch.setattr(layer, "group_send", unanswered)
    healing = asyncio.create_task(HEARTBEAT.heal_all())
    try:
        for socket, match, _awaited, _since in tables:
            view = await asyncio.wait_for(receive_until(socket, "view"), 10)
            assert view["v"] == match.version and view["d"]["snapshot"]
        assert not healing.done()
        assert {match.group_name("all") for _socket, match, _awaited, _since in tables} <= set(held)
    finally:
        answer.set()
        await asyncio.wait_for(healing, 10)
        for socket, *_rest in tables:
            await socket.disconnect()
    for _socket, match, awaited, since in tables:
        await match.arefresh_from_db()
        assert match.clock["since"][awaited] >= since + 1000


@pytest.mark.asyncio
async def test_a_heal_that_fails_is_logged_and_the_other_matches_are_healed(start_table, monkeypatch, caplog):
    (failing, failing_match, *_), (socket, match, _awaited, _since) = [
        await _young_move_unheard_by_the_awaited_seat(start_table) for _ in range(2)
    ]
    rearm = timers.seats_rearm

    def failing_for_one(*, match_id, **kwargs):
        if match_id == failing_match.pk:
            raise DatabaseError("the row could not be read")
        return rearm(match_id=match_id, **kwargs)

    monkeypatch.setattr(timers, "seats_rearm", failing_for_one)
    await HEARTBEAT.heal_all()
    view = await receive_until(socket, "view")
    assert view["v"] == match.version and view["d"]["snapshot"]
    assert f"match {failing_match.pk} could not be healed (DatabaseError)" in caplog.text
    await failing.disconnect()
    await socket.disconnect()


@pytest.mark.asyncio
async def test_a_scheduled_heartbeat_heals_a_young_commit_at_once_when_the_layer_loses_its_probes(
    start_table, settings, monkeypatch
):
    """The ordinary beat leaves a socket behind a young commit alone (its view is on its way: with a bound of a
    minute here, for a minute); when the probes are lost, views may be lost too, and the heartbeat brings that socket
    up to date and re-arms its seat's clock at once."""
    settings.TAPETE_DELIVERY_BOUND_SECONDS = 60
    settings.TAPETE_HEARTBEAT_SECONDS = 0.2
    settings.TAPETE_SCHEDULE_HEARTBEAT = True
    lose_probes(monkeypatch, get_channel_layer())
    socket, match, awaited, since = await _young_move_unheard_by_the_awaited_seat(start_table)
    try:
        view = await asyncio.wait_for(receive_until(socket, "view"), 10)
    finally:
        await socket.disconnect()
    assert view["v"] == match.version and view["d"]["snapshot"]
    await match.arefresh_from_db()
    assert match.clock["since"][awaited] >= since + 1000


@pytest.mark.asyncio
async def test_views_never_go_backwards_and_the_movers_own_view_comes_once(start_table):
    match, users = await database_sync_to_async(start_table)("perudo", 2)
    seat, bid = _first_bid(match)
    socket, _ = await connect(f"/ws/match/{match.pk}/", users[seat])
    old_snapshot = await receive_until(socket, "view")
    await socket.send_json_to({"t": "act", "v": match.version, "d": bid})
    own = await receive_until(socket, "view")
    assert own["v"] == match.version + 1 and not own["d"].get("snapshot")
    # The relayed copy of the same view, then an older view, each as the site relays views (together, to the
    # table's group): neither reaches the socket. A presence frame does.
    layer = get_channel_layer()
    for view in (own, old_snapshot):
        relayed = {
            "type": MESSAGE_TYPE,
            "frames": {match.group_name(seat): json.dumps(view, separators=(",", ":"))},
        }
        await layer.group_send(match.group_name("all"), relayed)
    presence = updates.encode_frame("presence", match.version, {"players": [], "clock": None, "notice": None})
    await layer.group_send(match.group_name("all"), {"type": MESSAGE_TYPE, "text": presence})
    later = []
    while not later or later[-1]["t"] != "presence" or later[-1]["d"]["players"]:
        later.append(await receive(socket))
    assert [frame["t"] for frame in later if frame["t"] == "view"] == []
    # A sync is still answered with the version the socket has (a snapshot asked for may repeat it).
    await socket.send_json_to({"t": "sync"})
    answer = await receive_until(socket, "view")
    assert answer["v"] == own["v"] and answer["d"]["snapshot"]
    await socket.disconnect()


@pytest.mark.asyncio
async def test_each_socket_takes_only_its_own_groups_view_from_the_tables_message(start_table, make_user):
    """A new version's views travel together to the table's group (``realtime.broadcast``): a seat's socket sends
    its seat's view on and a spectator's the spectators', never another's; a socket whose group has no view in the
    message (spectators nobody had counted) is sent nothing."""
    match, users = await database_sync_to_async(start_table)("perudo", 2)
    watcher = await database_sync_to_async(make_user)()
    sockets = {}
    for name, user in (("seat0", users[0]), ("seat1", users[1]), ("spectators", watcher)):
        sockets[name], _ = await connect(f"/ws/match/{match.pk}/", user)
        await receive_until(sockets[name], "view")
    version = match.version + 5

    def views(version: int, groups: dict) -> dict:
        return {group: updates.encode_frame("view", version, {"for": name}) for name, group in groups.items()}

    groups = {"seat0": match.group_name(0), "seat1": match.group_name(1), "spectators": match.group_name(None)}
    layer = get_channel_layer()
    await layer.group_send(match.group_name("all"), {"type": MESSAGE_TYPE, "frames": views(version, groups)})
    for name, socket in sockets.items():
        got = await receive_until(socket, "view")
        assert got["d"] == {"for": name}
        assert await socket.receive_nothing(0.2)
    del groups["spectators"]
    await layer.group_send(match.group_name("all"), {"type": MESSAGE_TYPE, "frames": views(version + 1, groups)})
    assert (await receive_until(sockets["seat1"], "view"))["d"] == {"for": "seat1"}
    assert await sockets["spectators"].receive_nothing(0.3)
    for socket in sockets.values():
        await socket.disconnect()


@pytest.mark.asyncio
async def test_a_moves_views_are_one_publish_to_the_tables_group(start_table, monkeypatch):
    """Every seat's view of a new version (and the spectators', when someone watches) leaves in one message to the
    table's group, whichever processes hold the seats; a frame of another group keeps its own message."""
    match, users = await database_sync_to_async(start_table)("perudo", 2)
    seat, bid = _first_bid(match)
    call = partial(
        services.match_apply_action, match_id=match.pk, user=users[seat], expected_version=match.version, action=bid
    )
    (update,) = await database_sync_to_async(committed_updates)(call)
    lobby_frame = updates.encode_frame("lobby", None, {})
    update.frames["lobby"] = lobby_frame
    layer = get_channel_layer()
    published = []
    send = layer.group_send

    async def recorded(group, message):
        published.append((group, message))
        await send(group, message)

    monkeypatch.setattr(layer, "group_send", recorded)
    assert await broadcast(update)
    views = {match.group_name(0), match.group_name(1)}
    assert sorted(published, key=lambda sent: sent[0]) == [
        ("lobby", {"type": MESSAGE_TYPE, "text": lobby_frame}),
        (match.group_name("all"), {"type": MESSAGE_TYPE, "frames": {group: update.frames[group] for group in views}}),
    ]


def test_view_version_reads_the_version_of_view_frames_only():
    assert updates.view_version(updates.encode_frame("view", 41, {"x": 1})) == 41
    assert updates.view_version(updates.encode_frame("presence", 41, {})) is None
    assert updates.view_version(updates.encode_frame("view", None, {})) is None


@pytest.mark.asyncio
async def test_sync_beyond_the_cap_is_refused_with_sync_limited(start_table, settings):
    settings.TAPETE_WS_SYNC_PER_SECOND = 0.01
    settings.TAPETE_WS_SYNC_BURST = 2
    match, users = await database_sync_to_async(start_table)("perudo", 2)
    socket, _ = await connect(f"/ws/match/{match.pk}/", users[0])
    await receive_until(socket, "view")
    for _ in range(3):
        await socket.send_json_to({"t": "sync"})
    error = await receive_until(socket, "error")
    assert error["d"]["code"] == "sync_limited"
    await socket.disconnect()


@pytest.mark.asyncio
async def test_a_users_sockets_share_one_sync_cap(start_table, settings):
    settings.TAPETE_WS_SYNC_PER_USER_PER_SECOND = 0.01
    settings.TAPETE_WS_SYNC_PER_USER_BURST = 2
    match, users = await database_sync_to_async(start_table)("perudo", 2)
    sockets = [(await connect(f"/ws/match/{match.pk}/", users[0]))[0] for _ in range(3)]
    for socket in sockets:
        await receive_until(socket, "view")
        await socket.send_json_to({"t": "sync"})
    assert (await receive_until(sockets[2], "error"))["d"]["code"] == "sync_limited"
    for socket in sockets:
        await socket.disconnect()


def _started_blitz(start_table):
    match, users = start_table("perudo", 2, time_control="blitz")
    seat, bid = _first_bid(match)
    (update,) = committed_updates(
        services.match_apply_action,
        match_id=match.pk,
        user=users[seat],
        expected_version=match.version,
        action=bid,
    )
    match.refresh_from_db()
    return match, users, update


def test_a_deadline_waits_while_the_current_version_could_not_be_delivered(start_table):
    match, _users, _update = _started_blitz(start_table)
    failed_at = match.deadline_at - timedelta(seconds=1)
    writer.mark_undelivered(match_id=match.pk, version=match.version, now=failed_at)
    overdue = match.deadline_at + timedelta(seconds=1)
    assert overdue < failed_at + timers.delivery_hold()
    assert timers.match_expire(match_id=match.pk, version=match.version, now=overdue) is None
    assert Match.objects.get(pk=match.pk).version == match.version, (
        "no timeout while the view was undelivered"
    )
    after_hold = failed_at + timers.delivery_hold() + timedelta(seconds=1)
    assert timers.match_expire(match_id=match.pk, version=match.version, now=after_hold) is not None
    assert Match.objects.get(pk=match.pk).version == match.version + 1


def test_a_failed_delivery_of_an_older_version_holds_nothing(start_table):
    match, _users, _update = _started_blitz(start_table)
    writer.mark_undelivered(match_id=match.pk, version=match.version - 1)
    match.refresh_from_db()
    assert match.undelivered_version is None  # the version had moved on: nothing recorded
    deadline = match.deadline_at + timedelta(milliseconds=1)
    assert timers.match_expire(match_id=match.pk, version=match.version, now=deadline) is not None


def test_rearming_a_late_seat_gives_it_the_time_it_had_at_the_commit(start_table):
    match, _users, _update = _started_blitz(start_table)
    awaited = min(match.rules.awaited(match.state))
    bank = match.clock["bank"][awaited]
    delivered = timezone.now() + timedelta(seconds=7)
    update = timers.seats_rearm(match_id=match.pk, version=match.version, seats={awaited}, now=delivered)
    assert update is not None and json.loads(next(iter(update.frames.values())))["t"] == "presence"
    match.refresh_from_db()
    assert match.deadline_at == delivered.replace(
        microsecond=delivered.microsecond // 1000 * 1000
    ) + timedelta(milliseconds=bank)
    assert timers.seats_rearm(match_id=match.pk, version=match.version - 1, seats={awaited}) is None


def test_frames_that_cannot_be_published_do_not_fail_the_move_and_are_recorded(start_table, settings):
    match, _users, update = _started_blitz(start_table)
    dead = f"redis://127.0.0.1:{free_port()}"  # nothing listens there: a real connection failure
    settings.CHANNEL_LAYERS = {
        "default": {"BACKEND": "channels_redis.pubsub.RedisPubSubChannelLayer", "CONFIG": {"hosts": [dead]}}
    }
    assert broadcast_sync(update) is False
    match.refresh_from_db()
    assert (match.undelivered_version, match.version) == (update.version, update.version)
    assert match.undelivered_at is not None


def test_frames_the_relay_cannot_take_are_recorded_too(start_table, settings):
    match, _users, update = _started_blitz(start_table)
    settings.TAPETE_RELAY_URL = f"http://127.0.0.1:{free_port()}/internal/relay/"
    settings.TAPETE_RELAY_TOKEN = "token"
    assert broadcast_sync(update) is False
    match.refresh_from_db()
    assert match.undelivered_version == update.version


@pytest.mark.asyncio
async def test_a_writer_run_from_the_event_loop_leaves_no_database_wrapper_in_the_sockets_context():
    """On the event loop Django's connections are per asyncio context: choosing the writer's thread must not build
    one in every socket's context (it lived as long as the socket: bench/idle_sockets.py --breakdown)."""
    from django.db import connections

    from realtime.broadcast import run_writer

    async def a_sockets_task() -> list:
        await run_writer(lambda: None)
        return connections.all(initialized_only=True)

    assert await asyncio.get_running_loop().create_task(a_sockets_task(), context=contextvars.Context()) == []


class _Listener:
    """A match socket as the heartbeat sees it, up to date, that writes down what it is sent."""

    def __init__(self, match: Match, written: list) -> None:
        self.match_id, self.sent_version, self.written = match.pk, match.version, written

    async def send_quietly(self, text: str) -> None:
        self.written.append((self.match_id, json.loads(text)["t"]))


@pytest.mark.asyncio
async def test_a_beat_lets_other_work_run_between_two_matches(start_table):
    """A move that arrives while a beat is writing must not wait for every socket of the process: the beat yields
    to the event loop after each match's sockets."""
    tables = [(await database_sync_to_async(start_table)("perudo", 2))[0] for _ in range(2)]
    written: list = []
    heartbeat = Heartbeat()
    sockets = [_Listener(match, written) for match in tables for _ in range(2)]
    for socket in sockets:
        heartbeat.sockets.add(socket.match_id, socket)
    first, second = (match.pk for match in tables)
    # Ready as soon as the first heartbeat frame is written: it runs at the beat's first yield.
    original = sockets[0].send_quietly

    async def first_send(text: str) -> None:
        asyncio.get_running_loop().call_soon(written.append, "other work")
        sockets[0].send_quietly = original
        await original(text)

    sockets[0].send_quietly = first_send
    await heartbeat.beat()
    order = [entry if entry == "other work" else entry[0] for entry in written]
    assert order == [first, first, "other work", second, second]


@pytest.mark.asyncio
async def test_a_beat_in_parts_reaches_every_match_once_a_period_and_each_part_only_its_own(start_table):
    """At the default period the beat is split in tenths, one every half second; the parts of one period together
    beat every match of the process exactly once."""
    assert beat_parts(5) == 10
    assert beat_parts(0.9) == 1  # a short period (the tests' servers) is beaten whole
    tables = [(await database_sync_to_async(start_table)("perudo", 2))[0] for _ in range(4)]
    written: list = []
    heartbeat = Heartbeat()
    listeners = [
        _Listener(match, written) for match in tables for _ in range(2)
    ]  # the groups hold them weakly
    for listener in listeners:
        heartbeat.sockets.add(listener.match_id, listener)
    beaten = []
    for part in range(2):
        written.clear()
        await heartbeat.beat(part, 2)
        assert {match_id for match_id, _ in written} == {match.pk for match in tables if match.pk % 2 == part}
        beaten += written
    assert sorted(beaten) == sorted((listener.match_id, "heartbeat") for listener in listeners)


@pytest.mark.asyncio
async def test_the_beat_runs_by_itself_only_where_it_is_scheduled(start_table, settings):
    """A server beats by itself; the tests switch that off (``tests/conftest.py``) and beat when they mean to, so
    that no heartbeat frame comes at a moment of its own into a test that waits for silence."""
    settings.TAPETE_HEARTBEAT_SECONDS = 0.1
    match = (await database_sync_to_async(start_table)("perudo", 2))[0]
    written: list = []
    heartbeat = Heartbeat()
    listener = _Listener(match, written)
    heartbeat.add(listener)
    await asyncio.sleep(0.5)  # five periods
    assert written == [] and heartbeat.task is None

    settings.TAPETE_SCHEDULE_HEARTBEAT = True
    heartbeat.add(listener)

    async def beaten() -> None:
        while not written:
            await asyncio.sleep(0.05)

    await asyncio.wait_for(beaten(), 10)
    assert written[0] == (match.pk, "heartbeat")
    heartbeat.discard(listener)
    assert heartbeat.task is None
