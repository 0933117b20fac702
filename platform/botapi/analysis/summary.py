"""The analysis in words, in the reader's language: a summary of the match and a note beside each move.

The stored analysis holds numbers only (``botapi.analysis.<game>``); these sentences are built from it when a page
or the API shows it, so they follow the request's language.
"""

from __future__ import annotations

from django.utils.formats import number_format
from django.utils.translation import gettext as _
from django.utils.translation import gettext_lazy, ngettext

SPICES = {"chili": gettext_lazy("chili"), "wasabi": gettext_lazy("wasabi"), "pepper": gettext_lazy("pepper")}


def percent(value: float) -> str:
    return f"{round(100 * value)}\u00a0%"  # a no-break space: "70 %" never splits over two lines


def summary(data: dict, names: dict[int, str]) -> list[str]:
    return {"perudo": _perudo_summary, "spicy": _spicy_summary, "chinesecheckers": _cc_summary}[data["game"]](
        data, names
    )


def move_notes(data: dict, names: dict[int, str]) -> list[dict]:
    """``[{"step", "version", "seat", "text"}]``, one per analysed move, in order."""
    note = {"perudo": _perudo_note, "spicy": _spicy_note, "chinesecheckers": _cc_note}[data["game"]]
    return [
        {"step": move["step"], "version": move["version"], "seat": move["seat"], "text": note(move, names)}
        for move in data["moves"]
    ]


# --- Perudo -----------------------------------------------------------------------------------------------------

PERUDO_NOTES = {
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
    if face == 1:
        return ngettext("%(count)s Paco", "%(count)s Pacos", quantity) % {"count": quantity}
    return _("%(count)s × %(face)s") % {"count": quantity, "face": face}


def _perudo_note(move: dict, names: dict[int, str]) -> str:
    bid = move["action"] if move["kind"] == "bid" else move["bid"]
    values = {
        "name": names[move["seat"]],
        "bid": _bid_text(bid["quantity"], bid["face"]),
        "p": percent(move["p_true_own"] if move["kind"] == "bid" else move["p_right_own"]),
        "count": move["count"],
    }
    outcome = move["true"] if move["kind"] == "bid" else move["right"]
    return PERUDO_NOTES[(move["kind"], outcome)] % values


def _perudo_summary(data: dict, names: dict[int, str]) -> list[str]:
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
                _("%(name)s's Dudo and Calza calls: %(right)s right out of %(count)s.")
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


def perudo_saving_text(entry: dict, names: dict[int, str]) -> str:
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


# --- Spicy ------------------------------------------------------------------------------------------------------


def _spicy_note(move: dict, names: dict[int, str]) -> str:
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


def _spicy_summary(data: dict, names: dict[int, str]) -> list[str]:
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


# --- Chinese Checkers -------------------------------------------------------------------------------------------


def _cc_note(move: dict, names: dict[int, str]) -> str:
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


def _cc_summary(data: dict, names: dict[int, str]) -> list[str]:
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
