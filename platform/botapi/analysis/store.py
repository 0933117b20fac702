"""Stored analyses: read one, compute and store one (the Celery task and the on-demand path call this)."""

from __future__ import annotations

from botapi.models import Analysis
from turnengine.models import Match


def analysis_for(*, match: Match) -> Analysis | None:
    """The stored analysis of a finished match; never one of a match still running."""
    if match.status != Match.Status.FINISHED:
        return None
    return Analysis.objects.filter(match=match).first()
