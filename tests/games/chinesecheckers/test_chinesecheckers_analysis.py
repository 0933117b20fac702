"""Chinese Checkers' post-game analysis (games/chinesecheckers/analysis.py): a move's progress against the hard
computer player's choice from the same position."""

from __future__ import annotations

import random

from tapete_sdk.plugin import CHANCE

from games.chinesecheckers import analysis
from games.chinesecheckers.rules import RULES as CC


def test_progress_against_the_hard_bot():
    options = CC.normalize_options({"maxTurns": 15}, 2)
    state = CC.initial_state(options, 2)
    chance = CC.sample_chance(state, random.Random(1))
    state, _ = CC.apply_action(state, CHANCE, chance)
    seat = min(CC.to_act(state))
    view = CC.view(state, seat)
    legal = CC.legal_actions(state, seat)
    worst = min(legal, key=lambda action: analysis.progress(view, action))
    data = analysis.analyse(CC, options, 2, [(1, 1, CHANCE, chance), (2, 2, seat, worst)], seed="s")
    (move,) = data["moves"]
    assert move["progress"] == analysis.progress(view, worst)
    # At the opening the hard bot moves forward (a step, or a hop over its front row): the worst move gave that up.
    assert (
        move["preferred_progress"] >= 1 and move["given_up"] == move["preferred_progress"] - move["progress"]
    )
    assert data["players"][seat]["worst"] == ([2] if move["given_up"] else [])
