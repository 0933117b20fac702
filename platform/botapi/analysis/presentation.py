"""What the replay page and the API show of an analysis: the summary, a note per move, the Perudo rounds where
another choice would have saved a die, and the numbers."""

from __future__ import annotations

from botapi.analysis.schedule import request_analysis
from botapi.analysis.store import analysis_for
from botapi.analysis.summary import move_notes, perudo_saving_text, summary
from turnengine.models import Match


def analysis_context(*, match: Match) -> dict | None:
    """None while a finished match's analysis is not computed yet (it is then asked for); never for a running
    match."""
    if match.status != Match.Status.FINISHED:
        return None
    analysis = analysis_for(match=match)
    if analysis is None:
        request_analysis(match_id=match.pk)  # an older match: computed on demand
        return None
    names = {seat.index: seat.user.username for seat in match.seats.select_related("user")}
    data = analysis.data
    return {
        "data": data,
        "summary": summary(data, names),
        "notes": move_notes(data, names),
        "saving": [perudo_saving_text(entry, names) for entry in data.get("saving", [])],
    }
