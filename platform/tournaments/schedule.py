"""What a finished table asks of tournaments: the engine's ``match_finished`` signal (once per finish, after its
commit, never per move) queues :func:`tournaments.tasks.table_finished`, which finds out off the move's path whether
the table is a tournament's. ``TAPETE_SCHEDULE_TOURNAMENTS`` off (the tests) queues nothing; a task the broker lost
is made up for by the beat sweep."""

from __future__ import annotations

import logging

from django.conf import settings

from tournaments.tasks import table_finished

logger = logging.getLogger("tapete.tournaments")


def on_match_finished(sender, *, match_id: int, **kwargs) -> None:
    if not settings.TAPETE_SCHEDULE_TOURNAMENTS:
        return
    try:
        table_finished.delay(match_id)
    except Exception as error:  # the broker is out of reach: the sweep scores the table within a sweep
        logger.warning("tournaments: could not queue the finish of match %s (%s)", match_id, error)
