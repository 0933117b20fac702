"""The post-game analysis on the replay page: ``{% match_analysis match %}`` renders it, and
``match|has_analysis`` says whether there is one to show (a finished match of a game that has one)."""

from django import template

from botapi.analysis.presentation import analysis_context, analysis_shown

register = template.Library()


@register.filter
def has_analysis(match) -> bool:
    return analysis_shown(match=match)


@register.inclusion_tag("botapi/_analysis.html")
def match_analysis(match):
    shown = analysis_shown(match=match)
    return {"shown": shown, "analysis": analysis_context(match=match) if shown else None}
