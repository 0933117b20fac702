"""When the analysis is computed: by a Celery task right after a match ends (``turnengine.signals``), and on
demand for a finished match that has none yet (older matches: its replay page or the API asks for it; the
``analyse_matches`` command does them all at once). ``TAPETE_SCHEDULE_ANALYSIS`` off (the tests) queues nothing."""

from __future__ import annotations

from django.conf import settings


def on_match_finished(sender, *, match_id: int, **kwargs) -> None:
    request_analysis(match_id=match_id)


def request_analysis(*, match_id: int) -> None:
    if not settings.TAPETE_SCHEDULE_ANALYSIS:
        return
    from botapi.tasks import analyse_match

    analyse_match.delay(match_id)
