"""The embedded default's Celery broker: kombu's SQLAlchemy transport (on a SQLite file, ``settings.py``), polling
for new messages every worker tick (``TAPETE_WORKER_TICK_SECONDS``), whose channels give their database connection
back when they close.

A virtual transport sleeps ``polling_interval`` between polls of an empty queue (one second by default). Kombu
would read it from the transport options, but its SQLAlchemy transport passes every option on to SQLAlchemy's
``create_engine``, which refuses this one: so it is set here, on kombu's public transport attribute.

Kombu's SQLAlchemy channel never closes its session: a channel that only read (the health check's count of a
queue's messages, ``turnengine.queue_health``) kept a connection of the engine's pool, which the process shares,
until the cyclic garbage collector freed the channel. The pool holds 15: past that, every checkout of the process
(a task sent on commit too) waited SQLAlchemy's 30 s pool timeout. So the channel here closes its session when it
closes (the session is kombu's ``_session``: ``tests/tapete/test_broker.py`` pins it).
"""

from django.conf import settings
from kombu.transport import sqlalchemy


class Channel(sqlalchemy.Channel):
    def close(self) -> None:
        try:
            super().close()
        finally:
            if self._session is not None:
                self._session.close()
                self._session = None


class Transport(sqlalchemy.Transport):
    Channel = Channel

    def __init__(self, client, **kwargs) -> None:
        super().__init__(client, **kwargs)
        self.polling_interval = settings.TAPETE_WORKER_TICK_SECONDS
