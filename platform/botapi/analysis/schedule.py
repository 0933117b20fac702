"""When the analysis is computed: by a Celery task right after a match ends (``turnengine.signals``), and on
demand for a finished match that has none yet (older matches: its replay page or the API asks for it)."""

from __future__ import annotations

from django.conf import settings


def on_match_finished(sender, *, match_id: int, **kwargs) -> None:
    if settings.TAPETE_SCHEDULE_ANALYSIS:
        request_analysis(match_id=match_id)


def request_analysis(*, match_id: int) -> None:
    from botapi.tasks import analyse_match

    analyse_match.delay(match_id)
