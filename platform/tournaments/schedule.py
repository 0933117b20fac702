"""What a finished table asks of tournaments: the engine's ``match_finished`` signal (once per finish, after its
commit, never per move) queues :func:`tournaments.tasks.table_finished` for a tournament's table (one lookup by the
match's unique key decides; any other table queues nothing), which scores it and pairs what is due off the move's
path. ``TAPETE_SCHEDULE_TOURNAMENTS`` off (the tests) queues nothing; a task the broker lost is made up for by the
beat sweep."""

from __future__ import annotations

import logging

from django.conf import settings

from tournaments.models import TournamentTable
from tournaments.tasks import table_finished

logger = logging.getLogger("tapete.tournaments")


def on_match_finished(sender, *, match_id: int, **kwargs) -> None:
    if not settings.TAPETE_SCHEDULE_TOURNAMENTS or not TournamentTable.objects.filter(match_id=match_id).exists():
        return
    try:
        table_finished.delay(match_id)
    except Exception as error:  # the broker is out of reach: the sweep scores the table within a sweep
        logger.warning("tournaments: could not queue the finish of match %s (%s)", match_id, error)
