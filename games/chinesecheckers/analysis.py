"""Chinese Checkers' post-game analysis: each move against the hard computer player's choice.

Nothing is hidden in this game. For every move, the hard bot (``games/chinesecheckers/bots.py``, seeded by the
match and step so the analysis is reproducible) is asked what it would have played from the same position. A
move's **progress** is the number of steps its marble came nearer its target's tip (``board.distance``: the rows
to go plus a penalty for drifting sideways); a move **gave up** the difference between the bot's choice's
progress and its own, when positive. The moves that gave up the most are listed per player.

Pure, like the rules (the contract is ``tapete_sdk.plugin.PostGameAnalysis``): the site puts it into words with
``analysis_words.py``.
"""

from __future__ import annotations

import random

from tapete_sdk.plugin import CHANCE, LogRow

from games.chinesecheckers import board
from games.chinesecheckers.bots import LEVELS

WORST_LISTED = 3


def progress(view: dict, action: dict) -> int:
    """Steps the moved marble came nearer its target tip."""
    tip = board.TIPS[view["seats"][view["seat"]]["target"]]
    start, end = board.INDEX[tuple(action["from"])], board.INDEX[tuple(action["to"])]
    return board.distance(start, tip) - board.distance(end, tip)


def analyse(rules, options: dict, num_players: int, log: list[LogRow], *, seed: str) -> dict:
    """The contract's ``analyse`` (``tapete_sdk.plugin.PostGameAnalysis``): the hard player is seeded from the match's
    ``seed`` and the step, so the analysis is the same every time."""
    state = rules.initial_state(options, num_players)
    moves: list[dict] = []
    hard = LEVELS["hard"]
    for step, version, seat, action in log:
        if seat != CHANCE and action.get("type") == "move":
            view = rules.view(state, seat)
            legal = rules.legal_actions(state, seat)
            preferred = hard(view, legal, random.Random(f"{seed}:analysis:{step}"))
            played, best = progress(view, action), progress(view, preferred)
            moves.append(
                {
                    "step": step,
                    "version": version,
                    "seat": seat,
                    "action": {"from": action["from"], "to": action["to"]},
                    "progress": played,
                    "preferred": {"from": preferred["from"], "to": preferred["to"]},
                    "preferred_progress": best,
                    "same_as_preferred": (preferred["from"], preferred["to"])
                    == (action["from"], action["to"]),
                    "given_up": max(0, best - played),
                }
            )
        state, _events = rules.apply_action(state, seat, action)
    return {
        "game": "chinesecheckers",
        "moves": moves,
        "players": [_player(seat, moves) for seat in range(num_players)],
    }


def _player(seat: int, moves: list[dict]) -> dict:
    own = [move for move in moves if move["seat"] == seat]
    worst = sorted((move for move in own if move["given_up"] > 0), key=lambda move: -move["given_up"])
    return {
        "seat": seat,
        "moves": len(own),
        "agreed": sum(1 for move in own if move["same_as_preferred"]),
        "given_up": sum(move["given_up"] for move in own),
        "worst": [move["version"] for move in worst[:WORST_LISTED]],  # the replay steps
    }
