"""Chinese Checkers (Sternhalma) as played on Board Game Arena: a pure rules library.

2, 3, 4 or 6 players each have ten marbles in one point of a six-pointed star and race them into the opposite
point. A turn moves one marble: a step to an adjacent empty hole, or a chain of hops over adjacent marbles of any
colour. The first player with all ten marbles home wins at once; the others are ranked by score. The spec is
the rules page ``docs/rules/chinesecheckers.md`` (the § numbers below are its sections); geometry, tables and the
fast move generator live in ``board.py``.

Public API: ``RULES`` (a :class:`ChineseCheckersRules`) implements ``tapete_sdk.plugin.GameRules``. For search and
benchmarks, ``board.generate_moves(board, seat, point)`` lists every legal destination of every marble fast.

Options
=======

=================== ========= =========================================================================
name                default   meaning
=================== ========= =========================================================================
blockedTargetRule   "none"    ``"none"``: BGA, nothing special (a marble left in its own start can block
                              the opposite player forever; maxTurns then ends the game).
                              ``"occupiedCountsAsFilled"``: you also win when every hole of your target
                              is occupied and at least one of them by you (the holes you do not hold are
                              necessarily held by opponents).
                              ``"swap"``: a step, or the last hop of a chain, may end on an opponent's
                              marble sitting in your target; the two marbles change places (the
                              opponent's marble goes to the hole your marble left).
maxTurns            150       Turns per player (passes included). When every player has had this many
                              turns (maxTurns × players plies) the game ends, ranked by score.
firstPlayer         "random"  ``"random"``: a chance step draws who starts; ``"seat0"``: seat 0 starts.
targetLock          False     Other sites' rule, not BGA's: a marble inside its target may only end its
                              moves inside the target (it may still hop out and back in mid-chain).
=================== ========= =========================================================================

Coordinates, seats and state
============================

Holes are cube coordinates ``[x, y, z]`` with ``x + y + z = 0`` (rules page §1); the star points, round the
star, are T0 = X+, T1 = Z-, T2 = Y+, T3 = X-, T4 = Z+, T5 = Y-, and Ti's opposite is T(i+3). Seat i starts at
``SEAT_POINTS[n][i]``: 2p T0/T3; 3p T0, T2, T4; 4p T0, T1, T3, T4; 6p all (§2), and targets the
opposite point. Turns go up the seat numbers, i.e. round the star. 5 players are refused (``player_count``).

State (plain JSON): ``numPlayers``, ``options`` (normalized), ``points`` (start point per seat), ``board`` (a
121-character string, see ``board.py``: ``"."`` empty or the seat digit, holes in ``board.CELLS`` order),
``turn`` (seat to move, None while the first player is drawn or after the end), ``firstPlayer``, ``ply`` (moves
and passes played), ``lastMove`` (``seat``, ``from``, ``to``, ``path`` as cell indices, ``swappedWith``; None
after a pass) and ``result`` (None until the end, then ``reason``, ``winner``, ``ranking``, ``scores``).

View (nothing is hidden, so every seat and spectators see the same board)
==========================================================================

``game``, ``seat``, ``numPlayers``, ``to_act``, ``awaited``, ``turn``, ``firstPlayer``, ``ply``, ``round``,
``maxTurns``, ``maxPlies``, ``options``; ``seats``: per seat ``start`` and ``target`` points, ``score``,
``home`` (marbles in the target) and ``marbles`` (cubes); ``lastMove`` (cubes, with its ``path``); ``result``;
and for the seat to act only, ``moves``: ``[{"from", "to", "path", "swap"}]`` (every legal move with the landing
holes to animate, ``[to]`` for a step) and ``canPass`` (true only when ``moves`` is empty).
``legal_actions`` lists the same moves without paths, by origin then destination in ``board.CELLS`` order.

Actions
=======

* ``{"type": "move", "from": [x, y, z], "to": [x, y, z]}``: move the marble at ``from`` to ``to``. An optional
  ``"path"`` is accepted and **ignored**: the move is (from, to); the server computes the path it reports.
* ``{"type": "pass"}``: only when the seat has no legal move at all (§3).
* ``{"type": "first_player", "seat": k}``: the chance action (seat ``CHANCE``) when ``firstPlayer`` is random.

Errors: ``MalformedAction`` codes ``not_an_object``, ``unknown_type``, ``bad_cell`` (not a list of three ints
summing to 0), ``bad_seat``; ``IllegalAction`` codes ``game_over``, ``chance_pending``, ``not_chance``,
``no_chance_pending``, ``not_your_turn``, ``off_board``, ``not_your_marble``, ``illegal_destination``,
``must_move``, ``no_such_seat``.

Events (all public, ``visible_to`` None)
========================================

* ``{"type": "first_player", "seat"}``
* ``{"type": "move", "seat", "from", "to", "path", "hops", "swappedWith", "scoreBefore", "score", "delta"}``:
  ``path`` is the list of holes landed in (``[to]`` for a step), ``hops`` 0 for a step, ``swappedWith`` the
  seat whose marble was swapped to ``from`` (swap rule) or None, scores are the mover's.
* ``{"type": "pass", "seat"}``
* ``{"type": "win", "seat", "reason"}``: reason ``"all_home"`` or ``"target_filled"``.
* ``{"type": "game_over", "reason", "ranking", "scores"}``: reason ``"all_home"``, ``"target_filled"`` or
  ``"max_turns"``; ``scores`` lists every seat's score.

Decisions the rule texts leave open
===================================

* First player: option ``firstPlayer``, random by default (a chance action, so replays stay exact), as a random
  player starts on BGA; ``"seat0"`` for tables that seat players themselves.
* ``maxTurns`` counts turns *per player* rather than plies, so the limit always falls at the end of a round and
  everybody has moved equally often. 150 turns each (300 plies with 2 players, 900 with 6) is several times a
  real game (about 30-60 turns each) yet ends random playouts, which almost never bring ten marbles home.
* The winner is the first player at 120 (or, with occupiedCountsAsFilled, with a filled target). After a move
  the mover is checked first, then the others in turn order (a swap or a move into one's own start can complete
  another player's goal); the game stops at the first winner. The others are ranked by score, equal scores
  sharing a rank; at ``max_turns`` everybody is ranked by score.
* occupiedCountsAsFilled needs at least one of your marbles in the target: otherwise the opposite player's
  untouched start (your target, full of their marbles) would count as a win. It applies from the first move, so
  a player who lingers at home while the opponent fills the holes they left loses to it; that is the point.
* swap: the displaced marble goes to the mover's origin, which is always a hole its owner may stop in (only the
  player starting in your target can sit there, and your origin is in the hexagon, your start = their target,
  or your target = their start). A swap ends the chain; the last hop jumps an adjacent marble as usual.
* Passing is only legal without a legal move; a position where nobody can move just passes until maxTurns.
* A move is (from, to). The path shown in views and events is the shortest hop chain (first direction first
  among equals), or ``[to]`` for a step; a path sent with an action is ignored rather than validated, since it
  never changes the result.
* ``targetLock`` only restricts where a move *ends*: like a lateral point, the chain may leave and re-enter.
* A cell that is not three integers summing to 0 is malformed (``bad_cell``); a proper cube outside the star
  is a well-formed but illegal move (``off_board``).
* The board is a 121-character string rather than a list: plain JSON, immutable, and the fastest form to scan
  (see ``board.py``); the full legal-move generation runs at roughly 50,000+ per second on one core on crowded
  6-player positions (``python -m games.chinesecheckers.benchmark``).
* timeout action (§6): the move with the largest progress for the mover; among equal gains a
  marble outside its target, then the destination nearest a free hole of the target, then the marble furthest
  behind, then the lowest indices; a pass if nothing moves. Deterministic; the second and third criteria stop
  an auto-played seat from shuffling its last marble to and fro when no move gains (timeout moves alone finish
  games of every size).
* No hidden information: every view shows the whole board; ``determinize`` returns an equal copy.
"""

from __future__ import annotations

import copy
import random

from tapete_sdk.plugin import (
    CHANCE,
    JSON,
    IllegalAction,
    InvalidOptions,
    MalformedAction,
    Option,
    Outcome,
    Preset,
    RatingPool,
    gettext_noop,
    normalize_with_schema,
)

from games.chinesecheckers import board as geometry
from games.chinesecheckers.board import (
    CELLS,
    EMPTY,
    INDEX,
    PROGRESS,
    SEAT_CHARS,
    SEAT_POINTS,
    TARGET_CELLS,
    Cube,
    generate_moves,
    marble_moves,
    moves_with_paths,
    opposite,
)

State = dict[str, JSON]
Action = dict[str, JSON]
Event = dict[str, JSON]

BLOCKED_NONE = "none"
BLOCKED_FILLED = "occupiedCountsAsFilled"
BLOCKED_SWAP = "swap"
REASON_ALL_HOME = "all_home"
REASON_TARGET_FILLED = "target_filled"
REASON_MAX_TURNS = "max_turns"

OPTIONS: tuple[Option, ...] = (
    Option(
        name="blockedTargetRule",
        kind="choice",
        default=BLOCKED_NONE,
        label=gettext_noop("Blocked target"),
        help=gettext_noop(
            "What happens when an opponent's marble stays in your target triangle. Board Game Arena has no "
            "special rule; the turn limit ends such games."
        ),
        choices=(
            (BLOCKED_NONE, gettext_noop("Nothing special (Board Game Arena)")),
            (BLOCKED_FILLED, gettext_noop("A full target wins: opponents' marbles in it count as yours")),
            (BLOCKED_SWAP, gettext_noop("You may swap places with an opponent's marble in your target")),
        ),
    ),
    Option(
        name="maxTurns",
        kind="int",
        default=150,
        label=gettext_noop("Turn limit per player"),
        help=gettext_noop(
            "When every player has played this many turns, the game ends and players are ranked by score."
        ),
        minimum=10,
        maximum=10_000,
    ),
    Option(
        name="firstPlayer",
        kind="choice",
        default="random",
        label=gettext_noop("First player"),
        help=gettext_noop("Who moves first."),
        choices=(("random", gettext_noop("Drawn at random")), ("seat0", gettext_noop("The first seat"))),
    ),
    Option(
        name="targetLock",
        kind="bool",
        default=False,
        label=gettext_noop("Marbles stay in their target"),
        help=gettext_noop(
            "A marble that has reached its target triangle may only move within it, as in many printed "
            "rules (not on Board Game Arena)."
        ),
    ),
)

# One preset per player count (the start points of each are §2), every option at its default.
PRESETS: tuple[Preset, ...] = (
    Preset(key="2p", label=gettext_noop("2 players"), num_players=2, help=gettext_noop("Face to face.")),
    Preset(key="3p", label=gettext_noop("3 players"), num_players=3, help=gettext_noop("Every other point.")),
    Preset(
        key="4p", label=gettext_noop("4 players"), num_players=4, help=gettext_noop("Two opposite pairs.")
    ),
    Preset(
        key="6p",
        label=gettext_noop("6 players"),
        num_players=6,
        help=gettext_noop("Every point of the star."),
    ),
)


def cube_of(cell: int) -> list[int]:
    """The public form of a hole: a fresh ``[x, y, z]`` list."""
    return [*CELLS[cell]]


class ChineseCheckersRules:
    key = "chinesecheckers"
    name = gettext_noop("Chinese Checkers")  # "Dames chinoises", "Dama cinese": the site translates it
    min_players = 2
    max_players = 6
    options = OPTIONS
    presets = PRESETS
    play_now_players = 2
    player_counts = (2, 3, 4, 6)
    # A duel and a six-player race are different games: one rating pool per player count.
    rating_pools = tuple(RatingPool(f"{count}p", (count,)) for count in player_counts)

    # ----------------------------------------------------------------------------------------- setup

    def normalize_options(self, options: dict[str, JSON] | None, num_players: int) -> dict[str, JSON]:
        if isinstance(num_players, int) and not isinstance(num_players, bool) and num_players == 5:
            # §2 seats 2, 3, 4 or 6 players; five would leave one player without an opponent.
            raise InvalidOptions("player_count", "Chinese Checkers is played by 2, 3, 4 or 6 players, not 5")
        return normalize_with_schema(OPTIONS, options, num_players, self.min_players, self.max_players)

    def initial_state(self, options: dict[str, JSON], num_players: int) -> State:
        options = self.normalize_options(options, num_players)
        points = list(SEAT_POINTS[num_players])
        starts_now = options["firstPlayer"] == "seat0"
        return {
            "numPlayers": num_players,
            "options": options,
            "points": points,
            "board": geometry.initial_board(points),
            "turn": 0 if starts_now else None,
            "firstPlayer": 0 if starts_now else None,
            "ply": 0,
            "lastMove": None,
            "result": None,
        }

    # ----------------------------------------------------------------------------------------- who acts

    def to_act(self, state: State) -> frozenset[int]:
        if state["result"] is not None:
            return frozenset()
        if state["turn"] is None:
            return frozenset({CHANCE})
        return frozenset({state["turn"]})

    def awaited(self, state: State) -> frozenset[int]:
        return self.to_act(state) - {CHANCE}

    def legal_actions(self, state: State, seat: int) -> list[Action]:
        if state["result"] is not None or state["turn"] is None or seat != state["turn"]:
            return []
        viewed = _last_viewed_moves
        if viewed is not None and viewed[0] == _position_of(state, seat):
            return [{"type": "move", "from": [*move["from"]], "to": [*move["to"]]} for move in viewed[1]] or [
                {"type": "pass"}
            ]
        actions: list[Action] = [
            {
                "type": "move",
                "from": [*CELLS[origin]],
                "to": [*CELLS[destination]],
            }  # cube_of, inlined for speed
            for origin, destinations in _moves_of(state, seat)
            for destination in sorted(destinations)
        ]
        return actions or [{"type": "pass"}]

    def canonical_action(self, state: State, seat: int, action: JSON) -> Action:
        """The SDK's default canonical form (``canonical_by_legal_actions``: the same result and the same refusals
        for every action) without listing every legal action: only the moved marble's destinations are searched.
        A move is its (from, to) and a pass has no field, so the listed action with the same effect is the one
        with the same (from, to), or the pass."""
        if not isinstance(action, dict):
            raise MalformedAction("not_an_object", "an action is a JSON object")
        if _in_turn(state, seat):
            listed = _listed_as_sent(state, seat, action)
            if listed is not None:
                return listed
        self.apply_action(state, seat, action)  # the rules' own refusal, as the default asks them first
        kind = action["type"]
        if kind == "pass":  # accepted: no marble can move, so the pass is the one listed action
            return {"type": "pass"}
        if kind == "move":
            origin, destination = INDEX[_cell_field(action, "from")], INDEX[_cell_field(action, "to")]
            if _listed_move(state, seat, origin, destination):
                return {"type": "move", "from": cube_of(origin), "to": cube_of(destination)}
        raise IllegalAction("not_legal", "the action is not one of the seat's legal actions")

    def sample_chance(self, state: State, rng: random.Random) -> Action:
        return {"type": "first_player", "seat": rng.randrange(state["numPlayers"])}

    def action_delay_ms(self, state: State, seat: int, action: Action) -> int:
        return 0

    # ----------------------------------------------------------------------------------------- actions

    def apply_action(self, state: State, seat: int, action: Action) -> tuple[State, list[Event]]:
        kind = _action_type(action)
        if kind == "first_player":
            return self._apply_first_player(state, seat, _seat_field(action))
        cells = (_cell_field(action, "from"), _cell_field(action, "to")) if kind == "move" else None
        self._check_turn(state, seat)
        if cells is None:
            return self._apply_pass(state, seat)
        return self._apply_move(state, seat, *cells)

    def _check_turn(self, state: State, seat: int) -> None:
        if state["result"] is not None:
            raise IllegalAction("game_over", "the game is over")
        if seat == CHANCE:
            raise IllegalAction("not_your_turn", "chance only draws the first player")
        if state["turn"] is None:
            raise IllegalAction("chance_pending", "the first player has not been drawn yet")
        if seat != state["turn"]:
            raise IllegalAction("not_your_turn", f"it is seat {state['turn']}'s turn")

    def _apply_first_player(self, state: State, seat: int, first: int) -> tuple[State, list[Event]]:
        if seat != CHANCE:
            raise IllegalAction("not_chance", "only chance draws the first player")
        if state["result"] is not None:
            raise IllegalAction("game_over", "the game is over")
        if state["turn"] is not None:
            raise IllegalAction("no_chance_pending", "the first player is already known")
        if not 0 <= first < state["numPlayers"]:
            raise IllegalAction("no_such_seat", f"there is no seat {first}")
        new_state = {**state, "turn": first, "firstPlayer": first}
        return new_state, [{"type": "first_player", "seat": first, "visible_to": None}]

    def _apply_pass(self, state: State, seat: int) -> tuple[State, list[Event]]:
        if any(destinations for _origin, destinations in _moves_of(state, seat)):
            raise IllegalAction("must_move", "you may only pass when no marble can move")
        events: list[Event] = [{"type": "pass", "seat": seat, "visible_to": None}]
        return _end_ply({**state, "lastMove": None}, seat, events)

    def _apply_move(
        self, state: State, seat: int, origin_cube: Cube, to_cube: Cube
    ) -> tuple[State, list[Event]]:
        origin, destination = _board_index(origin_cube), _board_index(to_cube)
        board = state["board"]
        if board[origin] != SEAT_CHARS[seat]:
            raise IllegalAction("not_your_marble", f"there is no marble of yours at {list(origin_cube)}")
        paths = _marble_paths(state, seat, origin)
        if destination not in paths:
            raise IllegalAction("illegal_destination", f"that marble cannot move to {list(to_cube)}")
        point = state["points"][seat]
        before = geometry.score(board, seat, point)
        swapped_with = None if board[destination] == EMPTY else int(board[destination])
        board = geometry.place(board, destination, SEAT_CHARS[seat])
        # Swap rule: the opponent's marble takes the hole the mover left.
        board = geometry.place(board, origin, EMPTY if swapped_with is None else SEAT_CHARS[swapped_with])
        after = geometry.score(board, seat, point)
        last_move = {
            "seat": seat,
            "from": origin,
            "to": destination,
            "path": paths[destination],
            "swappedWith": swapped_with,
        }
        events: list[Event] = [
            {
                "type": "move",
                **_last_move_view(last_move),
                "hops": 0 if destination in geometry.NEIGHBOURS[origin] else len(paths[destination]),
                "scoreBefore": before,
                "score": after,
                "delta": after - before,
                "visible_to": None,
            }
        ]
        return _end_ply({**state, "board": board, "lastMove": last_move}, seat, events)

    # ----------------------------------------------------------------------------------------- views

    def view(self, state: State, seat: int | None) -> dict[str, JSON]:
        num_players = state["numPlayers"]
        board = state["board"]
        acting = state["result"] is None and seat is not None and seat == state["turn"]
        moves = _moves_with_paths(state, seat) if acting else []
        return {
            "game": self.key,
            "seat": seat,
            "numPlayers": num_players,
            "to_act": sorted(self.to_act(state)),
            "awaited": sorted(self.awaited(state)),
            "turn": state["turn"],
            "firstPlayer": state["firstPlayer"],
            "ply": state["ply"],
            "round": state["ply"] // num_players + 1,
            "maxTurns": state["options"]["maxTurns"],
            "maxPlies": _max_plies(state),
            "options": dict(state["options"]),
            "seats": [_seat_summary(board, player, point) for player, point in enumerate(state["points"])],
            "lastMove": _last_move_view(state["lastMove"]),
            "moves": moves,
            "canPass": acting and not moves,
            "result": _result_view(state["result"]),
        }

    def outcome(self, state: State) -> Outcome | None:
        result = state["result"]
        if result is None:
            return None
        scores = {seat: score for seat, score in enumerate(result["scores"])}
        return Outcome(
            ranking=[list(group) for group in result["ranking"]], reason=result["reason"], scores=scores
        )

    def timeout_action(self, state: State, seat: int) -> Action:
        """§6: the move that gains the most progress. Among equal gains: a marble still outside
        its target, then the destination nearest to a free hole of the target (so an auto-played seat brings
        its last marbles home instead of shuffling), then the marble furthest behind, then the lowest indices."""
        board = state["board"]
        point = state["points"][seat]
        progress = PROGRESS[point]
        target = TARGET_CELLS[point]
        moves = [(origin, to) for origin, destinations in _moves_of(state, seat) for to in destinations]
        if not moves:
            return {"type": "pass"}
        best_gain = max(progress[to] - progress[origin] for origin, to in moves)
        free_holes = [cell for cell in target if board[cell] == EMPTY]

        def preference(move: tuple[int, int]) -> tuple[bool, int, int, int, int]:
            origin, to = move
            nearest_free_hole = min((geometry.distance(to, hole) for hole in free_holes), default=0)
            return (origin in target, nearest_free_hole, progress[origin], origin, to)

        origin, to = min((m for m in moves if progress[m[1]] - progress[m[0]] == best_gain), key=preference)
        return {"type": "move", "from": cube_of(origin), "to": cube_of(to)}

    def determinize(self, state: State, seat: int | None, rng: random.Random) -> State:
        return copy.deepcopy(state)  # nothing is hidden


# --------------------------------------------------------------------------------------------- helpers


def _rule_flags(state: State) -> dict[str, bool]:
    options = state["options"]
    return {"target_lock": options["targetLock"], "swap": options["blockedTargetRule"] == BLOCKED_SWAP}


def _moves_of(state: State, seat: int) -> list[tuple[int, set[int]]]:
    return generate_moves(state["board"], seat, state["points"][seat], **_rule_flags(state))


def _in_turn(state: State, seat: int) -> bool:
    """Whether ``seat`` has legal actions (``legal_actions`` lists none otherwise)."""
    return state["result"] is None and state["turn"] is not None and seat == state["turn"]


def _listed_move(state: State, seat: int, origin: int, destination: int) -> bool:
    """Whether ``legal_actions`` lists the move from ``origin`` to ``destination`` (the seat is in turn)."""
    found = generate_moves(state["board"], seat, state["points"][seat], only=origin, **_rule_flags(state))
    return bool(found) and destination in found[0][1]


def _listed_as_sent(state: State, seat: int, action: dict) -> Action | None:
    """A fresh copy of the listed legal action ``action`` is, field for field with the same JSON types (as
    ``tapete_sdk.plugin.same_json`` compares them), or None."""
    if action == {"type": "pass"} and type(action["type"]) is str:
        return (
            {"type": "pass"}
            if not any(destinations for _origin, destinations in _moves_of(state, seat))
            else None
        )
    if action.keys() != {"type", "from", "to"} or action["type"] != "move" or type(action["type"]) is not str:
        return None
    cells = []
    for field in ("from", "to"):
        value = action[field]
        if type(value) is not list or len(value) != 3 or any(type(v) is not int for v in value):
            return None
        cell = INDEX.get((value[0], value[1], value[2]))
        if cell is None:
            return None
        cells.append(cell)
    origin, destination = cells
    if not _listed_move(state, seat, origin, destination):
        return None
    return {"type": "move", "from": cube_of(origin), "to": cube_of(destination)}


def _marble_paths(state: State, seat: int, origin: int) -> dict[int, list[int]]:
    return marble_moves(state["board"], seat, state["points"][seat], origin, **_rule_flags(state))


# A frame gives the seat to act its view, which lists its moves with their paths, then its legal actions, the same
# moves without them: legal_actions takes the moves of the position whose view was built last rather than search
# them again (a fifth of the CPU of a Chinese Checkers mover's frame). One entry, replaced whole, so threads that
# share it see a position and its own moves or nothing.
_last_viewed_moves: tuple[tuple, list[dict[str, JSON]]] | None = None


def _position_of(state: State, seat: int) -> tuple:
    """What a seat's moves depend on: the board, the seat, its start point and the two options that change them."""
    options = state["options"]
    return (state["board"], seat, state["points"][seat], options["targetLock"], options["blockedTargetRule"])


def _moves_with_paths(state: State, seat: int) -> list[dict[str, JSON]]:
    # Built on every move for the seat to act (its view): cube_of is inlined, as in legal_actions.
    global _last_viewed_moves
    board = state["board"]
    moves = []
    add = moves.append
    for origin, paths in moves_with_paths(board, seat, state["points"][seat], **_rule_flags(state)):
        cube = CELLS[origin]
        for destination in sorted(paths):
            add(
                {
                    "from": [*cube],
                    "to": [*CELLS[destination]],
                    "path": [[*CELLS[cell]] for cell in paths[destination]],
                    "swap": board[destination] != EMPTY,
                }
            )
    _last_viewed_moves = (_position_of(state, seat), moves)
    return moves


def _seat_summary(board: str, seat: int, point: int) -> dict[str, JSON]:
    cells = geometry.marbles(board, seat)
    return {
        "seat": seat,
        "start": point,
        "target": opposite(point),
        "score": sum(map(PROGRESS[point].__getitem__, cells)) + geometry.SCORE_OFFSET,
        "home": len(TARGET_CELLS[point].intersection(cells)),
        "marbles": [[*CELLS[cell]] for cell in cells],
    }


def _last_move_view(last_move: dict[str, JSON] | None) -> dict[str, JSON] | None:
    if last_move is None:
        return None
    return {
        "seat": last_move["seat"],
        "from": cube_of(last_move["from"]),
        "to": cube_of(last_move["to"]),
        "path": [cube_of(cell) for cell in last_move["path"]],
        "swappedWith": last_move["swappedWith"],
    }


def _result_view(result: dict[str, JSON] | None) -> dict[str, JSON] | None:
    if result is None:
        return None
    return {
        **result,
        "ranking": [list(group) for group in result["ranking"]],
        "scores": list(result["scores"]),
    }


def _max_plies(state: State) -> int:
    return state["options"]["maxTurns"] * state["numPlayers"]


def _has_won(state: State, seat: int) -> str | None:
    """§4: all ten marbles home; §5 occupiedCountsAsFilled: a full target holding one of yours."""
    board = state["board"]
    own = SEAT_CHARS[seat]
    target = TARGET_CELLS[state["points"][seat]]
    if all(board[cell] == own for cell in target):
        return REASON_ALL_HOME
    if (
        state["options"]["blockedTargetRule"] == BLOCKED_FILLED
        and all(board[cell] != EMPTY for cell in target)
        and any(board[cell] == own for cell in target)
    ):
        return REASON_TARGET_FILLED
    return None


def _first_winner(state: State, mover: int) -> tuple[int, str] | None:
    """The mover first, then the others in turn order: the first to reach its goal wins at once."""
    num_players = state["numPlayers"]
    for offset in range(num_players):
        seat = (mover + offset) % num_players
        reason = _has_won(state, seat)
        if reason is not None:
            return seat, reason
    return None


def _end_ply(state: State, seat: int, events: list[Event]) -> tuple[State, list[Event]]:
    """After a move or pass: a winner ends the game at once (§4), then the turn limit (§5
    maxTurns), else the next seat in turn order plays."""
    state = {**state, "ply": state["ply"] + 1}
    winner = _first_winner(state, seat)
    if winner is not None:
        seat_won, reason = winner
        events.append({"type": "win", "seat": seat_won, "reason": reason, "visible_to": None})
        return _finish(state, reason, seat_won, events)
    if state["ply"] >= _max_plies(state):
        return _finish(state, REASON_MAX_TURNS, None, events)
    return {**state, "turn": (seat + 1) % state["numPlayers"]}, events


def _finish(state: State, reason: str, winner: int | None, events: list[Event]) -> tuple[State, list[Event]]:
    """End the game: the winner alone first (if any), everyone else by score, equal scores sharing a rank."""
    board = state["board"]
    scores = [geometry.score(board, seat, point) for seat, point in enumerate(state["points"])]
    others = [seat for seat in range(state["numPlayers"]) if seat != winner]
    ranking = [[winner]] if winner is not None else []
    for value in sorted({scores[seat] for seat in others}, reverse=True):
        ranking.append([seat for seat in others if scores[seat] == value])
    result = {"reason": reason, "winner": winner, "ranking": ranking, "scores": scores}
    events.append({"type": "game_over", **_result_view(result), "visible_to": None})
    return {**state, "turn": None, "result": result}, events


# --------------------------------------------------------------------------------------------- validation


def _action_type(action: object) -> str:
    if not isinstance(action, dict):
        raise MalformedAction("not_an_object", "an action must be a JSON object")
    kind = action.get("type")
    if kind not in ("move", "pass", "first_player"):
        raise MalformedAction("unknown_type", f"unknown action type {kind!r}")
    return kind


def _cell_field(action: Action, field: str) -> Cube:
    value = action.get(field)
    if (
        not isinstance(value, list)
        or len(value) != 3
        or any(isinstance(v, bool) or not isinstance(v, int) for v in value)
        or sum(value) != 0
    ):
        raise MalformedAction(
            "bad_cell", f"{field!r} must be a cell [x, y, z] of integers with x + y + z = 0"
        )
    return (value[0], value[1], value[2])


def _seat_field(action: Action) -> int:
    value = action.get("seat")
    if isinstance(value, bool) or not isinstance(value, int):
        raise MalformedAction("bad_seat", "'seat' must be an integer")
    return value


def _board_index(cube: Cube) -> int:
    index = INDEX.get(cube)
    if index is None:
        raise IllegalAction("off_board", f"{list(cube)} is not a hole of the board")
    return index


RULES = ChineseCheckersRules()
