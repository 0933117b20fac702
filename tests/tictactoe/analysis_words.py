"""The test-only game's post-game analysis in words (``botapi.analysis.words``), in the reader's language: its
translations are in this folder's ``locale/``. Squares are numbered 1 to 9, as on the board."""

from __future__ import annotations

from django.utils.translation import gettext as _
from django.utils.translation import ngettext


def note(move: dict, names: dict[int, str]) -> str:
    values = {"name": names[move["seat"]], "square": move["cell"] + 1}
    if move["verdict"] == "won":
        return _("%(name)s marked square %(square)s and completed a line.") % values
    if move["verdict"] == "missed_win":
        return _("%(name)s marked square %(square)s but could have won on square %(win)s.") % {
            **values,
            "win": move["wins"][0] + 1,
        }
    if move["verdict"] == "blocked":
        return _("%(name)s marked square %(square)s and blocked a line.") % values
    if move["verdict"] == "missed_block":
        return _("%(name)s marked square %(square)s and left square %(threat)s open to the opponent.") % {
            **values,
            "threat": move["threats"][0] + 1,
        }
    return _("%(name)s marked square %(square)s.") % values


def summary(data: dict, names: dict[int, str]) -> list[str]:
    lines = []
    for player in data["players"]:
        name = names[player["seat"]]
        wins, blocks = player["missed_wins"], player["missed_blocks"]
        if wins:
            lines.append(
                ngettext(
                    "%(name)s missed %(count)s winning square.",
                    "%(name)s missed %(count)s winning squares.",
                    wins,
                )
                % {"name": name, "count": wins}
            )
        if blocks:
            lines.append(
                ngettext("%(name)s missed %(count)s block.", "%(name)s missed %(count)s blocks.", blocks)
                % {"name": name, "count": blocks}
            )
        if not wins and not blocks:
            lines.append(_("%(name)s missed no win and no block.") % {"name": name})
    return lines


def highlights(data: dict, names: dict[int, str]) -> list[dict]:
    """The winning squares a player left."""
    return [
        {
            "version": move["version"],
            "text": _("%(name)s could have won here.") % {"name": names[move["seat"]]},
        }
        for move in data["moves"]
        if move["verdict"] == "missed_win"
    ]
