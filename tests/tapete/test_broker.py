"""The embedded default's Celery broker is kombu's SQLAlchemy transport over a SQLite file in ``var/``, polling every
worker tick (tapete/broker.py): the class the Celery app really connects with, and the interval it really sleeps.
Kombu picks a transport from a ``sqla+`` URL prefix over the configured class, and its SQLAlchemy transport cannot
take ``polling_interval`` as an option, so both are checked on a live connection."""

import gc

import pytest
from django.conf import settings
from kombu.transport import sqlalchemy

from tapete.broker import Channel, Transport
from tapete.celery import app
from turnengine.queue_health import waiting_messages

pytestmark = pytest.mark.skipif(
    bool(settings.REDIS_URL), reason="the embedded default's broker (Redis is used here)"
)


def test_the_app_connects_with_the_sqlite_transport_polling_every_worker_tick():
    with app.connection_for_read() as connection:
        transport = connection.transport
        assert type(transport) is Transport and isinstance(transport, sqlalchemy.Transport)
        assert transport.polling_interval == settings.TAPETE_WORKER_TICK_SECONDS
        assert connection.hostname == f"sqlite:///{settings.VAR_DIR / 'celery-broker.sqlite3'}"


def test_a_message_goes_through_the_sqlite_file():
    with app.connection_for_write() as connection:
        queue = connection.SimpleQueue("tapete-broker-test")
        try:
            queue.put({"hello": "broker"})
            assert queue.get(timeout=5).payload == {"hello": "broker"}
        finally:
            queue.clear()
            queue.close()



def test_counting_a_queues_messages_gives_its_connection_back_to_the_pool(settings):
    """The health check counts each queue's messages on a connection of its own, which it closes. With the cyclic
    garbage collector off (a process that allocates little runs it seldom), kombu's channel kept its session, and
    the session its pooled connection, until the collector freed them: after 15 counts every checkout of the process
    waited SQLAlchemy's 30 s pool timeout. The channel closes its session when it closes (kombu's ``_session``,
    tapete/broker.py): no count leaves a connection checked out."""
    play = settings.TAPETE_QUEUES["play"]
    assert waiting_messages(play) is not None
    engine, _sessions = Channel._engines[settings.CELERY_BROKER_URL.removeprefix("sqla+")]
    gc.disable()
    try:
        counts = [waiting_messages(play) for _ in range(engine.pool.size() + 1)]
        assert engine.pool.checkedout() == 0
    finally:
        gc.enable()
    assert None not in counts
