"""Sends committed updates through the channel layer: one pre-encoded frame per group (a seat, the spectators, or
everyone at the table). Consumers relay the text as is, so no state is re-read or re-encoded per socket.

What to send comes from the writers, which register each update on commit (``turnengine.outbox``), the only
channel an update takes: in views and Celery tasks the outbox calls :func:`broadcast_sync` after the commit; a
socket runs its writer through :func:`run_writer`, which collects the updates and sends them from the event loop
once the writer has returned, the mover's own view first (taken from what was collected). The Bot API's move, which
answers with the mover's view, runs its writer through :func:`run_writer_sync`.

On the embedded default the channel layer lives in the web process's memory, which a Celery worker (another
process) cannot reach: there the worker posts its frames to the web process's relay endpoint
(``TAPETE_RELAY_URL``, authenticated by ``TAPETE_RELAY_TOKEN``; ``./dev serve`` sets both). With Redis, everyone
shares the Redis channel layer and no relay is used.

Frames that cannot be published (Redis down, the relay unreachable, no answer within
``TAPETE_BROADCAST_TIMEOUT_SECONDS``) do not fail the move or the request that committed them: the failure is
logged in one line and recorded on the match (``writer.mark_undelivered``: ``timers.match_expire`` holds its
deadlines), and each process's heartbeat (``realtime.heartbeat``) brings the sockets up to date from the database.
"""

import asyncio
import contextvars
import json
import logging
import urllib.request
from collections.abc import Awaitable, Callable
from concurrent.futures import ThreadPoolExecutor

from asgiref.sync import async_to_sync
from channels.db import database_sync_to_async
from channels.layers import get_channel_layer
from django.conf import settings
from django.db import DEFAULT_DB_ALIAS, DatabaseError, connections

from turnengine import outbox, writer
from turnengine.updates import Update

MESSAGE_TYPE = "frame.relay"
RELAY_HEADER = "X-Tapete-Relay-Token"

logger = logging.getLogger("tapete.delivery")


async def broadcast(update: Update, *, timeout: float | None = None) -> bool:
    """Send every group its frame; False (logged and recorded) if they could not be published within ``timeout``
    seconds (``TAPETE_BROADCAST_TIMEOUT_SECONDS`` by default)."""
    try:
        # wait_for, not asyncio.timeout: the publish runs as a task of its own, so the cancellation at the timeout
        # stays in that task, whatever the Redis client makes of it, and the socket's own task is never cancelled.
        await asyncio.wait_for(_publish(update), timeout or settings.TAPETE_BROADCAST_TIMEOUT_SECONDS)
    except Exception as error:  # noqa: BLE001  (any failure of the layer: the heartbeat delivers instead)
        await database_sync_to_async(undelivered)(update, error)
        return False
    return True


# A socket's writers (moves, seat intents, chat) run on a thread of their own, one per process, with its own database
# connection, apart from Channels' database thread, where every socket's handshake, snapshot and presence run: so a
# move never queues behind those. One thread, not a pool (a pool of database threads measured worse: the threads
# fought the event loop for the GIL). On SQLite, whose writers take one lock in turn, they stay on Channels'.
_writer_thread = ThreadPoolExecutor(max_workers=1, thread_name_prefix="tapete-writer")
_collect_shared = database_sync_to_async(outbox.collect_into)


def _collect_keeping_the_connection(collected: list[Update], call: Callable[[], object]) -> None:
    """``outbox.collect_into`` on the writers' thread, with the care Channels' ``database_sync_to_async`` takes of
    the thread's connection (closed before and after if an error left it unusable or it outlived ``CONN_MAX_AGE``),
    for the one connection the thread uses rather than every alias."""
    connection = connections[DEFAULT_DB_ALIAS]
    connection.close_if_unusable_or_obsolete()
    try:
        outbox.collect_into(collected, call)
    finally:
        connection.close_if_unusable_or_obsolete()


async def _collect_apart(collected: list[Update], call: Callable[[], object]) -> None:
    """The writer on the writers' thread, in a copy of the caller's context, through asyncio's own executor hop:
    Channels' ``database_sync_to_async`` (asgiref's ``SyncToAsync``) took about 30 % more CPU per hop, for what this
    thread does not need: choosing an executor, copying the thread's context variables back into the caller's, and
    looking after the connections of every alias (``bench/writer_hop.py``)."""
    context = contextvars.copy_context()
    await asyncio.get_running_loop().run_in_executor(
        _writer_thread, context.run, _collect_keeping_the_connection, collected, call
    )


def _collecting(collected: list[Update], call: Callable[[], object]) -> Awaitable:
    # The engine from the settings, not ``connection.vendor``: on the event loop Django's connections are per
    # asyncio context, so reading ``connection`` there built a database wrapper (never connected) for every socket
    # that ran a writer, and kept it as long as the socket (about 4 KiB each: bench/idle_sockets.py --breakdown).
    sqlite = settings.DATABASES[DEFAULT_DB_ALIAS]["ENGINE"] == "django.db.backends.sqlite3"
    collect = _collect_shared if sqlite else _collect_apart
    return collect(collected, call)


async def run_writer(
    call: Callable[[], object],
    *,
    first: Callable[[list[Update]], Awaitable] | None = None,
    timeout: float | None = None,
) -> list[Update]:
    """Run the writer ``call`` (no arguments: ``functools.partial`` binds the writer's own, which may have any name)
    on the writers' thread, then send every update it committed from the event loop (each within ``timeout``, as
    :func:`broadcast`); with ``first``, await ``first(committed)`` before (a mover's own view goes ahead of
    everyone's). Updates committed before the writer raised are sent all the same. Returns the committed updates."""
    committed: list[Update] = []
    try:
        await _collecting(committed, call)
        if first is not None:
            await first(committed)
    finally:
        for update in committed:
            await broadcast(update, timeout=timeout)
    return committed


def run_writer_sync(call: Callable[[], object]) -> list[Update]:
    """:func:`run_writer` for synchronous code outside any transaction (the Bot API's move): the updates the writer
    committed, each sent once (:func:`broadcast_sync`) and returned."""
    committed: list[Update] = []
    try:
        outbox.collect_into(committed, call)
    finally:
        for update in committed:
            broadcast_sync(update)
    return committed


async def _publish(update: Update) -> None:
    """An update's control messages, if any, then its frames: a socket acts on a message before the frames of the
    same change (a table that allows no spectators closes the sockets of those who may not watch it before its first
    view reaches them). The views of a new version, one per seat and one for the spectators, go to the match's
    group as one message (``{"frames": {group: text}}``: one publish, and one message for each process to read,
    where a group each took as many), from which every socket takes its own group's; any other frame goes to its
    group as ``{"text": text}``."""
    layer = get_channel_layer()
    for group, message in update.messages.items():
        await layer.group_send(group, message)
    together = update.table_frames()
    sends = [
        layer.group_send(group, {"type": MESSAGE_TYPE, "text": text})
        for group, text in update.frames.items()
        if group not in together
    ]
    if together:
        sends.append(layer.group_send(update.table, {"type": MESSAGE_TYPE, "frames": together}))
    if len(sends) == 1:
        await sends[0]  # a move's one publish: no task of its own, as gather would make
    else:
        await asyncio.gather(*sends)


def relay_body(update: Update) -> bytes:
    """What the worker posts to the relay endpoint (``realtime.views.relay``), read by :func:`relayed`."""
    return json.dumps({"frames": update.frames, "messages": update.messages, "table": update.table}).encode()


def relayed(body: bytes) -> Update:
    """The update a relay request carries; ``ValueError`` if it is not one."""
    data = json.loads(body)
    if not isinstance(data, dict):
        raise ValueError("a relay body is an object")
    frames, messages, table = data.get("frames"), data.get("messages"), data.get("table")
    if not (isinstance(frames, dict) and isinstance(messages, dict)):
        raise ValueError("a relay body holds frames and messages")
    if not (table is None or isinstance(table, str)):
        raise ValueError("a table is a group name")
    if not all(isinstance(text, str) for text in frames.values()):
        raise ValueError("a frame is a text")
    if not all(
        isinstance(message, dict) and isinstance(message.get("type"), str) for message in messages.values()
    ):
        raise ValueError("a control message has a type")
    return Update(frames={str(group): text for group, text in frames.items()}, messages=messages, table=table)


def broadcast_sync(update: Update) -> bool:
    """The outbox's sender for synchronous code (views, Celery tasks), called after the commit."""
    if not update:
        return True
    try:
        if settings.TAPETE_RELAY_URL:
            request = urllib.request.Request(
                settings.TAPETE_RELAY_URL,
                data=relay_body(update),
                headers={"Content-Type": "application/json", RELAY_HEADER: settings.TAPETE_RELAY_TOKEN},
                method="POST",
            )
            with urllib.request.urlopen(request, timeout=settings.TAPETE_BROADCAST_TIMEOUT_SECONDS):
                return True
        return async_to_sync(broadcast)(update)
    except Exception as error:  # noqa: BLE001  (the relay unreachable: as for the channel layer)
        undelivered(update, error)
        return False


def undelivered(update: Update, error: BaseException) -> None:
    """One line in the log; for a new version's views, the failure recorded on the match."""
    logger.warning(
        "frames for %s could not be published (%s); the heartbeat will deliver them",
        ", ".join(sorted({*update.frames, *update.messages})) or "nobody",
        type(error).__name__,
    )
    if update.match_id is None or update.version is None:
        return
    try:
        writer.mark_undelivered(match_id=update.match_id, version=update.version)
    except DatabaseError as db_error:
        logger.warning(
            "the failed delivery of match %s could not be recorded (%s)", update.match_id, db_error
        )
