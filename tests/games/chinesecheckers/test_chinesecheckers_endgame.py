"""No Chinese Checkers table hangs on a computer player: every pairing of levels finishes its games
well before ``maxTurns``, and a bot facing a player who parks a marble in its target uses what the
blocked-target rule in force allows (a swap, or filling the holes left), or makes way when it is the one in the
way. The same games check that the levels are in order."""

import itertools
import multiprocessing
import os
import random
from concurrent.futures import ProcessPoolExecutor

import pytest
from chinesecheckers_helpers import cubes_of_point, play, play_levels, position

from games.chinesecheckers import board as geometry
from games.chinesecheckers import bots
from games.chinesecheckers.rules import RULES

LEVEL_NAMES = list(bots.LEVELS)
RULE_NAMES = ["none", "swap", "occupiedCountsAsFilled"]
GAMES_PER_PAIR = 50


@pytest.fixture(scope="module")
def pool():
    """The games are independent and CPU-bound: one fresh process per core plays them."""
    with ProcessPoolExecutor(os.cpu_count() or 1, mp_context=multiprocessing.get_context("spawn")) as executor:
        yield executor


@pytest.mark.parametrize(("first", "second"), list(itertools.combinations_with_replacement(LEVEL_NAMES, 2)))
def test_no_pairing_of_levels_stalls_in_two_player_games(pool, first, second):
    """50 seeded games per pairing, seats alternating, the blocked-target rule cycling through the three and
    targetLock on in every fourth game: every game has a winner with all marbles home (or a filled target) within
    two thirds of the turn limit."""
    wins = {first: 0, second: 0}
    games = [
        (
            (first, second) if game % 2 == 0 else (second, first),
            19_000 + game,
            {"blockedTargetRule": RULE_NAMES[game % len(RULE_NAMES)], "targetLock": game % 4 == 3},
        )
        for game in range(GAMES_PER_PAIR)
    ]
    finals = pool.map(play_levels, *zip(*games, strict=True))
    for game, ((levels, _seed, _options), final) in enumerate(zip(games, finals, strict=True)):
        result = final["result"]
        assert result["reason"] in ("all_home", "target_filled"), (game, levels, result)
        assert final["ply"] < final["options"]["maxTurns"] * 2 * 2 // 3, (game, levels)
        wins[levels[result["winner"]]] += 1
    if first != second:  # the stronger level wins clearly (LEVEL_NAMES runs from weakest to strongest)
        assert wins[second] >= 0.75 * GAMES_PER_PAIR, wins


def parker(view, legal, rng):
    """A player who keeps one marble at the tip of its start (the opposite player's target) for the whole game,
    and plays its other marbles as the medium bot does."""
    start = view["seats"][view["seat"]]["start"]
    tip = list(geometry.CELLS[geometry.TIPS[start]])
    kept = [action for action in legal if action["type"] != "move" or list(action["from"]) != tip]
    return bots.choose_medium(view, kept or legal, rng)


@pytest.mark.parametrize("rule", ["swap", "occupiedCountsAsFilled"])
@pytest.mark.parametrize("level", LEVEL_NAMES)
def test_a_marble_parked_in_the_bots_target_does_not_stop_it(level, rule):
    """Swap: the bot swaps the parked marble out; occupiedCountsAsFilled: it fills the other holes and wins."""
    final = play([bots.LEVELS[level], parker], 1, {"blockedTargetRule": rule, "firstPlayer": "seat0"})
    result = final["result"]
    assert result["reason"] == ("all_home" if rule == "swap" else "target_filled")
    assert final["ply"] < final["options"]["maxTurns"] * 2 * 2 // 3
    if rule == "occupiedCountsAsFilled" or level != "easy":
        assert result["winner"] == 0


@pytest.mark.parametrize("level", LEVEL_NAMES)
def test_with_no_blocking_rule_a_parked_marble_ends_the_game_at_the_turn_limit_ranked_by_score(level):
    """BGA's rule (none): nothing removes a marble from its own start, so the game runs to maxTurns; the bot,
    nine marbles home, is ranked first by score."""
    final = play([bots.LEVELS[level], parker], 2, {"firstPlayer": "seat0", "maxTurns": 100})
    assert final["result"]["reason"] == "max_turns"
    assert final["result"]["ranking"][0] == [0]


@pytest.mark.parametrize("level", LEVEL_NAMES)
def test_a_bot_with_a_full_target_makes_way_for_a_trapped_opponent(level):
    """Seat 0 holds nine holes of its target; seat 1's last marble sits at the tip of its own start, walled in.
    Seat 0 moves a marble out so that it can leave; once it has, seat 0 goes back in and wins."""
    target = sorted(cubes_of_point(3), key=lambda cube: bots.TIP_DISTANCE[0][geometry.INDEX[cube]])
    tip, walls = target[0], target[1:]
    outside = next(
        geometry.CELLS[cell]
        for cell in geometry.NEIGHBOURS[geometry.INDEX[walls[-1]]]
        if geometry.POINT_OF_CELL[cell] == geometry.HEXAGON
    )
    seat1_home = cubes_of_point(0)[:9]
    state = position({0: walls + [outside], 1: [tip] + seat1_home}, num_players=2)
    assert bots.blockers(bots.read_view(RULES.view(state, 0))) == [geometry.INDEX[tip]]
    rng = random.Random(0)
    for _ply in range(200):
        seat = state["turn"]
        if seat is None:
            break
        choose = bots.LEVELS[level] if seat == 0 else bots.choose_medium
        state, _ = RULES.apply_action(
            state, seat, choose(RULES.view(state, seat), RULES.legal_actions(state, seat), rng)
        )
    assert state["result"] is not None and state["result"]["winner"] == 0
