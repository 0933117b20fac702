"""Spicy's post-game analysis (games/spicy/analysis.py): bluffs, and a challenge's odds counted by hand from the
challenger's view."""

from __future__ import annotations

import random
from collections import Counter

import pytest
from tapete_sdk.plugin import CHANCE

from games.spicy import analysis
from games.spicy.cards import DECK, claim_holds, number_holds
from games.spicy.rules import RULES as SPICY


def test_bluffs_and_challenge_odds_from_the_challengers_view():
    state = SPICY.initial_state(SPICY.normalize_options({"challengeGraceMs": 0}, 2), 2)
    shuffle = SPICY.sample_chance(state, random.Random(3))
    state, _ = SPICY.apply_action(state, CHANCE, shuffle)
    seat = min(SPICY.awaited(state))
    hand = state["hands"][seat]
    legal = SPICY.legal_actions(state, seat)
    bluff = next(
        a
        for a in legal
        if a["type"] == "play"
        and a["card"] == hand[0]
        and not claim_holds(
            a["card"], "both", (a["declare"]["spice"], a["declare"]["number"]), turn_it_up=False
        )
    )
    after, _ = SPICY.apply_action(state, seat, bluff)
    challenger = 1 - seat
    challenge = {"type": "challenge", "trait": "number"}
    log = [(1, 1, CHANCE, shuffle), (2, 2, seat, bluff), (3, 3, challenger, challenge)]
    data = analysis.analyse(SPICY, state["options"], 2, log)
    play, challenged = data["moves"]
    assert play["bluff"] is True and play["card"] == hand[0]
    # By hand: the deck less the challenger's own hand; count the cards whose number fails the declared one.
    unseen = Counter(DECK) - Counter(after["hands"][challenger])
    failing = sum(
        n
        for card, n in unseen.items()
        if not number_holds(card, bluff["declare"]["number"], turn_it_up=False)
    )
    assert challenged["p_success_own"] == pytest.approx(failing / sum(unseen.values()))
    assert challenged["won"] == (not number_holds(hand[0], bluff["declare"]["number"], turn_it_up=False))
    players = {player["seat"]: player for player in data["players"]}
    assert players[seat]["bluffs"] == 1 and players[challenger]["challenges"] == 1
