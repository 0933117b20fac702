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

from collections import Counter
from collections.abc import Collection
from functools import cache
from types import ModuleType

from django.utils.translation import gettext
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


def in_words(game: str, data: dict, names: dict[int, str], computer_steps: Collection[int] = ()) -> dict:
    """The analysis ``data`` of a match of ``game`` in the current language: its ``summary`` lines, a note per
    analysed move (``notes``: step, version, seat, text, ``computer``, ``part`` and ``parts``) and its
    ``highlights`` (version, text).

    A move of ``computer_steps`` was the computer's, played for a seat whose player was away: its note says so. A
    replay step (a version) may hold several moves, a player's and those the computer then played for absent seats:
    their notes are numbered within the step (``part`` of ``parts``), never two alike."""
    words = words_of(game)
    highlights = getattr(words, "highlights", None)
    per_version = Counter(move["version"] for move in data["moves"])
    seen: Counter = Counter()
    notes = []
    for move in data["moves"]:
        seen[move["version"]] += 1
        text = words.note(move, names)
        computer = move["step"] in computer_steps
        if computer:
            name = names.get(move["seat"], "?")
            text = gettext("Played by the computer for %(name)s, who was away: %(note)s") % {
                "name": name,
                "note": text,
            }
        notes.append(
            {
                "step": move["step"],
                "version": move["version"],
                "seat": move["seat"],
                "text": text,
                "computer": computer,
                "part": seen[move["version"]],
                "parts": per_version[move["version"]],
            }
        )
    return {
        "summary": words.summary(data, names),
        "notes": notes,
        "highlights": highlights(data, names) if highlights else [],
    }

