"""The test suite's settings: the site's own, plus the fourth game that exists only to prove a game is one folder
(``tests/tictactoe``). pytest selects this module (pyproject.toml), and the servers and workers the tests start
inherit the choice through ``DJANGO_SETTINGS_MODULE``.

The suite runs in parallel processes (pytest-xdist, ``-n`` in pyproject.toml). Each process is one site of its
own: its embedded files (SQLite test database, Celery's SQLite broker, beat's schedules) in a folder of its own
under ``var/``, and an instance name of its own in front of everything it puts in Redis, so one process's Celery
worker never takes another's tasks and a frame for match 7 of one test database never reaches a socket of match 7
of another. The servers and workers a test starts inherit both through the environment.
"""

import hashlib
import os
from pathlib import Path

_checkout = Path(__file__).resolve().parent.parent
_worker = os.environ.get("PYTEST_XDIST_WORKER")  # gw0, gw1, ... in a parallel run; unset otherwise
if _worker:
    # Two checkouts of one machine may run their suites at once on the same Redis: the checkout's path is part of
    # the instance name.
    _run = hashlib.sha256(str(_checkout).encode()).hexdigest()[:6]
    os.environ.setdefault("TAPETE_VAR_DIR", str(_checkout / "var" / f"test-{_worker}"))
    os.environ.setdefault("TAPETE_INSTANCE", f"test-{_run}-{_worker}")

from tapete.settings import *  # noqa: E402, F403

INSTALLED_APPS = [*INSTALLED_APPS, "tests.tictactoe"]  # noqa: F405
