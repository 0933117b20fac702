"""The embedded default's Celery broker is kombu's SQLAlchemy transport over a SQLite file in ``var/``, polling every
worker tick (tapete/broker.py): the class the Celery app really connects with, and the interval it really sleeps.
Kombu picks a transport from a ``sqla+`` URL prefix over the configured class, and its SQLAlchemy transport cannot
take ``polling_interval`` as an option, so both are checked on a live connection."""

import pytest
from django.conf import settings
from kombu.transport import sqlalchemy

from tapete.broker import Transport
from tapete.celery import app

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
