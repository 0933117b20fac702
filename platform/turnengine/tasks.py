"""Celery tasks of the turn engine: thin adapters over ``turnengine.timers``."""

from celery import shared_task

from turnengine import timers
from turnengine.broadcast import broadcast_sync


@shared_task(ignore_result=True)
def match_deadline(match_id: int, version: int) -> None:
    """Fired at a match's deadline for the version that set it; idempotent (a moved-on version does nothing)."""
    update = timers.match_expire(match_id=match_id, version=version)
    if update is not None:
        broadcast_sync(update)


@shared_task(ignore_result=True)
def sweep_deadlines() -> dict:
    """Celery beat: catch deadlines whose task was lost and close tables that never started."""
    return timers.sweep()


@shared_task(ignore_result=True)
def bot_move(match_id: int, version: int) -> None:
    """A bot's move after a human-like delay; idempotent like the deadlines."""
    from turnengine.bot_seats import bot_play

    update = bot_play(match_id=match_id, version=version)
    if update is not None:
        broadcast_sync(update)
