"""Log records of a Redis outage in one line each.

While Redis cannot be reached, the libraries around it (channels_redis' pub/sub receive loop, daphne's "Exception
inside application", asyncio's unretrieved task errors, Celery's and kombu's reconnects) each log a full traceback,
again and again, and the site's own one-line messages (``tapete.websocket``, ``tapete.delivery``) drown among
them. :class:`OneLineRedisOutages`, a filter on the site's log handler (``settings.LOGGING``), turns a record of
another logger whose exception is a lost or refused Redis connection into one line, its logger, message and the
exception's class and text; the traceback is kept only when the site logs at DEBUG (``DJANGO_LOG_LEVEL``).
"""

from __future__ import annotations

import logging

from redis.exceptions import ConnectionError as RedisConnectionError
from redis.exceptions import TimeoutError as RedisTimeoutError

OUTAGE_ERRORS = (RedisConnectionError, RedisTimeoutError, ConnectionError)
SITE_LOGGERS = ("tapete", "django")  # their records are the site's own: left as they are


def redis_outage(error: BaseException | None) -> BaseException | None:
    """The lost-connection error in ``error``'s chain (its causes and contexts), if there is one."""
    seen = set()
    while error is not None and id(error) not in seen:
        if isinstance(error, OUTAGE_ERRORS):
            return error
        seen.add(id(error))
        error = error.__cause__ or error.__context__
    return None


class OneLineRedisOutages(logging.Filter):
    def filter(self, record: logging.LogRecord) -> bool:
        if not record.exc_info or record.name.split(".")[0] in SITE_LOGGERS:
            return True
        outage = redis_outage(record.exc_info[1])
        if outage is None or logging.getLogger().isEnabledFor(logging.DEBUG):
            return True
        message = record.getMessage()
        record.msg = "%s: %s (Redis unreachable: %s: %s)"
        record.args = (record.name, message, type(outage).__name__, outage)
        record.exc_info = record.exc_text = None
        record.levelno, record.levelname = logging.WARNING, "WARNING"
        return True
