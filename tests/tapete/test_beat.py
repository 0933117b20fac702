"""Beat outlives a dead broker channel (``tapete/beat.py``): a send that fails because the producer's channel was
closed is followed by one that goes through, where Celery's own scheduler would fail every send from then on."""

import pytest
from celery.beat import PersistentScheduler
from django.conf import settings

from tapete.beat import Scheduler
from tapete.celery import app

pytestmark = pytest.mark.skipif(
    bool(settings.REDIS_URL), reason="the embedded default's broker, where the dead channel was seen (Redis is used here)"
)
QUEUE = settings.TAPETE_QUEUES["bulk"]


def _waiting() -> int:
    with app.connection_for_read() as connection:
        return connection.default_channel.queue_declare(queue=QUEUE, passive=True).message_count


def _purge() -> None:
    with app.connection_for_read() as connection:
        connection.default_channel.queue_purge(QUEUE)


@pytest.fixture
def scheduler(tmp_path):
    _purge()
    beat = Scheduler(app=app, schedule_filename=str(tmp_path / "beat"))
    yield beat
    beat.close()
    _purge()


def test_the_site_runs_beat_with_this_scheduler():
    assert app.conf.beat_scheduler == "tapete.beat:Scheduler"
    assert issubclass(Scheduler, PersistentScheduler)


def test_after_its_channel_dies_beat_sends_again_on_the_next_try(scheduler):
    entry = scheduler.schedule["probe-bulk"]
    scheduler.apply_entry(entry, producer=scheduler.producer)
    assert _waiting() == 1
    scheduler.producer.channel.close()  # as the embedded beat's channel was closed under it

    scheduler.apply_entry(entry, producer=scheduler.producer)  # fails, logged by beat
    assert _waiting() == 1
    scheduler.apply_entry(entry, producer=scheduler.producer)  # a new producer on a new connection
    assert _waiting() == 2
