"""Celery tasks of the turn engine: thin adapters over ``turnengine.timers``, ``turnengine.bot_moves`` and
``turnengine.presence``. What they change sends its frames on commit (``turnengine.outbox``)."""

from celery import shared_task

from turnengine import bot_moves, presence, queue_health, timers


@shared_task(ignore_result=True)
def match_deadline(match_id: int, version: int) -> None:
    """Fired at a match's deadline for the version that set it; idempotent (a moved-on version does nothing)."""
    timers.match_expire(match_id=match_id, version=version)


@shared_task(ignore_result=True)
def sweep_deadlines() -> dict:
    """Celery beat: catch deadlines whose task was lost, close tables that never started, and close the connections
    of server processes that stopped ticking (their seats go offline as if each socket had closed; their players'
    lobby sockets too, for their friends: ``turnengine.presence.install_lives_gone``)."""
    summary = timers.sweep()
    summary["presence_settled"] = len(presence.sweep_dead_processes())
    queue_health.probe_ran("play")  # beat's last sweep, and the "play" queue's age
    return summary


@shared_task(ignore_result=True)
def queue_probe(queue: str) -> None:
    """Celery beat, on ``queue``: record that a worker of that queue ran it (``turnengine.queue_health``)."""
    queue_health.probe_ran(queue)


@shared_task(ignore_result=True)
def bot_move(match_id: int, version: int) -> None:
    """A bot's move after a human-like delay; idempotent like the deadlines."""
    bot_moves.bot_play(match_id=match_id, version=version)
