"""Celery beat's scheduler, which outlives a dead broker channel.

Beat keeps one producer (and its broker connection) for its whole life. If that producer's channel dies, every
scheduled send fails from then on with the same error, and nothing is swept, started or mailed again until beat is
restarted. Seen with the embedded default's broker: a worker's embedded beat whose channel was closed as it started
("Couldn't apply scheduled task sweep-tournaments: channel disconnected", then the same for every task, every tick);
a tournament never started. So a send that fails drops the producer and its connection, and the next send makes new
ones. ``tests/tapete/test_beat.py`` kills the channel and checks the next send goes through.
"""

from celery.beat import PersistentScheduler, SchedulingError


class Scheduler(PersistentScheduler):
    def apply_async(self, entry, producer=None, advance=True, **kwargs):
        try:
            return super().apply_async(entry, producer=producer, advance=advance, **kwargs)
        except SchedulingError:
            self.forget_producer()
            raise

    def forget_producer(self) -> None:
        """Drop the cached producer and connection (``celery.beat.Scheduler``'s cached properties) so that the next
        send opens new ones; the old ones are released, whatever state they are in."""
        for name in ("producer", "connection"):
            stale = self.__dict__.pop(name, None)
            if stale is not None:
                try:
                    stale.release()
                except Exception:  # noqa: BLE001, S110  (already broken: it only has to go)
                    pass
