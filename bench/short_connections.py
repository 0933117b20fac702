"""The site's settings with every database connection closed at the end of its request or socket call
(``CONN_MAX_AGE`` 0, Django's advice under ASGI), for the servers of ``bench/tournament_load.py``.

Under ASGI each HTTP request runs on a thread of its own, and with the site's persistent connections (60 s) each such
thread kept a PostgreSQL connection open after its request: the computer clients' ``my-table.json`` requests held
about 25 connections per server process and ran the shared PostgreSQL server (100 connections) out of them."""

from tapete.settings import *  # noqa: F403

DATABASES["default"]["CONN_MAX_AGE"] = 0  # noqa: F405
