"""Frames leave on commit, and only from here: every writer of a match, a chat line or a table registers the
:class:`~turnengine.updates.Update` its change makes with :func:`send_on_commit`, inside or after its
transaction. It is sent when the outermost transaction commits (at once when there is none), and never for a
change that was rolled back, as Zulip's ``send_event_on_commit`` does. No caller broadcasts by hand.

Who sends: the transport (``realtime.broadcast``) installs its sender when the app is ready. A websocket that
runs a writer on the database thread collects the updates instead (:func:`collect_into`) and sends them from the
event loop once the writer has returned, so the database thread, which every socket's move waits for, never waits
for the channel layer; the socket may send its own view first.
"""

from __future__ import annotations

import logging
from collections.abc import Callable
from contextvars import ContextVar
from functools import partial

from django.db import transaction

from turnengine.updates import Update

logger = logging.getLogger("tapete.delivery")

_collecting: ContextVar[list[Update] | None] = ContextVar("tapete_outbox_collecting", default=None)
_sender: Callable[[Update], object] | None = None


def install_sender(sender: Callable[[Update], object]) -> None:
    """The transport's synchronous sender (``broadcast.broadcast_sync``), set once at start."""
    global _sender
    _sender = sender


def send_on_commit(update: Update | None) -> None:
    """Send ``update``'s frames once the current transaction commits (now, outside one). An empty update, or
    None, sends nothing."""
    if not update:
        return
    transaction.on_commit(partial(_committed, update, _collecting.get()), robust=True)


def _committed(update: Update, collecting: list[Update] | None) -> None:
    if collecting is not None:
        collecting.append(update)
    elif _sender is None:
        logger.warning("frames for %s dropped: no sender is installed", ", ".join(sorted(update.frames)))
    else:
        _sender(update)


def collect_into(collected: list[Update], function: Callable, /, *args, **kwargs):
    """Call ``function`` (a writer), appending to ``collected`` the updates it commits instead of sending them."""
    token = _collecting.set(collected)
    try:
        return function(*args, **kwargs)
    finally:
        _collecting.reset(token)
