"""The computer opponents (games/chinesecheckers/bots.py): legal, blind to the state, finishing 6-player games (the
two-player pairings, their length and the order of the levels: test_chinesecheckers_endgame.py)."""

import copy
import json
import random

import pytest
from chinesecheckers_helpers import cubes_of_point, new_game, position
from tapete_sdk.plugin import CHANCE

from games.chinesecheckers import board as geometry
from games.chinesecheckers import bots
from games.chinesecheckers.rules import RULES

LEVEL_NAMES = list(bots.LEVELS)
OPTION_SETS = [
    {},
    {"targetLock": True},
    {"blockedTargetRule": "swap"},
    {"blockedTargetRule": "occupiedCountsAsFilled", "firstPlayer": "seat0"},
]


def play_game(
    seat_levels: list[str], seed: int, options: dict | None = None, check=None, random_plies: int = 0
) -> dict:
    """Play one game to its end with ``seat_levels[s]`` on seat ``s``, after ``random_plies`` random moves (to
    reach odd positions); ``check(state, seat, legal, action)`` sees every bot decision. Returns the final state."""
    rng = random.Random(seed)
    num_players = len(seat_levels)
    state = RULES.initial_state(RULES.normalize_options(options or {}, num_players), num_players)
    while RULES.to_act(state):
        if CHANCE in RULES.to_act(state):
            state, _ = RULES.apply_action(state, CHANCE, RULES.sample_chance(state, rng))
            continue
        seat = state["turn"]
        legal = RULES.legal_actions(state, seat)
        if state["ply"] < random_plies:
            state, _ = RULES.apply_action(state, seat, rng.choice(legal))
            continue
        action = bots.LEVELS[seat_levels[seat]](RULES.view(state, seat), legal, rng)
        if check is not None:
            check(state, seat, legal, action)
        state, _ = RULES.apply_action(state, seat, action)
    return state


def assert_legal(state, seat, legal, action):
    assert any(action is candidate for candidate in legal), action


# ------------------------------------------------------------------------------------------- legality


@pytest.mark.parametrize("options", OPTION_SETS, ids=["default", "targetLock", "swap", "filled"])
@pytest.mark.parametrize("num_players", [2, 3, 4, 6])
def test_every_level_only_returns_legal_actions(num_players, options):
    """Short games (30 turns each) with every level seated at every player count; half of them start with a
    few rounds of random moves, which scatter marbles where bots would not put them."""
    offset = OPTION_SETS.index(options)
    levels = [LEVEL_NAMES[(seat + offset) % len(LEVEL_NAMES)] for seat in range(num_players)]
    random_plies = 6 * num_players if offset % 2 else 0
    final = play_game(
        levels, 10 * num_players + offset, {**options, "maxTurns": 30}, assert_legal, random_plies
    )
    assert final["result"] is not None


@pytest.mark.parametrize("level", LEVEL_NAMES)
def test_every_level_plays_whole_two_player_games_legally(level):
    for seed in range(2):
        final = play_game([level, "medium"], seed, check=assert_legal)
        assert final["result"]["reason"] == "all_home"


@pytest.mark.parametrize("level", LEVEL_NAMES)
def test_a_seat_without_moves_passes_and_a_seat_not_to_act_declines(level):
    jail = [geometry.CELLS[cell] for cell in geometry.NEIGHBOURS[geometry.INDEX[(0, 0, 0)]]]
    hops = [geometry.CELLS[land] for _over, land in geometry.JUMPS[geometry.INDEX[(0, 0, 0)]]]
    state = position({0: [(0, 0, 0)], 1: jail + hops}, num_players=2)
    legal = RULES.legal_actions(state, 0)
    assert legal == [{"type": "pass"}]
    assert bots.LEVELS[level](RULES.view(state, 0), legal, random.Random(0)) is legal[0]
    assert bots.LEVELS[level](RULES.view(state, 1), [], random.Random(0)) is None


# ------------------------------------------------------------------------------------------- blindness


def midgame_states() -> list[dict]:
    states = []
    for num_players, options in [(2, {}), (3, {"targetLock": True}), (6, {"blockedTargetRule": "swap"})]:
        rng = random.Random(num_players)
        state = new_game(num_players, **options)
        for ply in range(num_players * 12):
            seat = state["turn"]
            action = bots.choose_medium(RULES.view(state, seat), RULES.legal_actions(state, seat), rng)
            state, _ = RULES.apply_action(state, seat, action)
            if ply % 5 == 4:
                states.append(state)
    return states


@pytest.mark.parametrize("level", LEVEL_NAMES)
def test_decisions_depend_only_on_the_view(level):
    """Nothing is hidden, so determinize re-deals nothing; the decision must still be the same from a
    determinized state, from a JSON round trip of the view, and must not touch its inputs."""
    for index, state in enumerate(midgame_states()):
        seat = state["turn"]
        view, legal = RULES.view(state, seat), RULES.legal_actions(state, seat)
        view_before, legal_before = copy.deepcopy(view), copy.deepcopy(legal)
        decision = bots.LEVELS[level](view, legal, random.Random(index))
        assert (view, legal) == (view_before, legal_before)
        other = RULES.determinize(state, seat, random.Random(99))
        again = bots.LEVELS[level](
            RULES.view(other, seat), RULES.legal_actions(other, seat), random.Random(index)
        )
        assert again == decision
        round_trip = json.loads(json.dumps(view))
        assert bots.LEVELS[level](round_trip, copy.deepcopy(legal), random.Random(index)) == decision


def test_the_board_rebuilt_from_the_view_is_the_state_board():
    for state in midgame_states():
        seat = state["turn"]
        rebuilt = bots.read_view(RULES.view(state, seat))
        assert rebuilt.board == state["board"]
        assert rebuilt.point == state["points"][seat]
        flags = {"target_lock": rebuilt.target_lock, "swap": rebuilt.swap}
        assert flags == {
            "target_lock": state["options"]["targetLock"],
            "swap": state["options"]["blockedTargetRule"] == "swap",
        }
        legal = {
            (geometry.INDEX[tuple(a["from"])], geometry.INDEX[tuple(a["to"])])
            for a in RULES.legal_actions(state, seat)
        }
        assert set(bots.own_moves(rebuilt, rebuilt.board)) == legal


def test_play_matches_the_rules_including_swaps():
    state = new_game(2, blockedTargetRule="swap")
    rng = random.Random(5)
    for _ in range(80):
        seat = state["turn"]
        action = bots.choose_hard(RULES.view(state, seat), RULES.legal_actions(state, seat), rng)
        move = (geometry.INDEX[tuple(action["from"])], geometry.INDEX[tuple(action["to"])])
        expected = bots.play(state["board"], seat, move)
        state, _ = RULES.apply_action(state, seat, action)
        if state["result"] is not None:
            break
        assert state["board"] == expected


# ------------------------------------------------------------------------------------------- evaluation


def test_evaluation_wins_with_a_full_target_and_prefers_the_tip():
    point = 0
    target = sorted(geometry.TARGET_CELLS[point], key=lambda cell: bots.TIP_DISTANCE[point][cell])
    assert bots.evaluate(point, target) == bots.WIN
    tip, mouth = target[0], target[9]
    outside = next(cell for cell in geometry.NEIGHBOURS[mouth] if cell in geometry.HEXAGON_CELLS)
    assert bots.evaluate(point, target[:9] + [outside]) < bots.WIN
    # One hole left free: better at the mouth (the outside marble steps in) than at the tip.
    assert bots.evaluate(point, target[1:9] + [tip, outside]) > bots.evaluate(
        point, target[1:9] + [mouth, outside]
    )


def test_evaluation_counts_opponents_in_the_target_with_the_filled_rule():
    point = 0
    target = sorted(geometry.TARGET_CELLS[point])
    hexagon = sorted(geometry.HEXAGON_CELLS)

    def held(cells):
        return bots.target_mask(point, cells)

    assert bots.evaluate(point, target[:3] + hexagon[:7], held(target[3:])) == bots.WIN
    assert bots.evaluate(point, target[:3] + hexagon[:7], held(target[4:])) < bots.WIN
    assert bots.evaluate(point, hexagon[:10], held(target)) < bots.WIN  # one of the seat's own is needed


def test_evaluation_penalises_laggards():
    point = 0
    front, back = geometry.INDEX[(2, -1, -1)], geometry.INDEX[(-2, 1, 1)]
    middle = geometry.INDEX[(0, 0, 0)]
    together = [middle] * 10  # the evaluation only reads distances: cells may repeat here
    spread = [front] * 5 + [back] * 5  # the same total distance to the tip
    assert sum(bots.TIP_DISTANCE[point][c] for c in together) == sum(
        bots.TIP_DISTANCE[point][c] for c in spread
    )
    assert bots.evaluate(point, together) > bots.evaluate(point, spread)


@pytest.mark.parametrize("level", ["medium", "hard"])
def test_the_last_marble_goes_home_and_wins(level):
    home = cubes_of_point(3)  # seat 0 starts at T0 and targets T3
    last = home[-1]
    outside = next(
        geometry.CELLS[cell]
        for cell in geometry.NEIGHBOURS[geometry.INDEX[last]]
        if geometry.POINT_OF_CELL[cell] == geometry.HEXAGON
    )
    state = position({0: [cube for cube in home if cube != last] + [outside], 1: [(4, -4, 0)]}, num_players=2)
    action = bots.LEVELS[level](RULES.view(state, 0), RULES.legal_actions(state, 0), random.Random(0))
    assert (tuple(action["from"]), tuple(action["to"])) == (outside, last)


# ------------------------------------------------------------------------------------------- games


@pytest.mark.parametrize("level", ["easy", "medium"])
def test_six_player_games_finish(level):
    final = play_game([level] * 6, 7)
    assert final["result"]["reason"] == "all_home"


def test_a_six_player_game_with_hard_seats_finishes():
    final = play_game(["hard", "medium"] * 3, 8)
    assert final["result"]["reason"] == "all_home"


# Two-player games of every pairing of levels, their length and the order of the levels:
# test_chinesecheckers_endgame.py.
