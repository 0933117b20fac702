"""The test-only game's post-game analysis (``tapete_sdk.plugin.PostGameAnalysis``): for each mark, whether it took
a winning square, missed one, blocked the opponent's line or left it open.

Before each mark, the mover's **wins** are the empty squares that complete a line of two of their own marks, and
the **threats** the empty squares that complete a line of two of the opponent's. A mark on a win ``won``; a mark
elsewhere while there was a win ``missed_win``; else a mark on a threat ``blocked``, a mark elsewhere while there
was a threat ``missed_block``, and any other mark is ``quiet``. Per player: the wins and blocks missed.
"""

from __future__ import annotations

from tapete_sdk.plugin import LogRow

from tests.tictactoe.rules import LINES


def completing(board: list, seat: int) -> list[int]:
    """The empty squares that would complete a line of ``seat``'s, in order."""
    squares = set()
    for line in LINES:
        marks = [board[cell] for cell in line]
        if marks.count(seat) == 2 and marks.count(None) == 1:
            squares.add(line[marks.index(None)])
    return sorted(squares)


def verdict(cell: int, wins: list[int], threats: list[int]) -> str:
    if wins:
        return "won" if cell in wins else "missed_win"
    if threats:
        return "blocked" if cell in threats else "missed_block"
    return "quiet"


def analyse(rules, options: dict, num_players: int, log: list[LogRow], *, seed: str = "") -> dict:
    """Nothing is drawn in tic-tac-toe, so ``seed`` is unused."""
    state = rules.initial_state(options, num_players)
    moves = []
    for step, version, seat, action in log:
        wins, threats = completing(state["board"], seat), completing(state["board"], 1 - seat)
        moves.append(
            {
                "step": step,
                "version": version,
                "seat": seat,
                "cell": action["cell"],
                "wins": wins,
                "threats": threats,
                "verdict": verdict(action["cell"], wins, threats),
            }
        )
        state, _events = rules.apply_action(state, seat, action)
    players = [
        {
            "seat": seat,
            "missed_wins": sum(move["seat"] == seat and move["verdict"] == "missed_win" for move in moves),
            "missed_blocks": sum(
                move["seat"] == seat and move["verdict"] == "missed_block" for move in moves
            ),
        }
        for seat in range(num_players)
    ]
    return {"moves": moves, "players": players}
