"""``{% match_analysis match %}``: the post-game analysis on the replay page (nothing while the match runs)."""

from django import template

from botapi.analysis.presentation import analysis_context
from turnengine.models import Match

register = template.Library()


@register.inclusion_tag("botapi/_analysis.html")
def match_analysis(match):
    finished = match.status == Match.Status.FINISHED
    return {"finished": finished, "analysis": analysis_context(match=match) if finished else None}
