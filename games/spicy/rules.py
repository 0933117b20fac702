"""Spicy (HeidelBÄR Games 2020): the bluffing card game, as a pure rules library.

The specification is the rules page, ``docs/rules/spicy.md``; the § numbers below are its sections.

Players put cards face down on a shared stack and declare a spice and a number, truthfully or not: the same spice,
strictly higher, restarting at 1-3 after a 10. Anyone but the card's owner may challenge the top card on its spice
or on its number; the winner of a challenge takes the whole stack as points and the loser draws two cards and
leads the next stack. Emptying your hand unchallenged (or surviving the challenge) earns a trophy. The game ends at
once when someone takes a second trophy (an outright win), when the third trophy is taken, or when World's End
reaches the top of the draw pile; then +1 per won card, +10 per trophy and -1 per card in hand.

Public API: ``RULES`` (a :class:`SpicyRules`) implements ``tapete_sdk.plugin.GameRules``. Helpers: ``cards.py``
(cards, declarations, challenge checks) and ``options.py`` (the option schema and its checks).

Cards
-----
Strings: ``"chili-7"``, ``"wasabi-10"``, ``"pepper-1"``, ``"wild-number"``, ``"wild-spice"``. The deck is 3 spices
x 1..10 x 3 copies + 5 wild numbers + 5 wild spices = 100 cards (``cards.DECK``). A wild number passes every
number challenge and fails every spice challenge; a wild spice the reverse.

Options
-------
=========================  ===========  =====================================================================
option                     default      meaning
=========================  ===========  =====================================================================
spiceItUp                  []           Spice It Up! cards for the whole game: 0, 1 or 2 of ``we_love_chili``,
                                        ``start_it_up``, ``spice_raider``, ``change_your_luck``, ``turn_it_up``,
                                        ``copy_cat``; or ``["random1"]`` / ``["random2"]`` (drawn by the shuffle)
wildFour                   False        house rule: a real 4 card stands for any number (see decisions)
chiliReverses              False        house rule: every card declared chili reverses the direction of play
firstPlayer                "random"     the first player is drawn by the shuffle
handSize                   6            cards dealt to each player (1..12)
trophyRefill               6            cards drawn after a trophy (1..12)
penaltyDraw                2            cards the challenge loser draws (0..6)
worldsEnd                  True         World's End is in the deck; off: the game ends when a card must be
                                        drawn from an empty pile (§6)
worldsEndBelow             None         cards below World's End; None: 2p 40, 3p 30, 4p 20, 5p 10, 6p 5
worldsEndJitter            2            World's End lands up to this many cards higher or lower, at random
challengeGraceMs           3000         grace before the next player may play after a card lands (ms)
challengeLoserMustLead     True         the challenge loser must lead a card (may not pass)
lastCardDeclineRequired    True         a last card waits for every opponent to decline or challenge
=========================  ===========  =====================================================================

Actions
-------
* chance: ``{"type": "shuffle", "deck": [100 cards], "first_player": k, "worlds_end_offset": j,
  "spice_it_up": [ids]}``. ``deck[0]`` is the top card. ``worlds_end_offset`` (in ``-jitter..+jitter``) is
  required exactly when ``worldsEnd`` is on; ``spice_it_up`` is required (1 or 2 distinct ids) exactly when
  ``spiceItUp`` is random, and otherwise may only repeat the chosen cards.
* ``{"type": "play", "card": c, "declare": {"spice": s, "number": n}}``, with ``"tuck": [0..2 cards]`` when Change
  Your Luck is in play and the declared number is 5 (the tucked cards go under the card; as many are drawn).
* ``{"type": "pass"}``: draw one card, the turn ends.
* ``{"type": "challenge", "trait": "spice" | "number"}``; on a Copy Cat copy the challenge names no trait:
  ``"trait"`` omitted or ``"both"`` (legal_actions lists ``"both"``).
* ``{"type": "decline"}``: do not challenge a last card (the last-card phase only).
* ``{"type": "copy", "card": c}`` (+ ``"tuck"`` on a 5): Copy Cat, out of turn, with exactly the top declaration.

Events (``visible_to`` None = public)
-------------------------------------
``shuffle`` (first player, Spice It Up! cards, hand sizes, draw pile size); ``deal`` (private: the seat's cards);
``play`` / ``copy`` (seat, declared spice and number, number of tucked cards, hand size); ``played_card``
(private to the player: the real card and tucked cards); ``reverse`` (chiliReverses); ``raid`` (Spice Raider: seat,
count of cards won); ``pass``; ``draw`` (seat, count, reason: pass / penalty / refill / tuck) and ``drew`` (private: the
cards); ``last_card`` (seat); ``decline`` (seat); ``challenge`` (challenger, owner, trait, revealed card,
declaration, whether the challenger won); ``stack_won`` (seat, count); ``trophy`` (seat, trophies, trophies left);
``worlds_end`` / ``deck_empty``; ``game_over`` (reason, scores, ranking).

IllegalAction codes: ``game_over``, ``chance_pending``, ``chance_only``, ``no_chance_pending``, ``not_a_player``,
``bad_seat``, ``bad_deck``, ``bad_first_player``, ``bad_worlds_end_offset``, ``worlds_end_off``,
``bad_spice_it_up``, ``spice_it_up_fixed``, ``not_your_turn``, ``last_card_pending``, ``card_not_in_hand``,
``illegal_declaration``, ``must_lead``, ``tuck_not_allowed``, ``tuck_too_many``, ``tuck_not_in_hand``,
``nothing_to_challenge``, ``own_card``, ``already_declined``, ``trait_required``,
``copy_challenge_names_no_trait``, ``nothing_to_decline``, ``copy_cat_not_in_play``, ``copy_window_closed``,
``own_play``, ``not_awaited`` (timeout_action).

State (plain JSON)
------------------
``options``, ``num_players``, ``phase`` (``setup`` / ``turn`` / ``last_card`` / ``over``), ``spice_it_up`` (the
cards in play), ``hands`` (per seat), ``draw`` (the draw pile, its top is the *last* element),
``worlds_end_below`` (cards under World's End; None without it), ``stack`` (entries ``{card, owner, spice, number,
tucked, copy}``, bottom first), ``top_open`` (the top card may be challenged), ``fresh`` (the top card landed with
the last action: grace period and Copy Cat window), ``won`` (the won piles as cards; views show counts only),
``trophies``, ``trophies_left``, ``current``, ``direction`` (1, or -1 after a chili reversal), ``must_lead``,
``last_card`` (``{seat, declined}`` during the last-card phase), ``last_challenge`` (the public reveal),
``last_action``, ``result`` (``{reason, ranking, scores}`` once over).

View
----
``seat``, ``num_players``, ``options``, ``spice_it_up``, ``phase``, ``current``, ``direction``, ``must_lead``,
``to_act``, ``awaited``, ``hand`` (own cards; None for spectators), ``hand_sizes``, ``stack`` (every declaration,
owner, copy flag and tucked count; the real card only on the viewer's own entries), ``stack_size`` (cards, tucked
ones included), ``top``, ``top_challengeable``, ``copy_open``, ``last_card``, ``won_counts``, ``trophies``,
``trophies_left``, ``scores`` (as if the game ended now), ``draw_pile`` (``size`` and ``worlds_end``:
``approx_cards_above`` and ``uncertainty``, or None without World's End), ``last_challenge``, ``last_action``,
``result``.

Decisions the rule texts leave open
-----------------------------------
* Player count 2-6, as on the English box (some printings say 2-5).
* Deal: ``deck[0]`` is the top; cards are dealt one at a time round the table from seat 0 (card k to seat
  k mod n), and the rest, in order, is the draw pile. World's End is slid in with ``clamp(below + offset, 0,
  pile - 1)`` cards under it, so at least one card lies above it.
* Draw-pile view: the exact number of spicy cards in the pile is public (it follows from the public counts
  anyway); World's End's depth is shown only as ``approx_cards_above = max(size - worldsEndBelow, 0)`` with the
  uncertainty ``worldsEndJitter``: the nominal mark, never the jittered position. ``determinize`` redraws the
  jitter among the positions the table cannot rule out.
* World's End: the game ends the moment the last card above it is drawn (that card is kept); the rest of a 2- or
  6-card draw is not drawn.
* Challenge window: the top card may be challenged by any seat but its owner until another card lands on it (or,
  for a last card, until every opponent declined); passes do not close it. After a challenge the stack is empty.
* A challenge is resolved in this order: reveal; the winner takes the whole stack; a last card that survived
  earns its trophy (the game may end here); the loser draws ``penaltyDraw``; the trophy winner draws
  ``trophyRefill``. The loser takes the next turn and, with ``challengeLoserMustLead``, must play (a loser with an
  empty hand may pass).
* Last card (``lastCardDeclineRequired`` on): the phase ``last_card`` waits for every opponent to challenge or
  decline; nobody may play, pass or copy meanwhile. When the last opponent declines, the trophy is given, the
  player draws ``trophyRefill``, the card stays on the stack but can no longer be challenged, and the next player
  (already the current player) plays on. Off: opponents may still challenge or decline, but the current player may
  also play or pass after the grace period; that move first gives the trophy as if everyone had declined, and if
  the trophy or its refill ends the game, the move itself is not made.
* Copy Cat: a copy is possible only while the top card is the one that landed with the last action (a pass, a
  challenge or a trophy closes the window), never on one's own card and never during a last-card phase. The copy
  declares the top declaration; play continues with the copier's next player in the direction of play. A
  challenge on a copy checks spice and number together (wilds and Turn It Up! as usual, so a wild never
  survives it); the winner takes the whole stack (§7).
* We Love Chili!: only where a *restart* 1-3 is legal (new stack, after a 10, after 8-10 with Start It Up!), as
  §7 lists; on a new stack any spice is legal anyway.
* Spice Raider: the paw belongs to the owner of a top card declared 4. Any next card (a play or a copy, by anyone,
  the raider included) sends every card under it, tucked cards too, to the raider's pile; the new card stays alone.
  A raid happens before the new card's own effects (a last card, a new paw).
* Change Your Luck: applies to copies of a 5 too (a copy declares a 5). Tucked cards are taken from the hand after
  the played card, drawn back at once, and are never revealed.
* wildFour (house): the French summary's "jouer un 4 comme n'importe quel autre chiffre" is read as a 4 *card*
  standing for any number, as a wild number does: a revealed 4 passes every number challenge, whatever number was
  declared (and the number half of a Copy Cat challenge); its spice is checked as usual. Declarations are
  unchanged: a 4 card is declared like any card, so holding one lets a player declare any legal number honestly.
* chiliReverses (house): every declared chili (plays and copies, lies included) reverses the direction of play at
  once, so on a chili stack with 3+ players two neighbours may trade turns. It does nothing with 2 players.
* Timeouts (§10): the current player passes, unless they must lead: then the honest card with the lowest
  number, else a wild, else the first legal play. A last-card decision times out as ``decline``; with
  ``lastCardDeclineRequired`` off only the current player is awaited and times out as ``pass``.
* ``action_delay_ms``: ``challengeGraceMs`` for a play by the current player while the top card landed with the
  last action, and for a pass too when Copy Cat is in play (a pass closes the copy window) or when the move closes a
  last card (option off). 0 otherwise; challenges, declines and copies are never delayed.
* Outcome: ranking by score (ties share a group); after a second trophy, its winner alone first, then the others
  by score. Reasons: ``second_trophy``, ``last_trophy``, ``worlds_end``, ``deck_empty``.
* Malformed (``MalformedAction``): not a dict, unknown ``type``, missing or mistyped fields, a string that is no
  card, a spice outside chili/wasabi/pepper, a number outside 1..10, an unknown trait. Everything else that the
  rules forbid is an ``IllegalAction`` with a specific code.
"""

from __future__ import annotations

import random
from typing import Any

from tapete_sdk.plugin import CHANCE, IllegalAction, MalformedAction, Option, Outcome

from games.spicy import options as spicy_options
from games.spicy.cards import (
    CARD_NUMBER,
    CARD_SPICE,
    CHANGE_YOUR_LUCK,
    CHILI,
    COPY_CAT,
    DECK,
    DECK_SIZE,
    KNOWN_CARDS,
    LUCK_NUMBER,
    MAX_TUCK,
    NUMBERS,
    RAID_NUMBER,
    SPICE_IT_UP_CARDS,
    SPICE_RAIDER,
    SPICES,
    START_IT_UP,
    TURN_IT_UP,
    WE_LOVE_CHILI,
    WILD_NUMBER,
    WILD_SPICE,
    Declaration,
    claim_holds,
    legal_declarations,
    tuck_choices,
)
from games.spicy.options import (
    draw_pile_size,
    fixed_spice_it_up,
    random_spice_it_up_count,
    worlds_end_base,
)

State = dict[str, Any]
Action = dict[str, Any]
Event = dict[str, Any]

SETUP = "setup"
TURN = "turn"
LAST_CARD = "last_card"
OVER = "over"
REVEAL_PAUSE_MS = 3000  # the clocks wait this long after a reveal (engine: reveal_pause_ms)

TROPHIES = 3
TROPHY_POINTS = 10
NAMED_TRAITS = ("spice", "number")
COPY_TRAIT = "both"


# --------------------------------------------------------------------------------------------------------------
# Action shapes (MalformedAction)
# --------------------------------------------------------------------------------------------------------------


def _is_int(value: Any) -> bool:
    return isinstance(value, int) and not isinstance(value, bool)


def _check_card(value: Any, field: str) -> None:
    if not isinstance(value, str) or value not in KNOWN_CARDS:
        raise MalformedAction("bad_card", f"{field} must be a card such as 'chili-7' or 'wild-number'")


def _check_tuck_shape(action: Action) -> None:
    if "tuck" not in action:
        return
    tuck = action["tuck"]
    if not isinstance(tuck, list):
        raise MalformedAction("bad_tuck", "tuck must be a list of cards")
    for card in tuck:
        _check_card(card, "each tucked card")


def _check_play_shape(action: Action) -> None:
    _check_card(action.get("card"), "card")
    declare = action.get("declare")
    if not isinstance(declare, dict):
        raise MalformedAction("bad_declare", "declare must be {'spice': ..., 'number': ...}")
    spice, number = declare.get("spice"), declare.get("number")
    if not isinstance(spice, str) or spice not in SPICES:
        raise MalformedAction("bad_spice", f"the declared spice must be one of {', '.join(SPICES)}")
    if not _is_int(number) or number not in NUMBERS:
        raise MalformedAction("bad_number", "the declared number must be an integer from 1 to 10")
    _check_tuck_shape(action)


def _check_copy_shape(action: Action) -> None:
    _check_card(action.get("card"), "card")
    _check_tuck_shape(action)


def _check_challenge_shape(action: Action) -> None:
    trait = action.get("trait")
    if trait is not None and trait not in (*NAMED_TRAITS, COPY_TRAIT):
        raise MalformedAction("bad_trait", "trait must be 'spice', 'number' or (on a copy) 'both'")


def _check_shuffle_shape(action: Action) -> None:
    deck = action.get("deck")
    if not isinstance(deck, list) or not all(isinstance(card, str) for card in deck):
        raise MalformedAction("bad_deck", "deck must be a list of cards")
    if not _is_int(action.get("first_player")):
        raise MalformedAction("bad_first_player", "first_player must be a seat number")
    if "worlds_end_offset" in action and not _is_int(action["worlds_end_offset"]):
        raise MalformedAction("bad_worlds_end_offset", "worlds_end_offset must be an integer")
    chosen = action.get("spice_it_up", [])
    if not isinstance(chosen, list) or not all(isinstance(card, str) for card in chosen):
        raise MalformedAction("bad_spice_it_up", "spice_it_up must be a list of Spice It Up! card ids")


def _check_nothing(action: Action) -> None:
    """pass and decline carry no fields."""


_SHAPES = {
    "shuffle": _check_shuffle_shape,
    "play": _check_play_shape,
    "pass": _check_nothing,
    "challenge": _check_challenge_shape,
    "decline": _check_nothing,
    "copy": _check_copy_shape,
}


def _check_shape(action: Any) -> str:
    if not isinstance(action, dict):
        raise MalformedAction("not_a_dict", "an action must be a JSON object")
    kind = action.get("type")
    if not isinstance(kind, str) or kind not in _SHAPES:
        raise MalformedAction("unknown_type", f"unknown action type {kind!r}")
    _SHAPES[kind](action)
    return kind


# --------------------------------------------------------------------------------------------------------------
# Small state helpers
# --------------------------------------------------------------------------------------------------------------


def _working_copy(state: State) -> State:
    """A copy that apply_action may change: every mutable part is copied, the rest (stack entries, options, the
    last_* records) is never mutated in place, only replaced."""
    table = dict(state)
    table["hands"] = [list(hand) for hand in state["hands"]]
    table["draw"] = list(state["draw"])
    table["stack"] = list(state["stack"])
    table["won"] = [list(pile) for pile in state["won"]]
    table["trophies"] = list(state["trophies"])
    if state["last_card"] is not None:
        table["last_card"] = {
            "seat": state["last_card"]["seat"],
            "declined": list(state["last_card"]["declined"]),
        }
    return table


def _active(state: State, card: str) -> bool:
    return card in state["spice_it_up"]


def _top(state: State) -> dict[str, Any] | None:
    return state["stack"][-1] if state["stack"] else None


def _top_declaration(state: State) -> Declaration | None:
    top = _top(state)
    return None if top is None else (top["spice"], top["number"])


def _legal_declarations(state: State) -> list[Declaration]:
    return legal_declarations(
        _top_declaration(state),
        start_it_up=_active(state, START_IT_UP),
        we_love_chili=_active(state, WE_LOVE_CHILI),
    )


def _next_seat(state: State, seat: int) -> int:
    return (seat + state["direction"]) % state["num_players"]


def _stack_cards(stack: list[dict[str, Any]]) -> list[str]:
    cards: list[str] = []
    for entry in stack:
        cards.append(entry["card"])
        cards.extend(entry["tucked"])
    return cards


def _decline_required(state: State) -> bool:
    return state["options"]["lastCardDeclineRequired"]


def _challengeable_top(state: State) -> dict[str, Any] | None:
    """The top card if it may be challenged now."""
    return _top(state) if state["top_open"] else None


def _copy_window_open(state: State) -> bool:
    """Copy Cat: the top card landed with the last action and no last card is pending."""
    return state["phase"] == TURN and state["fresh"] and state["top_open"] and _active(state, COPY_CAT)


def _undeclined_opponents(state: State) -> list[int]:
    last_card = state["last_card"]
    return [
        seat
        for seat in range(state["num_players"])
        if seat != last_card["seat"] and seat not in last_card["declined"]
    ]


def _scores(state: State) -> list[int]:
    """+1 per won card, +10 per trophy, -1 per card in hand (docs/rules/spicy.md §6)."""
    return [
        len(state["won"][seat]) + TROPHY_POINTS * state["trophies"][seat] - len(state["hands"][seat])
        for seat in range(state["num_players"])
    ]


def _rank_by_score(seats: list[int], scores: list[int]) -> list[list[int]]:
    groups: dict[int, list[int]] = {}
    for seat in seats:
        groups.setdefault(scores[seat], []).append(seat)
    return [groups[score] for score in sorted(groups, reverse=True)]


def _clamp(value: int, low: int, high: int) -> int:
    return max(low, min(value, high))


# --------------------------------------------------------------------------------------------------------------
# State transitions (each works on a working copy and appends events)
# --------------------------------------------------------------------------------------------------------------


def _end_game(table: State, reason: str, events: list[Event], winner: int | None = None) -> None:
    """Game end (§6): immediate; scored by cards won, trophies and cards in hand."""
    scores = _scores(table)
    seats = list(range(table["num_players"]))
    if winner is None:
        ranking = _rank_by_score(seats, scores)
    else:  # second trophy: an outright win, whatever the points
        ranking = [[winner], *_rank_by_score([seat for seat in seats if seat != winner], scores)]
    table["result"] = {"reason": reason, "ranking": ranking, "scores": scores}
    table.update(phase=OVER, current=None, top_open=False, fresh=False, must_lead=False, last_card=None)
    events.append(
        {
            "type": "game_over",
            "visible_to": None,
            "reason": reason,
            "scores": list(scores),
            "ranking": [list(group) for group in ranking],
        }
    )


def _draw(table: State, seat: int, count: int, reason: str, events: list[Event]) -> None:
    """Draw ``count`` cards. World's End reaching the top stops the draw and the game at once (§6);
    without World's End, needing a card from an empty pile ends the game (§6)."""
    if count <= 0:
        return
    pile, below = table["draw"], table["worlds_end_below"]
    drawn: list[str] = []
    end_reason = None
    for _ in range(count):
        if not pile:
            end_reason = "deck_empty"
            break
        drawn.append(pile.pop())
        if below is not None and len(pile) == below:
            end_reason = "worlds_end"
            break
    table["hands"][seat].extend(drawn)
    events.append({"type": "draw", "visible_to": None, "seat": seat, "count": len(drawn), "reason": reason})
    events.append({"type": "drew", "visible_to": [seat], "seat": seat, "cards": drawn, "reason": reason})
    if end_reason is not None:
        events.append({"type": end_reason, "visible_to": None})
        _end_game(table, end_reason, events)


def _award_trophy(table: State, seat: int, events: list[Event]) -> None:
    """Trophy (§5); a second trophy wins outright, the last trophy ends the game (§6)."""
    table["trophies"][seat] += 1
    table["trophies_left"] -= 1
    events.append(
        {
            "type": "trophy",
            "visible_to": None,
            "seat": seat,
            "trophies": table["trophies"][seat],
            "trophies_left": table["trophies_left"],
        }
    )
    if table["trophies"][seat] >= 2:
        _end_game(table, "second_trophy", events, winner=seat)
    elif table["trophies_left"] == 0:
        _end_game(table, "last_trophy", events)


def _close_last_card(table: State, events: list[Event]) -> None:
    """Nobody challenged the last card: trophy, then the refill draw; the card stays but is no longer open."""
    seat = table["last_card"]["seat"]
    table.update(phase=TURN, last_card=None, top_open=False, fresh=False)
    _award_trophy(table, seat, events)
    if table["phase"] == OVER:
        return
    _draw(table, seat, table["options"]["trophyRefill"], "refill", events)


def _raid(table: State, events: list[Event]) -> None:
    """Spice Raider: a card landing on a declared 4 sends the 4 and everything under it to the 4's owner."""
    top = _top(table)
    if top is None or top["number"] != RAID_NUMBER or not _active(table, SPICE_RAIDER):
        return
    cards = _stack_cards(table["stack"])
    table["won"][top["owner"]].extend(cards)
    table["stack"] = []
    events.append({"type": "raid", "visible_to": None, "seat": top["owner"], "count": len(cards)})


def _land_card(
    table: State,
    seat: int,
    card: str,
    declaration: Declaration,
    tuck: list[str],
    is_copy: bool,
    events: list[Event],
) -> None:
    """A card lands on the stack (a play or a copy) with all its consequences."""
    hand = table["hands"][seat]
    hand.remove(card)
    for tucked in tuck:
        hand.remove(tucked)
    _raid(table, events)
    spice, number = declaration
    table["stack"].append(
        {"card": card, "owner": seat, "spice": spice, "number": number, "tucked": tuck, "copy": is_copy}
    )
    kind = "copy" if is_copy else "play"
    table.update(top_open=True, fresh=True, must_lead=False)
    table["last_action"] = {"type": kind, "seat": seat, "spice": spice, "number": number, "tucked": len(tuck)}
    events.append(
        {
            "type": kind,
            "visible_to": None,
            "seat": seat,
            "spice": spice,
            "number": number,
            "tucked": len(tuck),
            "hand_size": len(hand),
        }
    )
    events.append(
        {"type": "played_card", "visible_to": [seat], "seat": seat, "card": card, "tucked_cards": list(tuck)}
    )
    if table["options"]["chiliReverses"] and spice == CHILI:  # house rule: a chili reverses the direction
        table["direction"] = -table["direction"]
        events.append({"type": "reverse", "visible_to": None, "seat": seat, "direction": table["direction"]})
    table["current"] = _next_seat(table, seat)  # Copy Cat: play continues from the copier
    _draw(table, seat, len(tuck), "tuck", events)  # Change Your Luck: draw as many as were tucked
    if table["phase"] == OVER or hand:
        return
    # Last card (§5): every opponent must decline or challenge before the next card.
    table["phase"] = LAST_CARD
    table["last_card"] = {"seat": seat, "declined": []}
    events.append({"type": "last_card", "visible_to": None, "seat": seat})


def _resolve_challenge(table: State, challenger: int, trait: str, events: list[Event]) -> None:
    """Challenge (§4): only the named trait is checked; the winner takes the whole stack; the loser draws and
    leads. On a last card (§5) a surviving owner also earns the trophy."""
    options = table["options"]
    top = table["stack"][-1]
    owner = top["owner"]
    holds = claim_holds(
        top["card"],
        trait,
        (top["spice"], top["number"]),
        turn_it_up=_active(table, TURN_IT_UP),
        wild_four=options["wildFour"],
    )
    winner, loser = (owner, challenger) if holds else (challenger, owner)
    cards = _stack_cards(table["stack"])
    table["won"][winner].extend(cards)
    trophy = table["phase"] == LAST_CARD and winner == owner
    table.update(stack=[], top_open=False, fresh=False, phase=TURN, last_card=None)
    table.update(current=loser, must_lead=options["challengeLoserMustLead"])
    table["last_challenge"] = {
        "challenger": challenger,
        "owner": owner,
        "trait": trait,
        "card": top["card"],
        "spice": top["spice"],
        "number": top["number"],
        "copy": top["copy"],
        "challenger_won": not holds,
        "winner": winner,
        "loser": loser,
        "stack_count": len(cards),
    }
    table["last_action"] = {"type": "challenge", "seat": challenger, "trait": trait}
    events.append(
        {
            "type": "challenge",
            "visible_to": None,
            "seat": challenger,
            "owner": owner,
            "trait": trait,
            "card": top["card"],
            "spice": top["spice"],
            "number": top["number"],
            "copy": top["copy"],
            "challenger_won": not holds,
        }
    )
    events.append({"type": "stack_won", "visible_to": None, "seat": winner, "count": len(cards)})
    if trophy:
        _award_trophy(table, owner, events)
        if table["phase"] == OVER:
            return
    _draw(table, loser, options["penaltyDraw"], "penalty", events)
    if trophy and table["phase"] != OVER:
        _draw(table, owner, options["trophyRefill"], "refill", events)


# --------------------------------------------------------------------------------------------------------------
# Action handlers: validate (IllegalAction), then change the working copy
# --------------------------------------------------------------------------------------------------------------


def _check_turn_move(table: State, seat: int) -> bool:
    """A play or pass by ``seat``; True when the move first closes a pending last card (decline not required)."""
    if seat != table["current"]:
        raise IllegalAction("not_your_turn", "it is not your turn")
    if table["phase"] == LAST_CARD:
        if _decline_required(table):
            raise IllegalAction(
                "last_card_pending", "every opponent must first decline or challenge the last card"
            )
        return True
    return False


def _checked_tuck(
    table: State, hand: list[str], card: str, declaration: Declaration, action: Action
) -> list[str]:
    """Change Your Luck: up to 2 more hand cards under a declared 5."""
    tuck = action.get("tuck", [])
    if not tuck:
        return []
    if not (_active(table, CHANGE_YOUR_LUCK) and declaration[1] == LUCK_NUMBER):
        raise IllegalAction(
            "tuck_not_allowed", "cards may be tucked only under a declared 5 with Change Your Luck"
        )
    if len(tuck) > MAX_TUCK:
        raise IllegalAction("tuck_too_many", f"at most {MAX_TUCK} cards may be tucked")
    rest = list(hand)
    rest.remove(card)
    for tucked in tuck:
        if tucked not in rest:
            raise IllegalAction("tuck_not_in_hand", f"{tucked} is not in your hand")
        rest.remove(tucked)
    return list(tuck)


def _play(table: State, seat: int, action: Action, events: list[Event]) -> None:
    closes_last_card = _check_turn_move(table, seat)
    card = action["card"]
    declaration = (action["declare"]["spice"], action["declare"]["number"])
    hand = table["hands"][seat]
    if card not in hand:
        raise IllegalAction("card_not_in_hand", f"{card} is not in your hand")
    if declaration not in _legal_declarations(table):
        raise IllegalAction("illegal_declaration", "the declaration must follow the top declaration")
    tuck = _checked_tuck(table, hand, card, declaration, action)
    if closes_last_card:
        _close_last_card(table, events)
        if table["phase"] == OVER:
            return
    _land_card(table, seat, card, declaration, tuck, False, events)


def _copy(table: State, seat: int, action: Action, events: list[Event]) -> None:
    if not _active(table, COPY_CAT):
        raise IllegalAction("copy_cat_not_in_play", "copies need the Copy Cat card")
    if table["phase"] == LAST_CARD:
        raise IllegalAction("last_card_pending", "a last card cannot be copied")
    if not _copy_window_open(table):
        raise IllegalAction("copy_window_closed", "only the card that was just played may be copied")
    top = table["stack"][-1]
    if top["owner"] == seat:
        raise IllegalAction("own_play", "you may not copy your own card")
    card = action["card"]
    hand = table["hands"][seat]
    if card not in hand:
        raise IllegalAction("card_not_in_hand", f"{card} is not in your hand")
    declaration = (top["spice"], top["number"])
    tuck = _checked_tuck(table, hand, card, declaration, action)
    _land_card(table, seat, card, declaration, tuck, True, events)


def _pass(table: State, seat: int, action: Action, events: list[Event]) -> None:
    closes_last_card = _check_turn_move(table, seat)
    if table["must_lead"] and table["hands"][seat]:
        raise IllegalAction("must_lead", "the loser of a challenge must start the new stack")
    if closes_last_card:
        _close_last_card(table, events)
        if table["phase"] == OVER:
            return
    table.update(fresh=False, must_lead=False)  # a pass closes the Copy Cat window, not the challenge window
    table["last_action"] = {"type": "pass", "seat": seat}
    events.append({"type": "pass", "visible_to": None, "seat": seat})
    _draw(table, seat, 1, "pass", events)
    if table["phase"] != OVER:
        table["current"] = _next_seat(table, seat)


def _challenge(table: State, seat: int, action: Action, events: list[Event]) -> None:
    top = _challengeable_top(table)
    if top is None:
        raise IllegalAction("nothing_to_challenge", "there is no card to challenge")
    if top["owner"] == seat:
        raise IllegalAction("own_card", "you may not challenge your own card")
    if table["phase"] == LAST_CARD and seat in table["last_card"]["declined"]:
        raise IllegalAction("already_declined", "you already declined to challenge this card")
    trait = action.get("trait")
    if top["copy"]:
        if trait not in (None, COPY_TRAIT):
            raise IllegalAction(
                "copy_challenge_names_no_trait", "a challenge on a copy checks spice and number"
            )
        trait = COPY_TRAIT
    elif trait not in NAMED_TRAITS:
        raise IllegalAction("trait_required", "name exactly one claim: 'spice' or 'number'")
    _resolve_challenge(table, seat, trait, events)


def _decline(table: State, seat: int, action: Action, events: list[Event]) -> None:
    if table["phase"] != LAST_CARD:
        raise IllegalAction("nothing_to_decline", "there is no last card to accept")
    last_card = table["last_card"]
    if seat == last_card["seat"]:
        raise IllegalAction("own_card", "you may not decline your own card")
    if seat in last_card["declined"]:
        raise IllegalAction("already_declined", "you already declined")
    last_card["declined"].append(seat)
    table["last_action"] = {"type": "decline", "seat": seat}
    events.append({"type": "decline", "visible_to": None, "seat": seat})
    if len(last_card["declined"]) == table["num_players"] - 1:
        _close_last_card(table, events)


_HANDLERS = {"play": _play, "copy": _copy, "pass": _pass, "challenge": _challenge, "decline": _decline}


def _shuffle(state: State, action: Action) -> tuple[State, list[Event]]:
    """The one chance step: deck order, first player, World's End jitter, random Spice It Up! cards; then the deal."""
    options, num_players = state["options"], state["num_players"]
    deck = action["deck"]
    if len(deck) != DECK_SIZE or sorted(deck) != list(DECK):
        raise IllegalAction("bad_deck", "deck must be an order of the 100 Spicy cards")
    first = action["first_player"]
    if not 0 <= first < num_players:
        raise IllegalAction("bad_first_player", "first_player must be a seat")
    spice_it_up = _chance_spice_it_up(options, action)
    hand_size = options["handSize"]
    dealt = num_players * hand_size
    hands = [deck[seat:dealt:num_players] for seat in range(num_players)]  # one at a time from seat 0
    pile = deck[dealt:][::-1]  # the end of the list is the top of the draw pile
    table = dict(state)
    table.update(
        phase=TURN,
        spice_it_up=spice_it_up,
        hands=hands,
        draw=pile,
        worlds_end_below=_chance_worlds_end(options, num_players, action),
        current=first,
    )
    events: list[Event] = [
        {
            "type": "shuffle",
            "visible_to": None,
            "first_player": first,
            "spice_it_up": list(spice_it_up),
            "hand_sizes": [len(hand) for hand in hands],
            "draw_pile": len(pile),
        }
    ]
    events += [
        {"type": "deal", "visible_to": [seat], "seat": seat, "cards": list(hands[seat])}
        for seat in range(num_players)
    ]
    return table, events


def _chance_worlds_end(options: dict[str, Any], num_players: int, action: Action) -> int | None:
    """Cards below World's End: the nominal mark plus the jitter, at least one card above it."""
    if not options["worldsEnd"]:
        if "worlds_end_offset" in action:
            raise IllegalAction("worlds_end_off", "this table plays without World's End")
        return None
    if "worlds_end_offset" not in action:
        raise MalformedAction("missing_worlds_end_offset", "the shuffle must place World's End")
    offset, jitter = action["worlds_end_offset"], options["worldsEndJitter"]
    if not -jitter <= offset <= jitter:
        raise IllegalAction("bad_worlds_end_offset", f"worlds_end_offset must be within -{jitter}..{jitter}")
    pile = draw_pile_size(options, num_players)
    return _clamp(worlds_end_base(options, num_players) + offset, 0, pile - 1)


def _chance_spice_it_up(options: dict[str, Any], action: Action) -> list[str]:
    """The Spice It Up! cards in play: the chosen ones, or those the shuffle drew when the option is random."""
    fixed = fixed_spice_it_up(options)
    drawn = action.get("spice_it_up")
    if fixed is not None:
        if drawn is not None and sorted(drawn) != sorted(fixed):
            raise IllegalAction("spice_it_up_fixed", "the Spice It Up! cards were chosen at table creation")
        return fixed
    count = random_spice_it_up_count(options)
    if (
        drawn is None
        or len(drawn) != count
        or len(set(drawn)) != count
        or not set(drawn) <= set(SPICE_IT_UP_CARDS)
    ):
        raise IllegalAction("bad_spice_it_up", f"the shuffle must draw {count} distinct Spice It Up! cards")
    return [card for card in SPICE_IT_UP_CARDS if card in drawn]


# --------------------------------------------------------------------------------------------------------------
# Legal actions
# --------------------------------------------------------------------------------------------------------------


def _play_action(card: str, declaration: Declaration, tuck: list[str]) -> Action:
    action: Action = {
        "type": "play",
        "card": card,
        "declare": {"spice": declaration[0], "number": declaration[1]},
    }
    if tuck:
        action["tuck"] = tuck
    return action


def _tucks_for(table: State, hand: list[str], card: str, number: int) -> list[list[str]]:
    if number != LUCK_NUMBER or not _active(table, CHANGE_YOUR_LUCK):
        return [[]]
    rest = list(hand)
    rest.remove(card)
    return tuck_choices(rest)


def _play_actions(state: State, seat: int) -> list[Action]:
    hand = state["hands"][seat]
    declarations = _legal_declarations(state)
    return [
        _play_action(card, declaration, tuck)
        for card in sorted(set(hand))
        for declaration in declarations
        for tuck in _tucks_for(state, hand, card, declaration[1])
    ]


def _copy_actions(state: State, seat: int) -> list[Action]:
    hand = state["hands"][seat]
    number = state["stack"][-1]["number"]
    actions = []
    for card in sorted(set(hand)):
        for tuck in _tucks_for(state, hand, card, number):
            action: Action = {"type": "copy", "card": card}
            if tuck:
                action["tuck"] = tuck
            actions.append(action)
    return actions


def _challenge_actions(top: dict[str, Any]) -> list[Action]:
    if top["copy"]:
        return [{"type": "challenge", "trait": COPY_TRAIT}]
    return [{"type": "challenge", "trait": trait} for trait in NAMED_TRAITS]


def _may_move(state: State, seat: int) -> bool:
    """May ``seat`` play or pass now?"""
    if seat != state["current"]:
        return False
    return state["phase"] == TURN or not _decline_required(state)


def _safest_lead(state: State, seat: int) -> Action:
    """Timeout for a player who must lead: the honest card with the lowest number, else a wild, else any play."""
    hand = state["hands"][seat]
    declarations = _legal_declarations(state)
    naturals = sorted((card for card in set(hand) if CARD_NUMBER[card] is not None), key=_by_number)
    for card in naturals:
        declaration = (CARD_SPICE[card], CARD_NUMBER[card])
        if declaration in declarations:
            return _play_action(card, declaration, [])
    for wild in (WILD_NUMBER, WILD_SPICE):
        if wild in hand:
            return _play_action(wild, declarations[0], [])
    return _play_actions(state, seat)[0]


def _by_number(card: str) -> tuple[int, str]:
    return CARD_NUMBER[card], card


# --------------------------------------------------------------------------------------------------------------
# The plugin
# --------------------------------------------------------------------------------------------------------------


class SpicyRules:
    """Spicy for the turn engine; every method is pure and works on plain-JSON states."""

    key = "spicy"
    name = "Spicy"
    min_players = spicy_options.MIN_PLAYERS
    max_players = spicy_options.MAX_PLAYERS
    options: tuple[Option, ...] = spicy_options.OPTIONS
    presets = spicy_options.PRESETS
    option_errors = spicy_options.OPTION_ERRORS
    play_now_players = spicy_options.PLAY_NOW_PLAYERS

    def normalize_options(self, options: dict[str, Any] | None, num_players: int) -> dict[str, Any]:
        return spicy_options.normalize_options(options, num_players)

    def initial_state(self, options: dict[str, Any], num_players: int) -> State:
        return {
            "options": {**options, "spiceItUp": list(options["spiceItUp"])},
            "num_players": num_players,
            "phase": SETUP,
            "spice_it_up": [],
            "hands": [[] for _ in range(num_players)],
            "draw": [],
            "worlds_end_below": None,
            "stack": [],
            "top_open": False,
            "fresh": False,
            "won": [[] for _ in range(num_players)],
            "trophies": [0] * num_players,
            "trophies_left": TROPHIES,
            "current": None,
            "direction": 1,
            "must_lead": False,
            "last_card": None,
            "last_challenge": None,
            "last_action": None,
            "result": None,
        }

    # -- who acts ------------------------------------------------------------------------------------------------

    def to_act(self, state: State) -> frozenset[int]:
        phase = state["phase"]
        if phase == SETUP:
            return frozenset({CHANCE})
        if phase == OVER:
            return frozenset()
        if phase == LAST_CARD:
            seats = set(_undeclined_opponents(state))
            if not _decline_required(state):
                seats.add(state["current"])
            return frozenset(seats)
        top = _challengeable_top(state)
        if top is None:
            return frozenset({state["current"]})
        return frozenset(seat for seat in range(state["num_players"]) if seat != top["owner"]) | {
            state["current"]
        }

    def awaited(self, state: State) -> frozenset[int]:
        phase = state["phase"]
        if phase in (SETUP, OVER):
            return frozenset()
        if phase == LAST_CARD and _decline_required(state):
            return frozenset(_undeclined_opponents(state))
        return frozenset({state["current"]})

    def legal_actions(self, state: State, seat: int) -> list[Action]:
        phase = state["phase"]
        if phase not in (TURN, LAST_CARD) or not _is_int(seat) or not 0 <= seat < state["num_players"]:
            return []
        actions: list[Action] = []
        if _may_move(state, seat):
            actions += _play_actions(state, seat)
            if not (state["must_lead"] and state["hands"][seat]):
                actions.append({"type": "pass"})
        top = _challengeable_top(state)
        if top is None or top["owner"] == seat:
            return actions
        if phase == TURN:
            actions += _challenge_actions(top)
            if _copy_window_open(state):
                actions += _copy_actions(state, seat)
        elif seat not in state["last_card"]["declined"]:
            actions += _challenge_actions(top)
            actions.append({"type": "decline"})
        return actions

    # -- chance and actions --------------------------------------------------------------------------------------

    def sample_chance(self, state: State, rng: random.Random) -> Action:
        options, num_players = state["options"], state["num_players"]
        deck = list(DECK)
        rng.shuffle(deck)
        action: Action = {"type": "shuffle", "deck": deck, "first_player": rng.randrange(num_players)}
        if options["worldsEnd"]:
            jitter = options["worldsEndJitter"]
            action["worlds_end_offset"] = rng.randint(-jitter, jitter)
        count = random_spice_it_up_count(options)
        if count:
            drawn = rng.sample(SPICE_IT_UP_CARDS, count)
            action["spice_it_up"] = [card for card in SPICE_IT_UP_CARDS if card in drawn]
        return action

    def apply_action(self, state: State, seat: int, action: Action) -> tuple[State, list[Event]]:
        kind = _check_shape(action)
        phase = state["phase"]
        if phase == OVER:
            raise IllegalAction("game_over", "the game is over")
        if kind == "shuffle":
            if seat != CHANCE:
                raise IllegalAction("chance_only", "only the dealer shuffles")
            if phase != SETUP:
                raise IllegalAction("no_chance_pending", "the cards were already dealt")
            return _shuffle(state, action)
        if seat == CHANCE:
            raise IllegalAction("not_a_player", "the dealer only shuffles")
        if phase == SETUP:
            raise IllegalAction("chance_pending", "the cards are not dealt yet")
        if not _is_int(seat) or not 0 <= seat < state["num_players"]:
            raise IllegalAction("bad_seat", f"no seat {seat!r} at this table")
        table = _working_copy(state)
        events: list[Event] = []
        _HANDLERS[kind](table, seat, action, events)
        return table, events

    def action_delay_ms(self, state: State, seat: int, action: Action) -> int:
        """The challenge grace period (§4) for the current player's move right after a card."""
        if (
            not isinstance(action, dict)
            or seat != state["current"]
            or action.get("type") not in ("play", "pass")
        ):
            return 0
        grace = state["options"]["challengeGraceMs"]
        if state["phase"] == LAST_CARD:
            return grace  # lastCardDeclineRequired off: this move ends everyone's chance to challenge
        if state["phase"] != TURN or not state["fresh"]:
            return 0
        if action["type"] == "play" or _active(state, COPY_CAT):
            return grace
        return 0

    def reveal_pause_ms(self, events: list[Event]) -> int:
        """After a challenge the card is turned over: the next clocks wait while the table shows it."""
        return REVEAL_PAUSE_MS if any(event["type"] == "challenge" for event in events) else 0

    def window_ms(self, state: State, seat: int) -> int | None:
        """The clock of an opponent awaited on a last card is the challenge grace period, not their time bank
        (§5: the last card waits until everyone declined or the grace period ended)."""
        if state["phase"] == LAST_CARD and _decline_required(state) and seat in _undeclined_opponents(state):
            return state["options"]["challengeGraceMs"]
        return None

    def timeout_action(self, state: State, seat: int) -> Action:
        """§10: decline a last card; otherwise pass, or lead the safest card when leading is due."""
        if seat not in self.awaited(state):
            raise IllegalAction("not_awaited", "this seat is not awaited")
        if state["phase"] == LAST_CARD and _decline_required(state):
            return {"type": "decline"}
        if state["must_lead"] and state["hands"][seat]:
            return _safest_lead(state, seat)
        return {"type": "pass"}

    # -- what players see ----------------------------------------------------------------------------------------

    def view(self, state: State, seat: int | None) -> dict[str, Any]:
        own = seat if _is_int(seat) and 0 <= seat < state["num_players"] else None
        return {
            "game": self.key,
            "seat": own,
            "num_players": state["num_players"],
            "options": {**state["options"], "spiceItUp": list(state["options"]["spiceItUp"])},
            "spice_it_up": list(state["spice_it_up"]),
            "phase": state["phase"],
            "current": state["current"],
            "direction": state["direction"],
            "must_lead": state["must_lead"],
            "to_act": sorted(self.to_act(state)),
            "awaited": sorted(self.awaited(state)),
            "hand": None if own is None else list(state["hands"][own]),
            "hand_sizes": [len(hand) for hand in state["hands"]],
            "stack": [_stack_entry_view(entry, own) for entry in state["stack"]],
            "stack_size": len(_stack_cards(state["stack"])),
            "top": _top_view(state),
            "top_challengeable": state["top_open"],
            "copy_open": _copy_window_open(state),
            "last_card": _last_card_view(state),
            "won_counts": [len(pile) for pile in state["won"]],
            "trophies": list(state["trophies"]),
            "trophies_left": state["trophies_left"],
            "scores": _scores(state),
            "draw_pile": _draw_pile_view(state),
            "last_challenge": _copied(state["last_challenge"]),
            "last_action": _copied(state["last_action"]),
            "result": _result_view(state["result"]),
        }

    def outcome(self, state: State) -> Outcome | None:
        result = state["result"]
        if result is None:
            return None
        scores = dict(enumerate(result["scores"]))
        return Outcome(
            ranking=[list(group) for group in result["ranking"]], reason=result["reason"], scores=scores
        )

    def determinize(self, state: State, seat: int | None, rng: random.Random) -> State:
        """Re-deal what ``seat`` cannot see: other hands, the draw pile, other players' stack cards (tucked ones
        too) and every won pile (face down for everyone) share one shuffled pool, keeping every size; World's End
        is moved among the positions the table cannot rule out."""
        table = _working_copy(state)
        if state["phase"] == SETUP:
            return table
        num_players = state["num_players"]
        others = [other for other in range(num_players) if other != seat]
        pool = [card for other in others for card in table["hands"][other]] + table["draw"]
        for entry in table["stack"]:
            if entry["owner"] != seat:
                pool += [entry["card"], *entry["tucked"]]
        for pile in table["won"]:
            pool += pile
        rng.shuffle(pool)
        dealt = iter(pool)
        for other in others:
            table["hands"][other] = [next(dealt) for _ in table["hands"][other]]
        table["draw"] = [next(dealt) for _ in table["draw"]]
        table["stack"] = [
            entry
            if entry["owner"] == seat
            else {**entry, "card": next(dealt), "tucked": [next(dealt) for _ in entry["tucked"]]}
            for entry in table["stack"]
        ]
        table["won"] = [[next(dealt) for _ in pile] for pile in table["won"]]
        if table["worlds_end_below"] is not None and table["phase"] != OVER:
            table["worlds_end_below"] = rng.choice(_possible_worlds_end_depths(table))
        return table


def _possible_worlds_end_depths(state: State) -> list[int]:
    """Every World's End depth the shuffle could have made that leaves the game running now."""
    options, num_players = state["options"], state["num_players"]
    base, jitter = worlds_end_base(options, num_players), options["worldsEndJitter"]
    highest = draw_pile_size(options, num_players) - 1
    depths = {_clamp(base + offset, 0, highest) for offset in range(-jitter, jitter + 1)}
    return sorted(depth for depth in depths if depth < len(state["draw"]))


def _stack_entry_view(entry: dict[str, Any], seat: int | None) -> dict[str, Any]:
    shown = {
        "owner": entry["owner"],
        "spice": entry["spice"],
        "number": entry["number"],
        "copy": entry["copy"],
        "tucked": len(entry["tucked"]),
    }
    if entry["owner"] == seat:  # your own face-down cards: you know them
        shown["card"] = entry["card"]
        shown["tucked_cards"] = list(entry["tucked"])
    return shown


def _top_view(state: State) -> dict[str, Any] | None:
    top = _top(state)
    if top is None:
        return None
    return {"owner": top["owner"], "spice": top["spice"], "number": top["number"], "copy": top["copy"]}


def _last_card_view(state: State) -> dict[str, Any] | None:
    last_card = state["last_card"]
    if last_card is None:
        return None
    return {"seat": last_card["seat"], "declined": sorted(last_card["declined"])}


def _copied(record: dict[str, Any] | None) -> dict[str, Any] | None:
    """A copy of a flat record (last_action, last_challenge), so that a view never shares the state's objects."""
    return None if record is None else dict(record)


def _result_view(result: dict[str, Any] | None) -> dict[str, Any] | None:
    if result is None:
        return None
    return {
        "reason": result["reason"],
        "ranking": [list(group) for group in result["ranking"]],
        "scores": list(result["scores"]),
    }


def _draw_pile_view(state: State) -> dict[str, Any]:
    """The draw pile as seen at a real table: its size, and World's End only near its nominal mark."""
    size = len(state["draw"])
    options = state["options"]
    if not options["worldsEnd"]:
        return {"size": size, "worlds_end": None}
    below = worlds_end_base(options, state["num_players"])
    return {
        "size": size,
        "worlds_end": {
            "approx_cards_above": max(size - below, 0),
            "uncertainty": options["worldsEndJitter"],
        },
    }


RULES = SpicyRules()
