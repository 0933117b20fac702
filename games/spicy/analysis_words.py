"""Spicy's post-game analysis in words, in the reader's language (the site's side of the game: Django's gettext).

The numbers are ``analysis.py``'s; what each function gives is in ``botapi.analysis.words``.
"""

from __future__ import annotations

from django.utils.translation import gettext as _
from django.utils.translation import gettext_lazy
from tapete_sdk.plugin import percent

SPICES = {"chili": gettext_lazy("chili"), "wasabi": gettext_lazy("wasabi"), "pepper": gettext_lazy("pepper")}


def note(move: dict, names: dict[int, str]) -> str:
    name = names[move["seat"]]
    if move["kind"] in {"play", "copy"}:
        values = {
            "name": name,
            "number": move["declared"]["number"],
            "spice": SPICES[move["declared"]["spice"]],
        }
        if move["bluff"]:
            return _("%(name)s declared %(number)s %(spice)s: a bluff.") % values
        return _("%(name)s declared %(number)s %(spice)s: honest.") % values
    values = {"name": name, "owner": names[move["owner"]], "p": percent(move["p_success_own"])}
    if move["won"]:
        return (
            _("%(name)s challenged %(owner)s with %(p)s to win from the cards they had not seen, and won.")
            % values
        )
    return (
        _("%(name)s challenged %(owner)s with %(p)s to win from the cards they had not seen, and lost.")
        % values
    )


def summary(data: dict, names: dict[int, str]) -> list[str]:
    lines = []
    for player in data["players"]:
        values = {"name": names[player["seat"]]}
        if player["declarations"]:
            lines.append(
                _(
                    "%(name)s bluffed on %(bluffs)s of %(count)s cards; challenges caught %(caught)s of the bluffs."
                )
                % {
                    **values,
                    "bluffs": player["bluffs"],
                    "count": player["declarations"],
                    "caught": player["caught"],
                }
            )
        if player["challenges"]:
            lines.append(
                _("%(name)s's challenges: %(won)s won out of %(count)s.")
                % {**values, "won": player["challenges_won"], "count": player["challenges"]}
            )
    return lines
