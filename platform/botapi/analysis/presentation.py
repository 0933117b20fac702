"""What the replay page and the API show of an analysis: the summary, a note per move, the game's highlights (each
a moment of the replay) and the numbers."""

from __future__ import annotations

from botapi.analysis.schedule import request_analysis
from botapi.analysis.store import analysis_for
from botapi.analysis.words import has_analysis, in_words
from turnengine.models import Match
from turnengine.played_for import computer_played_steps


def analysis_shown(*, match: Match) -> bool:
    """Whether the match has, or will have, an analysis to show: it is finished and its game has one."""
    return match.status == Match.Status.FINISHED and has_analysis(match.game)


def analysis_context(*, match: Match) -> dict | None:
    """The analysis of a match whose analysis is shown (:func:`analysis_shown`) in the current language; None while
    it is not computed yet (it is then asked for)."""
    analysis = analysis_for(match=match)
    if analysis is None:
        request_analysis(match_id=match.pk)  # an older match: computed on demand
        return None
    names = {seat.index: seat.user.username for seat in match.seats.select_related("user")}
    return {"data": analysis.data, **in_words(match.game, analysis.data, names, computer_played_steps(match))}
