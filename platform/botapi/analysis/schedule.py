"""When the analysis is computed: by a Celery task right after a match ends (``turnengine.signals``), and on
demand for a finished match that has none yet (older matches: its replay page or the API asks for it; the
``analyse_matches`` command does them all at once). ``TAPETE_SCHEDULE_ANALYSIS`` off (the tests) queues nothing."""

from __future__ import annotations

from django.conf import settings
from django.core.cache import cache

from botapi.tasks import analyse_match

REQUEST_EVERY_SECONDS = 300  # page views of a match awaiting its analysis queue one task, not one each


def on_match_finished(sender, *, match_id: int, **kwargs) -> None:
    request_analysis(match_id=match_id)


def request_analysis(*, match_id: int) -> None:
    if not settings.TAPETE_SCHEDULE_ANALYSIS:
        return
    if not cache.add(f"botapi:analysis-requested:{match_id}", True, timeout=REQUEST_EVERY_SECONDS):
        return

    analyse_match.delay(match_id)
