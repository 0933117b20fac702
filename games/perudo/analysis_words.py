"""Perudo's post-game analysis in words, in the reader's language (the site's side of the game: Django's gettext).

The numbers are ``analysis.py``'s; what each function gives is in ``botapi.analysis.words``.
"""

from __future__ import annotations

from django.utils.formats import number_format
from django.utils.translation import gettext as _
from django.utils.translation import gettext_lazy, ngettext
from tapete_sdk.plugin import percent

from games.perudo.bidding import PACO

NOTES = {
    ("bid", True): gettext_lazy(
        "%(name)s bid %(bid)s, %(p)s likely true from their own dice: true (%(count)s on the table)."
    ),
    ("bid", False): gettext_lazy(
        "%(name)s bid %(bid)s, %(p)s likely true from their own dice: false (%(count)s on the table)."
    ),
    ("dudo", True): gettext_lazy(
        "%(name)s called Dudo on %(bid)s, %(p)s likely right from their own dice: right (%(count)s on the table)."
    ),
    ("dudo", False): gettext_lazy(
        "%(name)s called Dudo on %(bid)s, %(p)s likely right from their own dice: wrong (%(count)s on the table)."
    ),
    ("calza", True): gettext_lazy(
        "%(name)s called Calza on %(bid)s, %(p)s likely exact from their own dice: exact (%(count)s on the table)."
    ),
    ("calza", False): gettext_lazy(
        "%(name)s called Calza on %(bid)s, %(p)s likely exact from their own dice: not exact (%(count)s on the table)."
    ),
}


def _bid_text(quantity: int, face: int) -> str:
    if face == PACO:
        return ngettext("%(count)s Paco", "%(count)s Pacos", quantity) % {"count": quantity}
    return _("%(count)s × %(face)s") % {"count": quantity, "face": face}


def note(move: dict, names: dict[int, str]) -> str:
    bid = move["action"] if move["kind"] == "bid" else move["bid"]
    values = {
        "name": names[move["seat"]],
        "bid": _bid_text(bid["quantity"], bid["face"]),
        "p": percent(move["p_true_own"] if move["kind"] == "bid" else move["p_right_own"]),
        "count": move["count"],
    }
    outcome = move["true"] if move["kind"] == "bid" else move["right"]
    return NOTES[(move["kind"], outcome)] % values


def summary(data: dict, names: dict[int, str]) -> list[str]:
    lines = []
    players = [player for player in data["players"] if player["bids"]]
    if players:
        boldest = min(players, key=lambda player: player["mean_p_true_own"])
        lines.append(
            _("%(name)s took the boldest bids: on average %(p)s likely to be true from their own dice.")
            % {"name": names[boldest["seat"]], "p": percent(boldest["mean_p_true_own"])}
        )
    for player in data["players"]:
        if player["calls"]:
            lines.append(
                ngettext(
                    "%(name)s's Dudo and Calza calls: %(right)s right out of %(count)s.",
                    "%(name)s's Dudo and Calza calls: %(right)s right out of %(count)s.",
                    player["calls_right"],  # French and Italian agree "right" with this number
                )
                % {"name": names[player["seat"]], "right": player["calls_right"], "count": player["calls"]}
            )
    if data["players"]:
        luckiest = max(data["players"], key=lambda player: player["luck"])
        lines.append(
            _("%(name)s had the luckiest dice: Pacos rolled, %(pacos)s; expected, %(expected)s.")
            % {
                "name": names[luckiest["seat"]],
                "pacos": luckiest["pacos"],
                "expected": number_format(luckiest["pacos_expected"], 1),  # 1.7 / 1,7 by language
            }
        )
    if data["saving"]:
        lines.append(
            ngettext(
                "In %(count)s round, another choice would have saved a die.",
                "In %(count)s rounds, another choice would have saved a die.",
                len(data["saving"]),
            )
            % {"count": len(data["saving"])}
        )
    return lines


def highlights(data: dict, names: dict[int, str]) -> list[dict]:
    """The rounds where the player who lost a die had another choice that would have kept it, at the decision."""
    return [{"version": entry["version"], "text": _saving_text(entry, names)} for entry in data["saving"]]


def _saving_text(entry: dict, names: dict[int, str]) -> str:
    alternative = entry["alternative"]
    if alternative["type"] == "dudo":
        choice = _("calling Dudo")
    elif alternative["type"] == "calza":
        choice = _("calling Calza")
    else:
        choice = _("bidding %(bid)s") % {"bid": _bid_text(alternative["quantity"], alternative["face"])}
    return _("Round %(round)s: %(name)s would have kept their die by %(choice)s.") % {
        "round": entry["round"],
        "name": names[entry["seat"]],
        "choice": choice,
    }
