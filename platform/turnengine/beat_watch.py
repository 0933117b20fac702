"""A play worker that notices beat has stopped sweeps in its place, so that no deadline depends on beat alone.

A move queues its deadline itself only when it falls within two sweeps (``writer.deadline_horizon``); a later one
is left to beat's sweeper (``timers.sweep``), which queues it as it comes near. Should beat stop, those deadlines
would wait for ever. So every worker that serves the "play" queue runs this watch (started when the worker is
ready: ``turnengine.apps``): every sweep interval it reads when the sweeper last ran (``queue_health``), and when
that is more than ``LATE_AFTER_SWEEPS`` intervals ago it sweeps itself and says so in the log. A sweep is safe to
repeat (a deadline queued twice expires once), so two workers that both notice do no harm; once beat is back, its
sweeps keep the watch quiet again.
"""

from __future__ import annotations

import logging
import threading

from django.conf import settings
from django.db import close_old_connections
from django.utils import timezone

from turnengine import queue_health, timers
from turnengine.models import QueueProbe

logger = logging.getLogger("tapete.beat_watch")


def beat_is_late(now=None) -> bool:
    ran_at = QueueProbe.objects.filter(queue="play").values_list("ran_at", flat=True).first()
    late_after = queue_health.LATE_AFTER_SWEEPS * settings.TAPETE_SWEEP_SECONDS
    return ran_at is None or ((now or timezone.now()) - ran_at).total_seconds() > late_after


def sweep_if_beat_is_late() -> bool:
    """One look: sweep in beat's place if it is late; whether this swept."""
    if not beat_is_late():
        return False
    summary = timers.sweep()
    queue_health.probe_ran("play")  # the sweep ran, by whoever: the next look waits for beat again
    logger.warning("beat's sweeper is late: this worker swept in its place (%s)", summary)
    return True


class BeatWatch:
    """The watch's thread, for one worker's life."""

    def __init__(self) -> None:
        self.stopping = threading.Event()
        self.thread = threading.Thread(target=self.run, name="tapete-beat-watch", daemon=True)

    def start(self) -> None:
        self.thread.start()

    def stop(self) -> None:
        self.stopping.set()

    def run(self) -> None:
        while not self.stopping.wait(settings.TAPETE_SWEEP_SECONDS):
            try:
                sweep_if_beat_is_late()
            except Exception as error:  # noqa: BLE001  (the database or the broker is down: look again later)
                logger.warning("beat watch: could not look (%s)", type(error).__name__)
            finally:
                close_old_connections()


_watch: BeatWatch | None = None


def start_watch(sender=None, **kwargs) -> None:
    """Celery's ``worker_ready``: a worker serving the "play" queue starts watching."""
    global _watch
    if "play" in settings.TAPETE_WORKER_QUEUES and _watch is None:
        _watch = BeatWatch()
        _watch.start()


def stop_watch(sender=None, **kwargs) -> None:
    """Celery's ``worker_shutdown``."""
    if _watch is not None:
        _watch.stop()
