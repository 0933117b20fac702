"""Spicy table options (docs/rules/spicy.md §9): the schema the lobby builds its form from, and validation.

``rules.py`` documents every option in its option table.
"""

from __future__ import annotations

from typing import Any

from tapete_sdk.plugin import InvalidOptions, Option, Preset, gettext_noop, normalize_with_schema

from games.spicy.cards import (
    CHANGE_YOUR_LUCK,
    COPY_CAT,
    DECK_SIZE,
    SPICE_IT_UP_CARDS,
    SPICE_RAIDER,
    START_IT_UP,
    TURN_IT_UP,
    WE_LOVE_CHILI,
)

MIN_PLAYERS = 2
MAX_PLAYERS = 6
RANDOM_SPICE_IT_UP: dict[str, int] = {"random1": 1, "random2": 2}

# §2: cards left below World's End by player count (a placeholder until the ruler is measured).
WORLDS_END_BELOW_BY_PLAYERS: dict[int, int] = {2: 40, 3: 30, 4: 20, 5: 10, 6: 5}

OPTIONS: tuple[Option, ...] = (
    Option(
        name="spiceItUp",
        kind="multichoice",
        default=[],
        label=gettext_noop("Spice It Up! cards"),
        help=gettext_noop(
            "Variant cards that change the rules for the whole game: none, one or two chosen cards, or one or two "
            "drawn at random when the game starts."
        ),
        choices=(
            (WE_LOVE_CHILI, gettext_noop("We Love Chili! (a restart 1-3 may switch to chili)")),
            (START_IT_UP, gettext_noop("Start It Up! (after an 8, 9 or 10, a 1-3 may follow)")),
            (
                SPICE_RAIDER,
                gettext_noop("Spice Raider (a declared 4 wins the stack when the next card lands)"),
            ),
            (
                CHANGE_YOUR_LUCK,
                gettext_noop("Change Your Luck (a declared 5 tucks up to 2 cards and redraws)"),
            ),
            (TURN_IT_UP, gettext_noop("Turn It Up! (6 and 9 count as each other)")),
            (COPY_CAT, gettext_noop("Copy Cat (copy the last declaration out of turn)")),
            ("random1", gettext_noop("One card at random")),
            ("random2", gettext_noop("Two cards at random")),
        ),
        max_selected=2,
    ),
    Option(
        name="wildFour",
        kind="bool",
        default=False,
        label=gettext_noop("A 4 may be played as any number"),
        help=gettext_noop(
            "House rule from a rules summary (no official card): a 4 card stands for any number, as a wild number "
            "does. Revealed in a number challenge, it passes whatever number was declared; its spice is checked "
            "as usual."
        ),
        house_rule=True,
    ),
    Option(
        name="chiliReverses",
        kind="bool",
        default=False,
        label=gettext_noop("A chili reverses the direction of play"),
        help=gettext_noop(
            "House rule from a rules summary (no official card): every card declared as chili reverses the "
            "direction of play at once."
        ),
        house_rule=True,
    ),
    Option(
        name="firstPlayer",
        kind="choice",
        default="random",
        label=gettext_noop("First player"),
        help=gettext_noop(
            "The rulebook lets the youngest player start; online the first player is drawn at random."
        ),
        choices=(("random", gettext_noop("At random")),),
    ),
    Option(
        name="handSize",
        kind="int",
        default=6,
        label=gettext_noop("Cards dealt"),
        help=gettext_noop("How many cards each player is dealt at the start."),
        minimum=1,
        maximum=12,
    ),
    Option(
        name="trophyRefill",
        kind="int",
        default=6,
        label=gettext_noop("Cards drawn after a trophy"),
        help=gettext_noop("How many cards a player draws after winning a trophy."),
        minimum=1,
        maximum=12,
    ),
    Option(
        name="penaltyDraw",
        kind="int",
        default=2,
        label=gettext_noop("Penalty cards"),
        help=gettext_noop("How many cards the loser of a challenge draws."),
        minimum=0,
        maximum=6,
    ),
    Option(
        name="worldsEnd",
        kind="bool",
        default=True,
        label=gettext_noop("World's End card"),
        help=gettext_noop(
            "The game ends when World's End reaches the top of the draw pile. Without it, the game ends when a "
            "card must be drawn from an empty draw pile."
        ),
    ),
    Option(
        name="worldsEndBelow",
        kind="int",
        requires="worldsEnd",
        default=None,
        label=gettext_noop("Cards below World's End"),
        help=gettext_noop(
            "How many cards lie below World's End in the draw pile. Empty: by player count (2: 40, 3: 30, 4: 20, "
            "5: 10, 6: 5)."
        ),
        minimum=0,
        maximum=DECK_SIZE - 1,
        nullable=True,
    ),
    Option(
        name="worldsEndJitter",
        kind="int",
        requires="worldsEnd",
        default=2,
        label=gettext_noop("World's End uncertainty"),
        help=gettext_noop(
            "World's End is slid in up to this many cards higher or lower than its mark, at random, so that "
            "nobody knows exactly where it is."
        ),
        minimum=0,
        maximum=10,
    ),
    Option(
        name="challengeGraceMs",
        kind="int",
        default=3000,
        label=gettext_noop("Challenge grace period"),
        help=gettext_noop(
            "After a card lands, the next player must wait this long before playing, so that everyone has a "
            "chance to challenge. Challenges stay possible until the next card is played."
        ),
        minimum=0,
        maximum=30000,
        unit="ms",
    ),
    Option(
        name="challengeLoserMustLead",
        kind="bool",
        default=True,
        label=gettext_noop("Challenge loser must lead"),
        help=gettext_noop("The loser of a challenge must start the new stack with a card and may not pass."),
    ),
    Option(
        name="lastCardDeclineRequired",
        kind="bool",
        default=True,
        label=gettext_noop("Wait for every player after a last card"),
        help=gettext_noop(
            "When a player plays their last card, every opponent must decline to challenge (or time out) before "
            "the trophy is given. Off: the next player's move after the grace period gives the trophy."
        ),
    ),
)

PRESETS: tuple[Preset, ...] = (
    Preset(
        key="base",
        label=gettext_noop("Base game"),
        help=gettext_noop("The rulebook's game, without variant cards."),
        options={},
    ),
    Preset(
        key="spiceItUp",
        label=gettext_noop("With Spice It Up! cards"),
        help=gettext_noop("One Spice It Up! card drawn at random changes the rules for the whole game."),
        options={"spiceItUp": ["random1"]},
    ),
)
PLAY_NOW_PLAYERS = 3  # "Play now": you and two computer players
# What the table creator reads when normalize_options refuses (by code).
OPTION_ERRORS = {
    "spice_it_up_random_alone": gettext_noop(
        "Cards drawn at random cannot be combined with chosen Spice It Up! cards."
    ),
    "worlds_end_too_deep": gettext_noop(
        "World's End needs at least one card above it: put fewer cards below it, or deal fewer cards."
    ),
}


def normalize_options(options: dict[str, Any] | None, num_players: int) -> dict[str, Any]:
    """Fill defaults, validate each option, then the cross-option checks."""
    normalized = normalize_with_schema(OPTIONS, options, num_players, MIN_PLAYERS, MAX_PLAYERS)
    chosen = normalized["spiceItUp"]
    if any(value in RANDOM_SPICE_IT_UP for value in chosen) and len(chosen) > 1:
        raise InvalidOptions(
            "spice_it_up_random_alone", "'random1' or 'random2' must be the only Spice It Up! choice"
        )
    if normalized["worldsEnd"]:
        draw_pile = draw_pile_size(normalized, num_players)
        below = worlds_end_base(normalized, num_players)
        if below > draw_pile - 1:
            raise InvalidOptions(
                "worlds_end_too_deep",
                f"World's End needs at least one card above it: at most {draw_pile - 1} cards below it "
                f"with {num_players} players and {normalized['handSize']} cards each",
            )
    return normalized


def draw_pile_size(options: dict[str, Any], num_players: int) -> int:
    """Cards left in the draw pile after the deal."""
    return DECK_SIZE - num_players * options["handSize"]


def worlds_end_base(options: dict[str, Any], num_players: int) -> int:
    """The nominal number of cards below World's End (before the random jitter)."""
    below = options["worldsEndBelow"]
    return WORLDS_END_BELOW_BY_PLAYERS[num_players] if below is None else below


def fixed_spice_it_up(options: dict[str, Any]) -> list[str] | None:
    """The chosen Spice It Up! cards in canonical order, or None when they are drawn at random."""
    chosen = options["spiceItUp"]
    if chosen and chosen[0] in RANDOM_SPICE_IT_UP:
        return None
    return [card for card in SPICE_IT_UP_CARDS if card in chosen]


def random_spice_it_up_count(options: dict[str, Any]) -> int:
    """How many Spice It Up! cards the shuffle draws at random (0 when they are chosen)."""
    chosen = options["spiceItUp"]
    return RANDOM_SPICE_IT_UP[chosen[0]] if chosen and chosen[0] in RANDOM_SPICE_IT_UP else 0
