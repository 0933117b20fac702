"""What the engine asks the Celery worker to do later: check a match at its deadline, play a computer player's
move. The engine names the tasks (``turnengine.tasks``) instead of importing them, since they call the engine:
Celery's signature by name runs the registered task (eagerly, if so configured) or sends it by name.

Each ``*_on_commit`` queues after the commit, ``robust``: a broker that cannot be reached (Redis down) is logged,
and the sweeper (``timers.sweep``) queues the job later; the move or the request that asked for it has committed
and must not fail.
"""

from __future__ import annotations

from datetime import datetime

from celery import signature
from django.db import transaction

MATCH_DEADLINE = "turnengine.tasks.match_deadline"
BOT_MOVE = "turnengine.tasks.bot_move"


def queue_deadline(match_id: int, version: int, eta: datetime) -> None:
    signature(MATCH_DEADLINE, args=(match_id, version)).apply_async(eta=eta)


def queue_bot_move(match_id: int, version: int, *, delay: float = 0) -> None:
    signature(BOT_MOVE, args=(match_id, version)).apply_async(countdown=delay)


def deadline_on_commit(match_id: int, version: int, eta: datetime) -> None:
    transaction.on_commit(lambda: queue_deadline(match_id, version, eta), robust=True)


def bot_move_on_commit(match_id: int, version: int, *, delay: float) -> None:
    transaction.on_commit(lambda: queue_bot_move(match_id, version, delay=delay), robust=True)
