"""A game's post-game analysis in words, in the reader's language: found in the game's own folder, never by name.

The stored analysis holds numbers only (the game's module ``analysis``: ``tapete_sdk.plugin.PostGameAnalysis``);
its sentences are built from them when a page or the API shows it, so they follow the request's language. A game
writes them in its module ``analysis_words`` (a game's app config may name another: ``turnengine.game_app``), the Django
side of its analysis, which holds:

* ``summary(data, names) -> list[str]``: the match in a few sentences;
* ``note(move, names) -> str``: the sentence beside one of ``data["moves"]``;
* optionally ``highlights(data, names) -> list[dict]``: moments worth a look, each ``{"version": ..., "text": ...}``,
  shown after the summary with a link to that step of the replay (Perudo: the rounds where another choice would
  have saved a die).

``data`` is the stored analysis and ``names`` maps each seat to its player's name. A game has an analysis when it
has both modules; ``botapi.checks`` reports one without the other.
"""

from __future__ import annotations

from functools import cache
from types import ModuleType

from tapete_sdk import registry

from turnengine import game_app


@cache
def words_of(game: str) -> ModuleType | None:
    """The module with game ``game``'s analysis in words, None if it has none."""
    config = game_app.config_of(game)
    return registry.optional_module(config.name, config.analysis_words)


def has_analysis(game: str) -> bool:
    """Whether game ``game`` has a post-game analysis: its numbers and its words."""
    return registry.analysis(game) is not None and words_of(game) is not None


def in_words(game: str, data: dict, names: dict[int, str]) -> dict:
    """The analysis ``data`` of a match of ``game`` in the current language: its ``summary`` lines, a note per
    analysed move (``notes``: step, version, seat, text) and its ``highlights`` (version, text)."""
    words = words_of(game)
    highlights = getattr(words, "highlights", None)
    return {
        "summary": words.summary(data, names),
        "notes": [
            {
                "step": move["step"],
                "version": move["version"],
                "seat": move["seat"],
                "text": words.note(move, names),
            }
            for move in data["moves"]
        ],
        "highlights": highlights(data, names) if highlights else [],
    }

