"""Chinese Checkers' post-game analysis in words, in the reader's language (the site's side of the game: Django's
gettext).

The numbers are ``analysis.py``'s; what each function gives is in ``botapi.analysis.words``.
"""

from __future__ import annotations

from django.utils.translation import gettext as _


def note(move: dict, names: dict[int, str]) -> str:
    values = {"name": names[move["seat"]], "steps": move["progress"], "lost": move["given_up"]}
    if move["same_as_preferred"]:
        return _("%(name)s gained %(steps)s steps: the hard computer player's own choice.") % values
    if move["given_up"]:
        return (
            _(
                "%(name)s gained %(steps)s steps; the hard computer player's choice would have gained %(lost)s more."
            )
            % values
        )
    return _("%(name)s gained %(steps)s steps, as much as the hard computer player's choice.") % values


def summary(data: dict, names: dict[int, str]) -> list[str]:
    lines = []
    for player in data["players"]:
        if player["moves"]:
            lines.append(
                _(
                    "%(name)s played the hard computer player's move %(agreed)s times in %(count)s and gave up "
                    "%(lost)s steps of progress in all."
                )
                % {
                    "name": names[player["seat"]],
                    "agreed": player["agreed"],
                    "count": player["moves"],
                    "lost": player["given_up"],
                }
            )
        if player["worst"]:
            lines.append(
                _("%(name)s's costliest moves: steps %(steps)s.")
                % {"name": names[player["seat"]], "steps": ", ".join(str(step) for step in player["worst"])}
            )
    return lines
