"""Perudo table options (docs/rules/perudo.md §8): the schema the lobby builds its form from, and validation.

The option names are the camelCase names of §8; ``rules.py`` documents each one in its option table.
"""

from __future__ import annotations

from typing import Any

from tapete_sdk.plugin import InvalidOptions, Option, Preset, gettext_noop, normalize_with_schema

MIN_PLAYERS = 2
MAX_PLAYERS = 6
DICE_LIMIT = 10  # the highest maxDice / startingDice a table may choose

OPTIONS: tuple[Option, ...] = (
    Option(
        name="firstPlayer",
        kind="choice",
        default="random",
        label=gettext_noop("First player"),
        help=gettext_noop(
            "How the first player of the game is chosen: at random (Board Game Arena), by each player rolling one "
            "die (Italian rules) or two dice (French rules); the highest roll starts and ties roll again."
        ),
        choices=(
            ("random", gettext_noop("At random")),
            ("rollOne", gettext_noop("Everyone rolls one die")),
            ("rollTwoSum", gettext_noop("Everyone rolls two dice")),
        ),
    ),
    Option(
        name="startingDice",
        kind="int",
        default=5,
        label=gettext_noop("Dice per player"),
        help=gettext_noop("How many dice each player starts with."),
        minimum=1,
        maximum=DICE_LIMIT,
    ),
    Option(
        name="maxDice",
        kind="int",
        default=5,
        label=gettext_noop("Most dice a Calza gives back"),
        help=gettext_noop(
            "A successful Calza gives back a lost die: never more than the dice a player started with, nor more "
            "than this number (set it below the dice per player to cap the regains lower)."
        ),
        minimum=1,
        maximum=DICE_LIMIT,
    ),
    Option(
        name="allowPacoOpening",
        kind="bool",
        default=False,
        label=gettext_noop("Pacos may open a normal round"),
        help=gettext_noop(
            "Allow the first bid of a normal round to be on Pacos (ones). Forbidden in the official rules."
        ),
    ),
    Option(
        name="allowPacoOpeningInPalifico",
        kind="bool",
        default=True,
        label=gettext_noop("Pacos may open a Palifico round"),
        help=gettext_noop("Allow the Palifico player to open on Pacos (ones), as Board Game Arena does."),
    ),
    Option(
        name="raiseMode",
        kind="choice",
        default="strict",
        label=gettext_noop("Raising a bid"),
        help=gettext_noop(
            "Strict: the same face with more dice, or a higher face with at least as many dice. "
            "Any face on more dice: a bid with more dice may also name a lower face."
        ),
        choices=(
            ("strict", gettext_noop("Strict")),
            ("anyFaceOnHigherQty", gettext_noop("Any face on more dice")),
        ),
    ),
    Option(
        name="capBidAtDiceInPlay",
        kind="bool",
        default=True,
        label=gettext_noop("No bid above the dice in play"),
        help=gettext_noop(
            "A bid may not name more dice than there are in play. When no raise fits, the only choices are Dudo "
            "(and Calza). If lost dice are not visible, the limit is the dice the table started with, so that it "
            "does not give away how many are left."
        ),
    ),
    Option(
        name="palificoOncePerPlayer",
        kind="bool",
        default=True,
        label=gettext_noop("Palifico once per player"),
        help=gettext_noop(
            "A player gets a Palifico round only the first time they drop to one die (Board Game Arena). "
            "When off, dropping to one die again after a Calza regain gives another Palifico round."
        ),
    ),
    Option(
        name="palificoOneDieMayChangeFace",
        kind="bool",
        default=False,
        label=gettext_noop("One-die players may change the face in Palifico"),
        help=gettext_noop(
            "Italian rules: in a Palifico round, the other players who also have a single die may bid another "
            "face (more dice with any face, or as many dice with a higher face). The Palifico player and everyone "
            "else keep the face."
        ),
    ),
    Option(
        name="palificoPacoBids",
        kind="choice",
        default="allowed",
        label=gettext_noop("Paco bids in Palifico"),
        help=gettext_noop("Whether bids on Pacos (ones) are possible at all during a Palifico round."),
        choices=(
            ("allowed", gettext_noop("Allowed")),
            ("forbidden", gettext_noop("Forbidden")),
        ),
    ),
    Option(
        name="palificoMode",
        kind="choice",
        default="automatic",
        label=gettext_noop("Palifico announcement"),
        help=gettext_noop(
            "Automatic: the round after a player drops to one die is a Palifico round. Declared: that player may "
            "declare Palifico before opening the round, or simply bid to play a normal round."
        ),
        choices=(
            ("automatic", gettext_noop("Automatic")),
            ("declared", gettext_noop("Declared by the player")),
        ),
    ),
    Option(
        name="calza",
        kind="bool",
        default=False,
        label=gettext_noop("Calza"),
        help=gettext_noop(
            "Players may call Calza: the current bid is exactly right. If it is, the caller regains a die; "
            "if not, the caller loses one."
        ),
    ),
    Option(
        name="calzaCaller",
        kind="choice",
        requires="calza",
        default="anyoneButLastBidder",
        label=gettext_noop("Who may call Calza"),
        help=gettext_noop(
            "Only the player whose turn it is (French rules); anyone but the last bidder (Board Game Arena); or "
            "anyone but the last bidder and the player whose turn it is (Italian rules). With Salsa, anyone but "
            "the last bidder."
        ),
        choices=(
            ("currentOnly", gettext_noop("The player whose turn it is")),
            ("anyoneButLastBidder", gettext_noop("Anyone but the last bidder")),
            ("anyoneButLastBidderAndCurrent", gettext_noop("Anyone but the last bidder and the next player")),
        ),
    ),
    Option(
        name="calzaRequiresMissingDie",
        kind="bool",
        requires="calza",
        default=False,
        label=gettext_noop("Calza needs a missing die"),
        help=gettext_noop("Only players below the maximum number of dice may call Calza."),
    ),
    Option(
        name="calzaSuccessEffect",
        kind="choice",
        requires="calza",
        default="gainOne",
        label=gettext_noop("Effect of a correct Calza"),
        help=gettext_noop(
            "The caller regains one die (the official rule), or every other player loses one die (a house rule)."
        ),
        choices=(
            ("gainOne", gettext_noop("The caller regains a die")),
            ("othersLoseOne", gettext_noop("Every other player loses a die")),
        ),
        house_rule=True,
    ),
    Option(
        name="afterCalzaStarter",
        kind="choice",
        requires="calza",
        default="caller",
        label=gettext_noop("Who opens after a Calza"),
        help=gettext_noop(
            "The Calza caller opens the next round, right or wrong (their left neighbour if they are out)."
        ),
        choices=(("caller", gettext_noop("The Calza caller")),),
    ),
    Option(
        name="lostDiceVisible",
        kind="bool",
        default=False,
        label=gettext_noop("Lost dice are visible"),
        help=gettext_noop(
            "Show how many dice each player has left and the total in play. When off, players keep count "
            "themselves from the log, as at a real table, and bids are limited by the dice the table started "
            "with instead of the dice in play."
        ),
    ),
    Option(
        name="salsa",
        kind="bool",
        default=False,
        label=gettext_noop("Perudo Salsa"),
        help=gettext_noop(
            "After any bid, every other player may raise, call Dudo or call Calza at any moment, without "
            "waiting for their turn. Play resumes to the left of the last bidder."
        ),
    ),
)

# The three rule texts of §8 as one-click presets (Calza stays an opt-in variant in all three; each
# preset sets who may call it, so switching Calza on under "Custom" keeps that text's rule).
PRESETS: tuple[Preset, ...] = (
    Preset(
        key="asmodee",
        label=gettext_noop("Asmodée (French)"),
        help=gettext_noop(
            "The French rulebook: two dice each to choose who starts, Palifico each time a player drops to one "
            "die, no Paco bids in Palifico, Calza only instead of one's own bid."
        ),
        options={
            "firstPlayer": "rollTwoSum",
            "palificoOncePerPlayer": False,
            "palificoPacoBids": "forbidden",
            "calzaCaller": "currentOnly",
        },
    ),
    Preset(
        key="italian",
        label=gettext_noop("Italian"),
        help=gettext_noop(
            "The Italian rulebook: one die each to choose who starts, one-die players may change the face in "
            "Palifico, Calza by anyone but the last bidder and the next player."
        ),
        options={
            "firstPlayer": "rollOne",
            "palificoOneDieMayChangeFace": True,
            "calzaCaller": "anyoneButLastBidderAndCurrent",
        },
    ),
    Preset(
        key="bga",
        label=gettext_noop("Board Game Arena"),
        help=gettext_noop(
            "As on Board Game Arena: a random first player, Palifico once per player, Pacos may open a Palifico "
            "round, Calza by anyone but the last bidder."
        ),
        options={},
    ),
)
PLAY_NOW_PLAYERS = 4  # "Play now": you and three computer players
# What the table creator reads when normalize_options refuses (by code).
OPTION_ERRORS = {
    "salsa_calza_caller": gettext_noop(
        "With Perudo Salsa, Calza is open to anyone but the last bidder: choose that."
    ),
}


def normalize_options(options: dict[str, Any] | None, num_players: int) -> dict[str, Any]:
    """Fill the defaults, validate each option, then check the options that depend on each other."""
    normalized = normalize_with_schema(OPTIONS, options, num_players, MIN_PLAYERS, MAX_PLAYERS)
    if normalized["salsa"] and normalized["calza"] and normalized["calzaCaller"] != "anyoneButLastBidder":
        # Salsa lets every player but the last bidder speak at any moment, Calza included.
        raise InvalidOptions(
            "salsa_calza_caller",
            "with Salsa, Calza is open to anyone but the last bidder (anyoneButLastBidder)",
        )
    return normalized


def calza_ceiling(options: dict[str, Any]) -> int:
    """The most dice a correct Calza can bring a player back to: a Calza regains a *lost* die (§5,
    "one of the dice he had lost"), so never above the starting dice, nor above ``maxDice``."""
    return min(options["startingDice"], options["maxDice"])
