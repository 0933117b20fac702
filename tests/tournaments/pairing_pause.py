"""The Celery application of a worker that stops in the middle of pairing a round, for the test of a worker killed
there (``tests/tournaments/test_tournament_worker.py``), started as ``celery -A tests.tournaments.pairing_pause``.

It is the site's application with one change, made here and nowhere in the site's code: once round
``TAPETE_TEST_PAUSE_ROUND`` has its row and its first table written, still inside the pairing's transaction, the
worker writes that table's id to the file ``TAPETE_TEST_PAUSE_FILE`` and sleeps until it is killed."""

import os
import time
from pathlib import Path

import django

from tapete.celery import app  # noqa: F401  (the application ``-A`` looks for here)

django.setup()  # before the tournaments' models are imported; Celery's own set-up finds it done

from tournaments import life_cycle  # noqa: E402

_start_table = life_cycle.start_table


def start_table_then_pause(tournament, new_round, entries):
    table = _start_table(tournament, new_round, entries)
    if new_round.number == int(os.environ["TAPETE_TEST_PAUSE_ROUND"]):
        Path(os.environ["TAPETE_TEST_PAUSE_FILE"]).write_text(str(table.pk))
        time.sleep(600)
    return table


life_cycle.start_table = start_table_then_pause
