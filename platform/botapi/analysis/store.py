"""Stored analyses: compute one for a finished match (the Celery task at the match's end, or on demand for older
matches), read one. A match still running has none, ever: both paths check the status first. The computation is
the game's own (``tapete_sdk.registry.analysis``); a game without one has no analysis."""

from __future__ import annotations

from tapete_sdk import registry

from botapi.models import Analysis
from turnengine.models import Match, MatchAction


def analysis_for(*, match: Match) -> Analysis | None:
    """The stored analysis of a finished match; never one of a match still running."""
    if match.status != Match.Status.FINISHED:
        return None
    return Analysis.objects.filter(match=match).first()


def analysis_compute(*, match_id: int) -> Analysis | None:
    """Analyse a finished match from its full log (every roll and deal is public once it is over) and store it;
    None for a match that is not finished, or whose game has no analysis."""
    match = Match.objects.filter(pk=match_id, status=Match.Status.FINISHED).first()
    if match is None:
        return None
    game_analysis = registry.analysis(match.game)
    if game_analysis is None:
        return None
    log = list(
        MatchAction.objects.filter(match=match)
        .order_by("step")
        .values_list("step", "version", "seat", "action")
    )
    data = game_analysis.analyse(match.rules, match.options, match.num_players, log, seed=match.seed)
    analysis, _created = Analysis.objects.update_or_create(match=match, defaults={"data": data})
    return analysis
