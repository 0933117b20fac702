"""The embedded default's Celery broker: kombu's SQLAlchemy transport (on a SQLite file, ``settings.py``), polling
for new messages every worker tick (``TAPETE_WORKER_TICK_SECONDS``).

A virtual transport sleeps ``polling_interval`` between polls of an empty queue (one second by default). Kombu
would read it from the transport options, but its SQLAlchemy transport passes every option on to SQLAlchemy's
``create_engine``, which refuses this one: so it is set here, on kombu's public transport attribute.
"""

from django.conf import settings
from kombu.transport import sqlalchemy


class Transport(sqlalchemy.Transport):
    def __init__(self, client, **kwargs) -> None:
        super().__init__(client, **kwargs)
        self.polling_interval = settings.TAPETE_WORKER_TICK_SECONDS
