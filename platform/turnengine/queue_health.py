"""Whether Celery beat and both queues keep up, for the operator (``manage.py queue_health`` and
``/internal/health/``; docs/deploy-queues.md).

Beat sends the deadline sweeper to the "play" queue and a probe to the "bulk" queue every ``TAPETE_SWEEP_SECONDS``;
each records when a worker ran it (:class:`~turnengine.models.QueueProbe`). A queue's age is how long ago its
probe last ran: about one sweep interval while beat and that queue's workers keep up, more when beat stopped
(both grow) or when the queue's workers are busy or gone (that queue's grows). The report also counts the messages
waiting in each queue. Late means older than three sweep intervals.
"""

from __future__ import annotations

from dataclasses import asdict, dataclass

from celery import current_app
from django.conf import settings
from django.utils import timezone

from turnengine.models import QueueProbe

LATE_AFTER_SWEEPS = 3


def probe_ran(queue: str) -> None:
    QueueProbe.objects.update_or_create(queue=queue, defaults={"ran_at": timezone.now()})


@dataclass
class QueueState:
    queue: str
    age_seconds: float | None  # since its probe last ran; None: never ran
    waiting: int | None  # messages in the queue; None: the broker did not answer
    late: bool


def waiting_messages(name: str) -> int | None:
    """How many messages wait in the broker queue ``name`` (kombu's passive declare, on Redis and SQLite alike)."""
    try:
        with current_app.connection_for_read() as connection:
            return connection.default_channel.queue_declare(queue=name, passive=True).message_count
    except Exception:  # noqa: BLE001  (an unreachable or empty broker: the report says "unknown")
        return None


def queue_report() -> dict:
    """The report: beat's last sweep (the "play" probe), and each queue's age, waiting messages and lateness."""
    now = timezone.now()
    ran = dict(QueueProbe.objects.values_list("queue", "ran_at"))
    late_after = LATE_AFTER_SWEEPS * settings.TAPETE_SWEEP_SECONDS
    queues = []
    for queue, name in settings.TAPETE_QUEUES.items():
        age = (now - ran[queue]).total_seconds() if queue in ran else None
        queues.append(QueueState(queue, age, waiting_messages(name), age is None or age > late_after))
    return {
        "last_sweep_at": ran["play"].isoformat() if "play" in ran else None,
        "late_after_seconds": late_after,
        "queues": [asdict(state) for state in queues],
        "healthy": not any(state.late for state in queues),
    }
