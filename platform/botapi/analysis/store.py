"""Stored analyses: compute one for a finished match (the Celery task at the match's end, or on demand for older
matches), read one. A match still running has none, ever: both paths check the status first."""

from __future__ import annotations

from botapi.analysis import chinesecheckers, perudo, spicy
from botapi.models import Analysis
from turnengine.models import Match, MatchAction

# The games with a post-game analysis: each is a function of (the finished match, its log rows).
ANALYSES = {
    "perudo": lambda match, rows: perudo.analyse(match.rules, match.options, match.num_players, rows),
    "spicy": lambda match, rows: spicy.analyse(match.rules, match.options, match.num_players, rows),
    "chinesecheckers": lambda match, rows: chinesecheckers.analyse(
        match.rules, match.options, match.num_players, rows, seed=match.seed
    ),
}


def analysis_for(*, match: Match) -> Analysis | None:
    """The stored analysis of a finished match; never one of a match still running."""
    if match.status != Match.Status.FINISHED:
        return None
    return Analysis.objects.filter(match=match).first()


def analysis_compute(*, match_id: int) -> Analysis | None:
    """Analyse a finished match from its full log (every roll and deal is public once it is over) and store it;
    None for a match that is not finished."""
    match = Match.objects.filter(pk=match_id, status=Match.Status.FINISHED).first()
    if match is None:
        return None
    rows = list(
        MatchAction.objects.filter(match=match)
        .order_by("step")
        .values_list("step", "version", "seat", "action")
    )
    analyse = ANALYSES.get(match.game)
    if analyse is None:
        return None
    data = analyse(match, rows)
    analysis, _created = Analysis.objects.update_or_create(match=match, defaults={"data": data})
    return analysis
