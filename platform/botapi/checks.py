"""A system check (``manage.py check``, and every command that starts the site): a game's post-game analysis has
both halves, its numbers (``analysis``) and its words (``analysis_words``). With only one, the site shows none, so
a game author is told at start rather than left wondering."""

from __future__ import annotations

from django.core import checks
from tapete_sdk import registry

from turnengine.game_app import installed_games


def analysis_has_both_halves(app_configs=None, **kwargs) -> list[checks.CheckMessage]:
    """Registered by the app config (``BotApiConfig.ready``)."""
    problems = []
    names = None if app_configs is None else {config.name for config in app_configs}
    for config in installed_games():
        if names is not None and config.name not in names:
            continue
        numbers = registry.analysis(config.key) is not None
        words = registry.optional_module(config.name, config.analysis_words) is not None
        if numbers != words:
            present, missing = ("analysis", "analysis_words") if numbers else ("analysis_words", "analysis")
            problems.append(
                checks.Error(
                    f"{config.name} has a module {present} but no module {missing}: the site shows no analysis.",
                    hint="A post-game analysis needs both (see botapi.analysis.words).",
                    obj=config.name,
                    id="botapi.E001",
                )
            )
    return problems
