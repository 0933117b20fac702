"""Celery tasks of the Bot API: the post-game analysis of a match that just ended (thin adapter)."""

from celery import shared_task

from botapi.analysis.store import analysis_compute


@shared_task(ignore_result=True)
def analyse_match(match_id: int) -> None:
    analysis_compute(match_id=match_id)
