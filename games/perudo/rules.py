"""Perudo (Liar's Dice), Asmodée edition as played on Board Game Arena: the pure rules library.

Every player hides dice under a cup. In turn, players raise a bid ("at least seven 4s on the table", Pacos — the
ones — counting as any face) or call **Dudo** ("I doubt it"): all dice are revealed, and whoever was wrong loses
a die. Players with no dice are out; the last player with dice wins. Variants: Palifico rounds (a player who
drops to one die opens a round where Pacos are not wild and the face is locked), **Calza** ("exactly right", to
regain a die) and **Perudo Salsa** (anyone may speak at any moment). The specification is the rules page,
``docs/rules/perudo.md``; the § numbers below are its sections.

Public API: ``RULES`` (a :class:`PerudoRules`) implementing ``tapete_sdk.plugin.GameRules``. Seats are
``0..n-1``; play goes clockwise, i.e. to a player's left, which is the *next higher* seat (wrapping around).

Options (camelCase, as docs/rules/perudo.md names them)
-------------------------------------------------------
==============================  ======================  ==========================================================
option                          default                 meaning
==============================  ======================  ==========================================================
firstPlayer                     ``'random'``            who opens round 1: ``random`` | ``rollOne`` (highest die)
                                                        | ``rollTwoSum`` (highest sum of two dice); ties re-roll
startingDice                    5                       dice per player at the start (1..10)
maxDice                         5                       a Calza regain never goes above this, nor above
                                                        startingDice (1..10)
allowPacoOpening                false                   a normal round may open on Pacos
allowPacoOpeningInPalifico      true                    a Palifico round may open on Pacos
raiseMode                       ``'strict'``            ``strict``: same face + more dice, or higher face with as
                                                        many; ``anyFaceOnHigherQty``: also any face on more dice
capBidAtDiceInPlay              true                    no bid above the total dice in play (above the starting
                                                        total when lostDiceVisible is off)
palificoOncePerPlayer           true                    a player triggers Palifico only the first time they drop
                                                        to one die (a Calza regain does not re-arm it)
palificoOneDieMayChangeFace     false                   in Palifico, the *other* one-die players (never the
                                                        Palifico player) may change the face
palificoPacoBids                ``'allowed'``           ``forbidden``: no Paco bid at all in a Palifico round
palificoMode                    ``'automatic'``         ``declared``: the player may declare Palifico (or not)
calza                           false                   Calza may be called
calzaCaller                     (see meaning)           ``anyoneButLastBidder`` (default, BGA) | ``currentOnly``
                                                        | ``anyoneButLastBidderAndCurrent``: who may call Calza
calzaRequiresMissingDie         false                   only players below the Calza ceiling may call Calza
calzaSuccessEffect              ``'gainOne'``           ``othersLoseOne`` (house rule): every other player loses
afterCalzaStarter               ``'caller'``            the Calza caller opens the next round (the only choice)
lostDiceVisible                 false                   the view shows every seat's dice count and the total
salsa                           false                   Perudo Salsa: out-of-turn bids, Dudo and Calza
==============================  ======================  ==========================================================

Actions
-------
Players: ``{"type": "bid", "quantity": q, "face": f}`` (q ≥ 1, f in 1..6, face 1 = Pacos); ``{"type": "dudo"}``;
``{"type": "calza"}``; ``{"type": "declare_palifico"}`` (palificoMode ``declared`` only). Any player action may
carry ``"bid_seq": k``; when it differs from the state's ``bid_seq`` the action is refused as ``stale_bid``.

Chance (seat ``CHANCE``): ``{"type": "first_player", "seat": k}`` (firstPlayer ``random``);
``{"type": "roll_off", "dice": [[...], ...]}`` (``rollOne``/``rollTwoSum``: one or two faces per seat still in
the roll-off, ``[]`` for the others); ``{"type": "roll", "dice": [[...], ...]}`` (every round: one list per
seat in seat order, as long as that seat's dice count, ``[]`` for an eliminated seat).

Events (``visible_to`` None = public)
-------------------------------------
``first_player`` {seat, method}; ``roll_off`` {dice, contenders, leaders, winner}; ``round_started`` {round,
starter, palifico, palifico_player, bid_seq, dice_counts?, dice_in_play?}; ``dice_rolled`` {seat, dice} (only to
that seat); ``palifico`` {seat, round, declared}; ``bid`` {seat, quantity, face, bid_seq, out_of_turn};
``dudo`` / ``calza`` {seat, reveal}; ``die_lost`` / ``die_gained`` {seat, dice_left?}; ``no_die_to_regain``
{seat}; ``eliminated`` {seat, place}; ``game_over`` {winner, ranking}. ``dice_counts``, ``dice_in_play`` and
``dice_left`` appear only with lostDiceVisible. A reveal is {call, caller, bid, palifico, dice (every seat's
dice of the round), counted_faces, count, result (``bid_stands`` | ``bid_false`` | ``exact`` | ``not_exact``),
losers, gainers, no_die_to_regain}; it stays in the state and the view (``last_reveal``) until the next roll.

Decisions the rule texts leave open
-----------------------------------
* **First player.** ``random`` is one chance action naming the seat (fair with the engine's seeded RNG, and a
  single log line). Roll-offs are public chance actions; tied leaders roll again, alone.
* **bid_seq** rises by one with every accepted bid *and* at every new roll, so an action aimed at the previous
  round (e.g. a late Salsa raise) is stale even before the new round's first bid. It is accepted, and checked,
  in every mode, not only with Salsa.
* **Quantity limit.** With capBidAtDiceInPlay off a bid may exceed the dice in play, but only up to 2 × dice in
  play + 1 (what a conversion back from Pacos at the dice in play needs): the legal actions must be a finite list.
* **lostDiceVisible off**: the view shows neither per-seat counts nor the total (only your own count); events do
  not state the dice left. Players track the count themselves from the public log, as at a real table. So that
  neither the legal bids nor the ``bid_above_dice_in_play`` refusal give the total away, the quantity limit is
  then computed from the dice the table *started* with (startingDice × players), not the dice in play: with
  capBidAtDiceInPlay on, no bid above the starting total; off, up to twice it plus one. The dice in play never
  exceed the starting total (a Calza only gives back lost dice), so no bid that could be true is ever refused.
  With lostDiceVisible on, the limit follows the dice in play.
* **Calza regains a lost die** (Asmodée Salsa page: "il reprend un dé parmi ceux qu'il avait perdu"): never
  above startingDice, nor above maxDice (``options.calza_ceiling``); maxDice may be set below startingDice (the
  Italian "never more than five dice" with six dice each). calzaRequiresMissingDie means fewer dice than that.
* **Declared Palifico.** The player who just triggered Palifico (§4) opens the next round; before
  their opening bid they may send ``declare_palifico``. Bidding without declaring plays a normal round and
  declines (the right is not used up: it comes back only if they drop to one die again after a Calza). The
  option to declare is shown only to that player (``may_declare_palifico``); nobody else is waited for.
* **palificoOneDieMayChangeFace**: the Italian text locks the number for the Palifico player and adds "se anche
  un altro giocatore, nello stesso round, ha un solo dado, solamente quest'ultimo può cambiare il numero": a seat
  with one die *other than the Palifico player* may raise with ordinary ordering, Pacos lowest (§2);
  the Palifico player, even on one die, only raises the quantity. The new face is then the locked face.
* **palificoPacoBids forbidden** closes Pacos for the whole Palifico round, whatever allowPacoOpeningInPalifico
  says; allowPacoOpeningInPalifico false with Paco bids allowed leaves Pacos reachable only by a one-die face
  change.
* **Calza** needs a standing bid and never comes from the last bidder. "Missing a die" (calzaRequiresMissingDie)
  means fewer dice than the Calza ceiling, i.e. a regain is possible. With Salsa, Calza is open to everyone but the last
  bidder; other calzaCaller values are refused with Salsa (``InvalidOptions('salsa_calza_caller')``).
* **othersLoseOne** (house rule): the caller gains nothing; every other seat loses a die, players eliminated by
  the same Calza share a rank. If several drop to one die, the first of them clockwise from the caller's left gets
  the Palifico round (only one round can be Palifico); the others' trigger is simply lost.
* **Who opens**: the Dudo loser, the Calza caller (afterCalzaStarter), or their left neighbour if eliminated; a
  Palifico player always opens their Palifico round (it is the loser anyway except under othersLoseOne).
* **Salsa**: every seat still in play except the last bidder may bid, Dudo or Calza while a bid stands; only the
  seat left of the last bidder is awaited; Palifico rules bind out-of-turn bids. The opening bid stays the
  opener's alone.
* **Reveal**: between a Dudo/Calza and the next roll the state keeps the round's history and Palifico flags;
  ``turn`` already names the next opener, ``bid`` is None and the dice live in ``last_reveal``.
* **Malformed vs illegal**: a quantity below 1, a face outside 1..6, a bool where an int is due, a missing field
  or an unknown type are malformed; a quantity above the limit is a well-formed but illegal bid.
* **Timeout**: Dudo when a bid stands; otherwise 1 × 2s when legal, else the first legal action (§3).

View
----
``view(state, seat)``: seat, num_players, options, phase, to_act, awaited, round, starter, turn, palifico,
palifico_player, locked_face, may_declare_palifico, bid {quantity, face, bidder}, bid_seq, history [{seat,
quantity, face}], my_dice, my_dice_count, dice_counts / dice_in_play (None unless lostDiceVisible), in_game,
elimination_order (groups), palifico_used, last_reveal, roll_off {contenders, dice, winner}, winner. Other seats'
dice appear only in ``last_reveal``, after the reveal.
"""

from __future__ import annotations

import random
from typing import Any

from tapete_sdk.plugin import CHANCE, IllegalAction, MalformedAction, Outcome, RatingPool, gettext_noop

from games.perudo.bidding import (
    FACES,
    PACO,
    Minimums,
    normal_raise_minimums,
    opening_minimums,
    palifico_raise_minimums,
    quantity_limit,
)
from games.perudo.options import (
    MAX_PLAYERS,
    MIN_PLAYERS,
    OPTION_ERRORS,
    OPTIONS,
    PLAY_NOW_PLAYERS,
    PRESETS,
    calza_ceiling,
    normalize_options,
)

State = dict[str, Any]
Action = dict[str, Any]
Event = dict[str, Any]

# Phases: who or what the game waits for.
FIRST_PLAYER = "first_player"  # chance: the random pick or a roll-off
ROLL = "roll"  # chance: everyone rolls for the next round
BIDDING = "bidding"  # players bid, call Dudo or Calza
OVER = "over"
REVEAL_PAUSE_MS = 3000  # the clocks wait this long after a reveal (engine: reveal_pause_ms)

CHANCE_ACTIONS = frozenset({"first_player", "roll_off", "roll"})
PLAYER_ACTIONS = frozenset({"bid", "dudo", "calza", "declare_palifico"})
CHANCE_ONLY = frozenset({CHANCE})
NOBODY: frozenset[int] = frozenset()

DUDO: Action = {"type": "dudo"}
CALZA: Action = {"type": "calza"}
DECLARE_PALIFICO: Action = {"type": "declare_palifico"}
TIMEOUT_OPENING: Action = {"type": "bid", "quantity": 1, "face": 2}

REFUSALS = {
    "not_your_turn": "it is not your turn",
    "own_bid": "you made the current bid: another player must answer it",
    "no_bid": "there is no bid yet",
    "calza_disabled": "Calza is not played at this table",
    "calza_by_next_player": "the player whose turn it is may not call Calza at this table",
    "no_missing_die": "only a player missing a die may call Calza",
    "palifico_not_available": "you may not declare Palifico now",
}


class PerudoRules:
    """Perudo through the game-plugin contract; see the module docstring for options, actions and events."""

    key = "perudo"
    name = "Perudo"
    min_players = MIN_PLAYERS
    max_players = MAX_PLAYERS
    options = OPTIONS
    presets = PRESETS
    option_errors = OPTION_ERRORS
    play_now_players = PLAY_NOW_PLAYERS
    # The duel is another game than the table game: they are rated apart.
    rating_pools = (
        RatingPool("duel", (2,), gettext_noop("Duel")),
        RatingPool("table", tuple(range(3, MAX_PLAYERS + 1)), gettext_noop("Table (3 to 6 players)")),
    )

    # --- setup ----------------------------------------------------------------------------------------------

    def normalize_options(self, options: dict[str, Any] | None, num_players: int) -> dict[str, Any]:
        return normalize_options(options, num_players)

    def initial_state(self, options: dict[str, Any], num_players: int) -> State:
        options = normalize_options(options, num_players)
        roll_off = None
        if options["firstPlayer"] != "random":
            roll_off = {"contenders": list(range(num_players)), "dice": None, "winner": None}
        return {
            "options": options,
            "phase": FIRST_PLAYER,
            "counts": [options["startingDice"]] * num_players,
            "dice": [[] for _ in range(num_players)],
            "palifico_used": [False] * num_players,
            "round": 0,
            "starter": None,
            "turn": None,  # the player to act; in the ROLL phase, the opener of the round being rolled
            "palifico": False,
            "palifico_player": None,
            "palifico_candidate": None,  # who just dropped to one die and gets (or may declare) Palifico
            "bid": None,
            "bid_seq": 0,
            "history": [],
            "elimination_order": [],  # groups of seats, in the order they went out
            "last_reveal": None,
            "roll_off": roll_off,
        }

    # --- who acts -------------------------------------------------------------------------------------------

    def to_act(self, state: State) -> frozenset[int]:
        phase = state["phase"]
        if phase == BIDDING:
            return _bidding_seats(state)
        if phase == OVER:
            return NOBODY
        return CHANCE_ONLY

    def awaited(self, state: State) -> frozenset[int]:
        # Only the designated player's clock runs; out-of-turn Calza/Salsa seats are never waited for.
        if state["phase"] == BIDDING:
            return frozenset((state["turn"],))
        return NOBODY

    def legal_actions(self, state: State, seat: int) -> list[Action]:
        if state["phase"] != BIDDING or not _is_seat(state, seat) or not state["counts"][seat]:
            return []
        actions: list[Action] = []
        if _speak_refusal(state, seat) is None:
            actions = _legal_bids(state, seat)
            if _declare_refusal(state, seat) is None:
                actions.append(dict(DECLARE_PALIFICO))
            if state["bid"] is not None:
                actions.append(dict(DUDO))
        if _calza_refusal(state, seat) is None:
            actions.append(dict(CALZA))
        return actions

    def timeout_action(self, state: State, seat: int) -> Action:
        legal = self.legal_actions(state, seat)
        if not legal:
            raise IllegalAction("not_awaited", f"seat {seat} has nothing to play now")
        for preferred in (DUDO, TIMEOUT_OPENING):  # docs/rules/perudo.md §3
            if preferred in legal:
                return dict(preferred)
        return legal[0]

    def action_delay_ms(self, state: State, seat: int, action: Action) -> int:
        return 0

    def reveal_pause_ms(self, events: list[Event]) -> int:
        """After a Dudo or a Calza every cup is lifted: the next round's clocks wait while the table shows it."""
        return REVEAL_PAUSE_MS if any(event["type"] in ("dudo", "calza") for event in events) else 0

    # --- chance ---------------------------------------------------------------------------------------------

    def sample_chance(self, state: State, rng: random.Random) -> Action:
        pending = _pending_chance(state)
        if pending == "roll":
            return {
                "type": "roll",
                "dice": [rng.choices(FACES, k=count) if count else [] for count in state["counts"]],
            }
        if pending == "roll_off":
            roll_off = state["roll_off"]
            per_seat = _roll_off_dice_per_seat(state)
            contenders = set(roll_off["contenders"])
            dice = [
                rng.choices(FACES, k=per_seat) if seat in contenders else [] for seat in range(_seats(state))
            ]
            return {"type": "roll_off", "dice": dice}
        if pending == "first_player":
            return {"type": "first_player", "seat": rng.randrange(_seats(state))}
        raise IllegalAction("no_chance_pending", "no roll is pending")

    def determinize(self, state: State, seat: int | None, rng: random.Random) -> State:
        world = dict(state)
        if state["phase"] == BIDDING:  # only the dice under the cups are hidden, and only while bidding
            world["dice"] = [
                hand if index == seat else rng.choices(FACES, k=len(hand))
                for index, hand in enumerate(state["dice"])
            ]
        return world

    # --- applying actions -----------------------------------------------------------------------------------

    def apply_action(self, state: State, seat: int, action: Action) -> tuple[State, list[Event]]:
        kind = _check_shape(action)
        phase = state["phase"]
        if kind in CHANCE_ACTIONS:
            if seat != CHANCE:
                raise IllegalAction("chance_action_from_player", "only the dice decide this")
            if phase == OVER:
                raise IllegalAction("game_over", "the game is over")
            return _apply_chance(state, kind, action)
        if seat == CHANCE:
            raise IllegalAction("not_a_chance_action", f"a {kind!r} is a player's action")
        if phase == OVER:
            raise IllegalAction("game_over", "the game is over")
        if phase != BIDDING:
            raise IllegalAction("chance_pending", "the dice have to be rolled first")
        if not _is_seat(state, seat):
            raise IllegalAction("no_such_seat", f"there is no seat {seat!r}")
        if not state["counts"][seat]:
            raise IllegalAction("eliminated", "you are out of the game")
        if "bid_seq" in action and action["bid_seq"] != state["bid_seq"]:
            raise IllegalAction("stale_bid", f"the bid has changed (bid_seq is now {state['bid_seq']})")
        if kind == "bid":
            return _apply_bid(state, seat, action["quantity"], action["face"])
        if kind == "dudo":
            _refuse(_speak_refusal(state, seat) or _no_bid(state))
            return _reveal(state, seat, "dudo")
        if kind == "calza":
            _refuse(_calza_refusal(state, seat))
            return _reveal(state, seat, "calza")
        _refuse(_speak_refusal(state, seat) or _declare_refusal(state, seat))
        return _declare_palifico(state, seat)

    # --- what leaves the server -----------------------------------------------------------------------------

    def view(self, state: State, seat: int | None) -> dict[str, Any]:
        options = state["options"]
        counts = state["counts"]
        bid = state["bid"]
        own = seat is not None and _is_seat(state, seat)
        visible_counts = options["lostDiceVisible"]
        in_game = [index for index, count in enumerate(counts) if count]
        may_declare = own and state["phase"] == BIDDING and _declare_refusal(state, seat) is None
        return {
            "seat": seat,
            "num_players": _seats(state),
            "options": dict(options),
            "phase": state["phase"],
            "to_act": sorted(self.to_act(state)),
            "awaited": sorted(self.awaited(state)),
            "round": state["round"],
            "starter": state["starter"],
            "turn": state["turn"],
            "palifico": state["palifico"],
            "palifico_player": state["palifico_player"],
            "locked_face": bid["face"] if state["palifico"] and bid is not None else None,
            "may_declare_palifico": may_declare,
            "bid": dict(bid) if bid is not None else None,
            "bid_seq": state["bid_seq"],
            "history": [dict(entry) for entry in state["history"]],
            "my_dice": list(state["dice"][seat]) if own else None,
            "my_dice_count": counts[seat] if own else None,
            "dice_counts": list(counts) if visible_counts else None,
            "dice_in_play": sum(counts) if visible_counts else None,
            "in_game": in_game,
            "elimination_order": [list(group) for group in state["elimination_order"]],
            "palifico_used": list(state["palifico_used"]),
            "last_reveal": _copy_reveal(state["last_reveal"]),
            "roll_off": _copy_roll_off(state["roll_off"]),
            "winner": in_game[0] if state["phase"] == OVER else None,
        }

    def outcome(self, state: State) -> Outcome | None:
        if state["phase"] != OVER:
            return None
        return Outcome(
            ranking=_ranking(state["counts"], state["elimination_order"]), reason="last_player_standing"
        )


RULES = PerudoRules()


# --- seats and turn order -----------------------------------------------------------------------------------


def _seats(state: State) -> int:
    return len(state["counts"])


def _is_seat(state: State, seat: Any) -> bool:
    return isinstance(seat, int) and not isinstance(seat, bool) and 0 <= seat < len(state["counts"])


def _left_of(counts: list[int], seat: int) -> int:
    """The next seat still in the game clockwise (to the left) of ``seat``, which may itself be out."""
    size = len(counts)
    for step in range(1, size + 1):
        candidate = (seat + step) % size
        if counts[candidate]:
            return candidate
    raise ValueError("nobody is left in the game")


def _clockwise_after(seat: int, size: int) -> list[int]:
    return [(seat + step) % size for step in range(1, size)]


def _ranking(counts: list[int], elimination_order: list[list[int]]) -> list[list[int]]:
    """§3: the winner, then the eliminated players, the last eliminated first; a shared elimination ties."""
    winners = [seat for seat, count in enumerate(counts) if count]
    return [winners, *(list(group) for group in reversed(elimination_order))]


# --- who may do what ----------------------------------------------------------------------------------------


def _speak_refusal(state: State, seat: int) -> str | None:
    """Why ``seat`` may not bid or call Dudo now (None: it may). Salsa opens this to every other player."""
    if seat == state["turn"]:
        return None
    bid = state["bid"]
    if bid is None or not state["options"]["salsa"]:
        return "not_your_turn"
    if seat == bid["bidder"]:
        return "own_bid"  # Salsa: "any *other* player"
    return None


def _no_bid(state: State) -> str | None:
    return "no_bid" if state["bid"] is None else None  # §2: no Dudo before a bid


def _calza_refusal(state: State, seat: int) -> str | None:
    """Why ``seat`` may not call Calza now (None: it may), §5 and calzaCaller."""
    options = state["options"]
    if not options["calza"]:
        return "calza_disabled"
    bid = state["bid"]
    if bid is None:
        return "no_bid"
    if seat == bid["bidder"]:
        return "own_bid"
    caller_rule = options["calzaCaller"]
    if caller_rule == "currentOnly" and seat != state["turn"]:
        return "not_your_turn"
    if caller_rule == "anyoneButLastBidderAndCurrent" and seat == state["turn"]:
        return "calza_by_next_player"
    if options["calzaRequiresMissingDie"] and state["counts"][seat] >= calza_ceiling(options):
        return "no_missing_die"
    return None


def _declare_refusal(state: State, seat: int) -> str | None:
    # The candidate is set only in 'declared' mode between the roll and the opening bid (and they open).
    return None if state["palifico_candidate"] == seat else "palifico_not_available"


def _bidding_seats(state: State) -> frozenset[int]:
    turn = state["turn"]
    options = state["options"]
    if state["bid"] is None or not (options["salsa"] or options["calza"]):
        return frozenset((turn,))
    return frozenset(
        seat
        for seat, count in enumerate(state["counts"])
        if count and (_speak_refusal(state, seat) is None or _calza_refusal(state, seat) is None)
    )


def _refuse(code: str | None) -> None:
    if code is not None:
        raise IllegalAction(code, REFUSALS[code])


# --- bids ---------------------------------------------------------------------------------------------------


def _minimums(state: State, seat: int) -> Minimums:
    """The lowest legal quantity per face for ``seat``'s next bid (bidding.py explains the shape)."""
    options = state["options"]
    bid = state["bid"]
    palifico = state["palifico"]
    pacos_in_palifico = options["palificoPacoBids"] == "allowed"
    if bid is None:
        if palifico:  # Palifico: the opening may be on Pacos (BGA)
            return opening_minimums(pacos_in_palifico and options["allowPacoOpeningInPalifico"])
        return opening_minimums(options["allowPacoOpening"])  # Pacos cannot open a normal round
    if palifico:  # Palifico: face locked, only the quantity rises
        # Italian rules: "solamente quest'ultimo", only the *other* one-die players, never the Palifico player.
        may_change_face = (
            options["palificoOneDieMayChangeFace"]
            and state["counts"][seat] == 1
            and seat != state["palifico_player"]
        )
        return palifico_raise_minimums(bid["quantity"], bid["face"], may_change_face, pacos_in_palifico)
    return normal_raise_minimums(bid["quantity"], bid["face"], options["raiseMode"] == "anyFaceOnHigherQty")


def _quantity_limit(state: State) -> int:
    """The highest quantity a bid may name. With lost dice hidden it is computed from the dice the table
    started with, which everyone knows, so neither the legal bids nor a refusal tell the dice in play."""
    options = state["options"]
    if options["lostDiceVisible"]:
        dice = sum(state["counts"])
    else:
        dice = options["startingDice"] * len(state["counts"])
    return quantity_limit(dice, options["capBidAtDiceInPlay"])


def _legal_bids(state: State, seat: int) -> list[Action]:
    """Every legal bid, face by face (Pacos first), quantities ascending."""
    minimums = _minimums(state, seat)
    stop = _quantity_limit(state) + 1
    return [
        {"type": "bid", "quantity": quantity, "face": face}
        for face in FACES
        if minimums[face] is not None
        for quantity in range(minimums[face], stop)
    ]


def _closed_face_code(state: State, face: int) -> str:
    palifico = state["palifico"]
    if face == PACO:
        if palifico and state["options"]["palificoPacoBids"] == "forbidden":
            return "paco_bid_forbidden"
        if state["bid"] is None:
            return "paco_opening_forbidden"
    return "face_locked" if palifico else "lower_face_forbidden"


def _check_bid(state: State, seat: int, quantity: int, face: int) -> None:
    _refuse(_speak_refusal(state, seat))
    minimum = _minimums(state, seat)[face]
    if minimum is None:
        raise IllegalAction(_closed_face_code(state, face), f"a bid on {face}s is not allowed now")
    limit = _quantity_limit(state)
    if quantity > limit:
        raise IllegalAction("bid_above_dice_in_play", f"a bid may name at most {limit} dice")  # see _quantity_limit
    if quantity < minimum:
        raise IllegalAction("bid_too_low", f"a bid on {face}s needs at least {minimum} dice")


def _apply_bid(state: State, seat: int, quantity: int, face: int) -> tuple[State, list[Event]]:
    _check_bid(state, seat, quantity, face)
    bid_seq = state["bid_seq"] + 1
    new = dict(state)
    new["bid"] = {"quantity": quantity, "face": face, "bidder": seat}
    new["bid_seq"] = bid_seq
    new["history"] = [*state["history"], {"seat": seat, "quantity": quantity, "face": face}]
    new["turn"] = _left_of(state["counts"], seat)  # Salsa too: play resumes left of the last speaker
    new["palifico_candidate"] = None  # declared Palifico: bidding without declaring plays a normal round
    event = {
        "type": "bid",
        "visible_to": None,
        "seat": seat,
        "quantity": quantity,
        "face": face,
        "bid_seq": bid_seq,
        "out_of_turn": seat != state["turn"],
    }
    return new, [event]


def _declare_palifico(state: State, seat: int) -> tuple[State, list[Event]]:
    new = dict(state)
    _start_palifico(new, seat)
    return new, [_palifico_event(new, seat, declared=True)]


def _start_palifico(new: State, seat: int) -> None:
    """Make the round in ``new`` (a fresh copy) a Palifico round for ``seat``."""
    new["palifico"] = True
    new["palifico_player"] = seat
    new["palifico_candidate"] = None
    used = list(new["palifico_used"])
    used[seat] = True
    new["palifico_used"] = used


def _palifico_event(state: State, seat: int, declared: bool) -> Event:
    return {
        "type": "palifico",
        "visible_to": None,
        "seat": seat,
        "round": state["round"],
        "declared": declared,
    }


# --- Dudo and Calza -----------------------------------------------------------------------------------------


def _count_bid(hands: list[list[int]], face: int, pacos_wild: bool) -> int:
    """§3: the dice showing the face, plus the Pacos when they are wild."""
    total = 0
    for hand in hands:
        total += hand.count(face)
        if pacos_wild:
            total += hand.count(PACO)
    return total


def _reveal(state: State, caller: int, call: str) -> tuple[State, list[Event]]:
    """Resolve a Dudo or a Calza: reveal, count, take or give dice, then set up the next round or the end."""
    bid = state["bid"]
    face = bid["face"]
    pacos_wild = face != PACO and not state["palifico"]  # Palifico: Pacos are not wild
    count = _count_bid(state["dice"], face, pacos_wild)
    result, losers, gainers = _judge(state, caller, call, count)
    counts = list(state["counts"])
    for seat in losers:
        counts[seat] -= 1
    for seat in gainers:
        counts[seat] += 1
    reveal = {
        "call": call,
        "caller": caller,
        "bid": dict(bid),
        "palifico": state["palifico"],
        "dice": state["dice"],
        "counted_faces": [face, PACO] if pacos_wild else [face],
        "count": count,
        "result": result,
        "losers": losers,
        "gainers": gainers,
        "no_die_to_regain": result == "exact" and not losers and not gainers,
    }
    events = _reveal_events(state["options"], reveal, counts)
    new = dict(state)
    new["counts"] = counts
    new["dice"] = [[] for _ in counts]
    new["bid"] = None
    new["last_reveal"] = reveal
    out = [seat for seat in losers if not counts[seat]]
    if out:
        new["elimination_order"] = [*state["elimination_order"], out]
        place = sum(1 for count in counts if count) + 1
        events.extend(
            {"type": "eliminated", "visible_to": None, "seat": seat, "place": place} for seat in out
        )
    if sum(1 for count in counts if count) == 1:
        return _end_game(new, events)
    candidate = _palifico_trigger(state, losers, counts)
    new["phase"] = ROLL
    new["palifico_candidate"] = candidate
    new["turn"] = _next_opener(counts, caller if call == "calza" else losers[0], candidate)
    return new, events


def _judge(state: State, caller: int, call: str, count: int) -> tuple[str, list[int], list[int]]:
    """The result of the call, the seats that lose a die and the seats that gain one (§3, §5)."""
    options = state["options"]
    bid = state["bid"]
    counts = state["counts"]
    if call == "dudo":
        if count >= bid["quantity"]:
            return "bid_stands", [caller], []  # the bid stands: the Dudo caller loses
        return "bid_false", [bid["bidder"]], []  # the bid was false: the bidder loses
    if count != bid["quantity"]:
        return "not_exact", [caller], []
    if options["calzaSuccessEffect"] == "othersLoseOne":  # house rule: everyone else loses a die
        return "exact", [seat for seat in _clockwise_after(caller, len(counts)) if counts[seat]], []
    if counts[caller] < calza_ceiling(options):
        return "exact", [], [caller]  # a correct Calza regains a *lost* die
    return "exact", [], []


def _reveal_events(options: dict[str, Any], reveal: dict[str, Any], counts: list[int]) -> list[Event]:
    caller = reveal["caller"]
    events: list[Event] = [
        {"type": reveal["call"], "visible_to": None, "seat": caller, "reveal": _copy_reveal(reveal)}
    ]
    events.extend(_die_event("die_lost", seat, counts, options) for seat in reveal["losers"])
    events.extend(_die_event("die_gained", seat, counts, options) for seat in reveal["gainers"])
    if reveal["no_die_to_regain"]:
        events.append({"type": "no_die_to_regain", "visible_to": None, "seat": caller})
    return events


def _end_game(new: State, events: list[Event]) -> tuple[State, list[Event]]:
    """One player has dice left: they win (§3)."""
    new["phase"] = OVER
    new["turn"] = None
    new["palifico_candidate"] = None
    ranking = _ranking(new["counts"], new["elimination_order"])
    events.append({"type": "game_over", "visible_to": None, "winner": ranking[0][0], "ranking": ranking})
    return new, events


def _die_event(kind: str, seat: int, counts: list[int], options: dict[str, Any]) -> Event:
    event = {"type": kind, "visible_to": None, "seat": seat}
    if options["lostDiceVisible"]:
        event["dice_left"] = counts[seat]
    return event


def _palifico_trigger(state: State, losers: list[int], counts: list[int]) -> int | None:
    """§4: a player who just dropped to exactly one die makes the next round Palifico — once per player per
    game with palificoOncePerPlayer (a Calza regain does not re-arm it)."""
    once = state["options"]["palificoOncePerPlayer"]
    used = state["palifico_used"]
    return next((seat for seat in losers if counts[seat] == 1 and not (once and used[seat])), None)


def _next_opener(counts: list[int], anchor: int, palifico_player: int | None) -> int:
    """§3, §5: the Dudo loser or the Calza caller opens, their left neighbour if they are out; a Palifico
    player opens their Palifico round."""
    if palifico_player is not None:
        return palifico_player
    return anchor if counts[anchor] else _left_of(counts, anchor)


# --- chance actions -----------------------------------------------------------------------------------------


def _pending_chance(state: State) -> str | None:
    phase = state["phase"]
    if phase == ROLL:
        return "roll"
    if phase == FIRST_PLAYER:
        return "first_player" if state["roll_off"] is None else "roll_off"
    return None


def _roll_off_dice_per_seat(state: State) -> int:
    return 1 if state["options"]["firstPlayer"] == "rollOne" else 2


def _apply_chance(state: State, kind: str, action: Action) -> tuple[State, list[Event]]:
    pending = _pending_chance(state)
    if pending is None:
        raise IllegalAction("no_chance_pending", "no roll is pending")
    if kind != pending:
        raise IllegalAction("wrong_chance_action", f"the pending chance step is {pending!r}")
    if kind == "roll":
        return _apply_roll(state, action["dice"])
    if kind == "roll_off":
        return _apply_roll_off(state, action["dice"])
    return _apply_first_player(state, action["seat"])


def _check_dice_counts(dice: list[list[int]], expected: list[int]) -> None:
    if len(dice) != len(expected) or any(
        len(hand) != count for hand, count in zip(dice, expected, strict=True)
    ):
        raise IllegalAction("wrong_dice_count", f"expected dice lists of lengths {expected}")


def _first_player_event(seat: int, method: str) -> Event:
    return {"type": "first_player", "visible_to": None, "seat": seat, "method": method}


def _apply_first_player(state: State, seat: int) -> tuple[State, list[Event]]:
    if not _is_seat(state, seat):
        raise IllegalAction("no_such_seat", f"there is no seat {seat}")
    new = dict(state)
    new["phase"] = ROLL
    new["turn"] = seat
    return new, [_first_player_event(seat, "random")]


def _apply_roll_off(state: State, dice: list[list[int]]) -> tuple[State, list[Event]]:
    """Each contender rolls one or two dice in the open; the highest total starts, tied leaders roll again."""
    contenders = state["roll_off"]["contenders"]
    per_seat = _roll_off_dice_per_seat(state)
    expected = [per_seat if seat in contenders else 0 for seat in range(_seats(state))]
    _check_dice_counts(dice, expected)
    best = max(sum(dice[seat]) for seat in contenders)
    leaders = [seat for seat in contenders if sum(dice[seat]) == best]
    winner = leaders[0] if len(leaders) == 1 else None
    rolled = [list(hand) for hand in dice]
    new = dict(state)
    new["roll_off"] = {"contenders": leaders, "dice": rolled, "winner": winner}
    events: list[Event] = [
        {
            "type": "roll_off",
            "visible_to": None,
            "dice": [list(hand) for hand in dice],
            "contenders": list(contenders),
            "leaders": leaders,
            "winner": winner,
        }
    ]
    if winner is not None:
        new["phase"] = ROLL
        new["turn"] = winner
        events.append(_first_player_event(winner, state["options"]["firstPlayer"]))
    return new, events


def _apply_roll(state: State, dice: list[list[int]]) -> tuple[State, list[Event]]:
    """A new round: everyone still in rolls in secret; the opener is ``turn``; Palifico starts if triggered."""
    counts = state["counts"]
    options = state["options"]
    _check_dice_counts(dice, counts)
    starter = state["turn"]
    new = dict(state)
    new["phase"] = BIDDING
    new["dice"] = [list(hand) for hand in dice]
    new["round"] = state["round"] + 1
    new["starter"] = starter
    new["bid"] = None
    new["bid_seq"] = state["bid_seq"] + 1
    new["history"] = []
    new["last_reveal"] = None
    new["palifico"] = False
    new["palifico_player"] = None
    candidate = state["palifico_candidate"]
    automatic_palifico = candidate is not None and options["palificoMode"] == "automatic"
    if automatic_palifico:
        _start_palifico(new, candidate)
    started: Event = {
        "type": "round_started",
        "visible_to": None,
        "round": new["round"],
        "starter": starter,
        "palifico": new["palifico"],
        "palifico_player": new["palifico_player"],
        "bid_seq": new["bid_seq"],
    }
    if options["lostDiceVisible"]:
        started["dice_counts"] = list(counts)
        started["dice_in_play"] = sum(counts)
    events = [started]
    if automatic_palifico:
        events.append(_palifico_event(new, candidate, declared=False))
    events.extend(
        {"type": "dice_rolled", "visible_to": [seat], "seat": seat, "dice": list(hand)}
        for seat, hand in enumerate(dice)
        if hand
    )
    return new, events


# --- action shapes ------------------------------------------------------------------------------------------


def _check_shape(action: Any) -> str:
    """Validate the action's shape and return its type; raises MalformedAction."""
    if not isinstance(action, dict):
        raise MalformedAction("not_an_object", "an action is a JSON object")
    kind = action.get("type")
    if not isinstance(kind, str):
        raise MalformedAction("missing_type", "an action needs a string 'type'")
    if kind not in PLAYER_ACTIONS and kind not in CHANCE_ACTIONS:
        raise MalformedAction("unknown_type", f"unknown action type {kind!r}")
    if kind == "bid":
        _check_int(action, "quantity", 1, None)
        _check_int(action, "face", 1, 6)
    elif kind == "first_player":
        _check_int(action, "seat", 0, None)
    elif kind in ("roll", "roll_off"):
        _check_dice(action)
    if "bid_seq" in action:
        _check_int(action, "bid_seq", 0, None)
    return kind


def _check_int(action: Action, name: str, minimum: int, maximum: int | None) -> None:
    if name not in action:
        raise MalformedAction("missing_field", f"the action needs {name!r}")
    value = action[name]
    if isinstance(value, bool) or not isinstance(value, int):
        raise MalformedAction("wrong_type", f"{name!r} must be an integer")
    if value < minimum or (maximum is not None and value > maximum):
        bound = f"between {minimum} and {maximum}" if maximum is not None else f"at least {minimum}"
        raise MalformedAction("out_of_range", f"{name!r} must be {bound}")


def _check_dice(action: Action) -> None:
    if "dice" not in action:
        raise MalformedAction("missing_field", "the action needs 'dice'")
    dice = action["dice"]
    if not isinstance(dice, list) or not all(isinstance(hand, list) for hand in dice):
        raise MalformedAction("wrong_type", "'dice' must be a list of lists of faces")
    for hand in dice:
        for face in hand:
            if isinstance(face, bool) or not isinstance(face, int) or not 1 <= face <= 6:
                raise MalformedAction("out_of_range", "every die shows a face from 1 to 6")


# --- copies handed out --------------------------------------------------------------------------------------


def _copy_reveal(reveal: dict[str, Any] | None) -> dict[str, Any] | None:
    if reveal is None:
        return None
    return {
        **reveal,
        "bid": dict(reveal["bid"]),
        "dice": [list(hand) for hand in reveal["dice"]],
        "counted_faces": list(reveal["counted_faces"]),
        "losers": list(reveal["losers"]),
        "gainers": list(reveal["gainers"]),
    }


def _copy_roll_off(roll_off: dict[str, Any] | None) -> dict[str, Any] | None:
    if roll_off is None:
        return None
    dice = roll_off["dice"]
    return {**roll_off, "contenders": list(roll_off["contenders"]), "dice": dice and [list(h) for h in dice]}
