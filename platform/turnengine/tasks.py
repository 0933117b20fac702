"""Celery tasks of the turn engine: thin adapters over ``turnengine.timers`` and ``turnengine.presence``."""

import logging

from celery import shared_task

from turnengine import presence, timers
from turnengine.broadcast import broadcast_sync

logger = logging.getLogger("tapete.presence")


@shared_task(ignore_result=True)
def match_deadline(match_id: int, version: int) -> None:
    """Fired at a match's deadline for the version that set it; idempotent (a moved-on version does nothing)."""
    update = timers.match_expire(match_id=match_id, version=version)
    if update is not None:
        broadcast_sync(update)


@shared_task(ignore_result=True)
def sweep_deadlines() -> dict:
    """Celery beat: catch deadlines whose task was lost, close tables that never started, and close the connections
    of server processes that stopped ticking (their seats go offline as if each socket had closed)."""
    summary = timers.sweep()
    settled = presence.sweep_dead_processes()
    for update in settled:
        try:
            broadcast_sync(update)
        except Exception as error:  # noqa: BLE001  (the rows are settled; a page's next snapshot shows it)
            logger.warning("presence frame not sent after the sweep: %s", type(error).__name__)
    summary["presence_settled"] = len(settled)
    return summary


@shared_task(ignore_result=True)
def bot_move(match_id: int, version: int) -> None:
    """A bot's move after a human-like delay; idempotent like the deadlines."""
    from turnengine.bot_seats import bot_play

    update = bot_play(match_id=match_id, version=version)
    if update is not None:
        broadcast_sync(update)
