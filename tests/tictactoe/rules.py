"""Tic-tac-toe through the game-plugin contract, with nothing but the required members.

Two players mark the squares of a 3x3 board in turn, seat 0 first; three marks in a row win, a full board is a
draw. State: ``{"board": [None | seat] * 9, "turn": seat | None}``. Action: ``{"type": "mark", "cell": 0..8}``.
There is no chance, nothing hidden, no option and no declaration: the contract's defaults serve it.
"""

from __future__ import annotations

from tapete_sdk.plugin import IllegalAction, MalformedAction, Outcome, gettext_noop, normalize_with_schema

LINES = ((0, 1, 2), (3, 4, 5), (6, 7, 8), (0, 3, 6), (1, 4, 7), (2, 5, 8), (0, 4, 8), (2, 4, 6))


def _winner(board: list) -> int | None:
    for a, b, c in LINES:
        if board[a] is not None and board[a] == board[b] == board[c]:
            return board[a]
    return None


class TicTacToeRules:
    key = "tictactoe"
    name = gettext_noop("Tic-tac-toe")
    min_players = 2
    max_players = 2
    options = ()

    def normalize_options(self, options, num_players):
        return normalize_with_schema(self.options, options, num_players, self.min_players, self.max_players)

    def initial_state(self, options, num_players):
        return {"board": [None] * 9, "turn": 0}

    def to_act(self, state):
        return frozenset() if state["turn"] is None else frozenset({state["turn"]})

    def awaited(self, state):
        return self.to_act(state)

    def legal_actions(self, state, seat):
        if seat != state["turn"]:
            return []
        return [{"type": "mark", "cell": cell} for cell, mark in enumerate(state["board"]) if mark is None]

    def sample_chance(self, state, rng):
        raise IllegalAction("no_chance", "tic-tac-toe has no chance step")

    def apply_action(self, state, seat, action):
        if not isinstance(action, dict) or action.get("type") != "mark":
            raise MalformedAction("unknown_action", "the only action is a mark")
        cell = action.get("cell")
        if isinstance(cell, bool) or not isinstance(cell, int) or not 0 <= cell < 9:
            raise MalformedAction("bad_cell", "cell is an integer from 0 to 8")
        if seat != state["turn"]:
            raise IllegalAction("not_your_turn", "it is not your turn")
        if state["board"][cell] is not None:
            raise IllegalAction("cell_taken", "that square is taken")
        board = list(state["board"])
        board[cell] = seat
        over = _winner(board) is not None or None not in board
        events = [{"type": "marked", "seat": seat, "cell": cell, "visible_to": None}]
        return {"board": board, "turn": None if over else 1 - seat}, events

    def view(self, state, seat):
        return {
            "board": list(state["board"]),
            "turn": state["turn"],
            "seat": seat,
            "winner": _winner(state["board"]),
        }

    def outcome(self, state):
        if state["turn"] is not None:
            return None
        winner = _winner(state["board"])
        if winner is None:
            return Outcome(ranking=[[0, 1]], reason="draw")
        return Outcome(ranking=[[winner], [1 - winner]], reason="three_in_a_row")

    def timeout_action(self, state, seat):
        return self.legal_actions(state, seat)[0]

    def determinize(self, state, seat, rng):
        return state  # nothing is hidden

    def action_delay_ms(self, state, seat, action):
        return 0


RULES = TicTacToeRules()
