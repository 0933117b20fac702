"""Chinese Checkers through the plugin contract: its options, the chance step, the codes of refused actions,
views, events, timeout moves, and a game with no secret. The promises every game keeps (plain JSON, purity, replay,
random games that end and rank every seat...) are the shared conformance suite's: tests/sdk/test_conformance.py."""

import random

import pytest
from chinesecheckers_helpers import move, new_game, position
from tapete_sdk.plugin import CHANCE, IllegalAction, InvalidOptions, MalformedAction

from games.chinesecheckers import board as geometry
from games.chinesecheckers.rules import RULES

# ------------------------------------------------------------------------------------------ options


def test_default_options():
    assert RULES.normalize_options({}, 2) == {
        "blockedTargetRule": "none",
        "maxTurns": 150,
        "firstPlayer": "random",
        "targetLock": False,
    }


@pytest.mark.parametrize("num_players", [1, 5, 7, True, "2"])
def test_unsupported_player_counts_are_refused(num_players):
    with pytest.raises(InvalidOptions) as error:
        RULES.normalize_options({}, num_players)
    assert error.value.code == "player_count"


def test_five_players_are_refused_with_a_clear_message():
    with pytest.raises(InvalidOptions) as error:
        RULES.normalize_options({"maxTurns": "bad"}, 5)
    assert error.value.code == "player_count" and "2, 3, 4 or 6" in error.value.message


@pytest.mark.parametrize(
    ("options", "code"),
    [
        ({"blockedTargetRule": "capture"}, "option_choice"),
        ({"maxTurns": 5}, "option_range"),
        ({"maxTurns": None}, "option_required"),
        ({"maxTurns": True}, "option_type"),
        ({"targetLock": 1}, "option_type"),
        ({"firstPlayer": "youngest"}, "option_choice"),
        ({"speed": "fast"}, "option_unknown"),
    ],
)
def test_invalid_options_are_refused(options, code):
    with pytest.raises(InvalidOptions) as error:
        RULES.normalize_options(options, 2)
    assert error.value.code == code


# ------------------------------------------------------------------------------------------ chance


def test_a_random_first_player_is_a_chance_step():
    state = RULES.initial_state(RULES.normalize_options({}, 4), 4)
    assert RULES.to_act(state) == frozenset({CHANCE}) and RULES.awaited(state) == frozenset()
    assert all(RULES.legal_actions(state, seat) == [] for seat in range(4))
    chance = RULES.sample_chance(state, random.Random(3))
    assert chance["type"] == "first_player" and 0 <= chance["seat"] < 4
    after, events = RULES.apply_action(state, CHANCE, {"type": "first_player", "seat": 2})
    assert after["turn"] == 2 and after["firstPlayer"] == 2 and after["ply"] == 0
    assert events == [{"type": "first_player", "seat": 2, "visible_to": None}]
    assert RULES.to_act(after) == frozenset({2})


def test_chance_draws_every_seat_eventually():
    state = RULES.initial_state(RULES.normalize_options({}, 6), 6)
    rng = random.Random(1)
    assert {RULES.sample_chance(state, rng)["seat"] for _ in range(200)} == set(range(6))


def test_seat0_option_starts_without_chance():
    state = new_game(3)
    assert RULES.to_act(state) == frozenset({0}) and state["firstPlayer"] == 0


@pytest.mark.parametrize(
    ("seat", "action", "code"),
    [
        (0, {"type": "first_player", "seat": 1}, "not_chance"),
        (0, {"type": "move", "from": [5, -1, -4], "to": [4, 0, -4]}, "chance_pending"),
        (CHANCE, {"type": "first_player", "seat": 2}, "no_such_seat"),
        (CHANCE, {"type": "first_player", "seat": -1}, "no_such_seat"),
    ],
)
def test_chance_misuse_is_illegal(seat, action, code):
    state = RULES.initial_state(RULES.normalize_options({}, 2), 2)
    with pytest.raises(IllegalAction) as error:
        RULES.apply_action(state, seat, action)
    assert error.value.code == code


def test_chance_may_not_move_and_may_not_draw_twice():
    state = new_game(2)
    with pytest.raises(IllegalAction):
        RULES.apply_action(state, CHANCE, {"type": "first_player", "seat": 1})
    with pytest.raises(IllegalAction):
        RULES.apply_action(state, CHANCE, {"type": "move", "from": [5, -1, -4], "to": [4, 0, -4]})


# ------------------------------------------------------------------------------------------ validation


@pytest.mark.parametrize(
    ("action", "code"),
    [
        (["move"], "not_an_object"),
        ("pass", "not_an_object"),
        ({}, "unknown_type"),
        ({"type": "jump"}, "unknown_type"),
        ({"type": 3}, "unknown_type"),
        ({"type": "move", "to": [4, 0, -4]}, "bad_cell"),
        ({"type": "move", "from": [5, -1, -4]}, "bad_cell"),
        ({"type": "move", "from": [5, -1], "to": [4, 0, -4]}, "bad_cell"),
        ({"type": "move", "from": (5, -1, -4), "to": [4, 0, -4]}, "bad_cell"),
        ({"type": "move", "from": [5, -1, -4], "to": [4, 0, -3]}, "bad_cell"),
        ({"type": "move", "from": [5, -1, -4], "to": [4.0, 0, -4]}, "bad_cell"),
        ({"type": "move", "from": [5, -1, -4], "to": ["4", 0, -4]}, "bad_cell"),
        ({"type": "move", "from": [True, False, -1], "to": [4, 0, -4]}, "bad_cell"),
        ({"type": "move", "from": "5,-1,-4", "to": [4, 0, -4]}, "bad_cell"),
        ({"type": "first_player", "seat": "1"}, "bad_seat"),
        ({"type": "first_player", "seat": True}, "bad_seat"),
        ({"type": "first_player"}, "bad_seat"),
    ],
)
def test_malformed_actions_are_refused(action, code):
    with pytest.raises(MalformedAction) as error:
        RULES.apply_action(new_game(2), 0, action)
    assert error.value.code == code


@pytest.mark.parametrize(
    ("seat", "action", "code"),
    [
        (1, {"type": "move", "from": [-5, 1, 4], "to": [-4, 0, 4]}, "not_your_turn"),
        (1, {"type": "pass"}, "not_your_turn"),
        (0, {"type": "move", "from": [9, -5, -4], "to": [4, 0, -4]}, "off_board"),
        (0, {"type": "move", "from": [5, -1, -4], "to": [6, 6, -12]}, "off_board"),
        (0, {"type": "move", "from": [0, 0, 0], "to": [1, -1, 0]}, "not_your_marble"),
        (0, {"type": "move", "from": [-5, 1, 4], "to": [-4, 0, 4]}, "not_your_marble"),
        (0, {"type": "move", "from": [5, -1, -4], "to": [2, 2, -4]}, "illegal_destination"),
        (0, {"type": "move", "from": [8, -4, -4], "to": [7, -3, -4]}, "illegal_destination"),
        (0, {"type": "move", "from": [5, -1, -4], "to": [5, -1, -4]}, "illegal_destination"),
    ],
)
def test_illegal_actions_are_refused_with_specific_codes(seat, action, code):
    with pytest.raises(IllegalAction) as error:
        RULES.apply_action(new_game(2), seat, action)
    assert error.value.code == code


def test_actions_after_the_end_are_refused():
    state = play_to_the_end(new_game(2, maxTurns=10))
    for seat in range(2):
        with pytest.raises(IllegalAction) as error:
            RULES.apply_action(state, seat, {"type": "pass"})
        assert error.value.code == "game_over"


# ------------------------------------------------------------------------------------------ views and events


def test_the_view_shows_the_whole_board_and_the_moves_of_the_seat_to_act_only():
    state = new_game(3)
    view = RULES.view(state, 0)
    assert view["seat"] == 0 and view["turn"] == 0 and view["to_act"] == [0] and view["awaited"] == [0]
    assert [len(seat["marbles"]) for seat in view["seats"]] == [10, 10, 10]
    assert {tuple(c) for c in view["seats"][1]["marbles"]} == {
        geometry.CELLS[c] for c in geometry.POINT_CELLS[2]
    }
    assert len(view["moves"]) == 14 and all(m["path"][-1] == m["to"] for m in view["moves"])
    assert view["canPass"] is False and view["lastMove"] is None and view["result"] is None
    assert view["maxTurns"] == 150 and view["maxPlies"] == 450 and view["ply"] == 0 and view["round"] == 1
    assert RULES.view(state, 1)["moves"] == [] and RULES.view(state, None)["moves"] == []


def test_views_differ_only_by_the_viewer_there_is_no_secret():
    state = crowded(6, plies=30)
    public = strip_viewer(RULES.view(state, None))
    for seat in range(6):
        assert strip_viewer(RULES.view(state, seat)) == public


def strip_viewer(view):
    return {key: value for key, value in view.items() if key not in ("seat", "moves", "canPass")}


def test_the_last_move_and_its_event_carry_the_path_and_the_score_change():
    start = (0, 0, 0)
    state = position({0: [start], 1: [(1, -1, 0), (3, -2, -1)]})
    after, events = move(state, start, (4, -2, -2))
    event = events[0]
    assert event["path"] == [[2, -2, 0], [4, -2, -2]] and event["hops"] == 2
    assert event["seat"] == 0 and event["from"] == [0, 0, 0] and event["to"] == [4, -2, -2]
    assert event["delta"] == -4 and event["swappedWith"] is None and event["visible_to"] is None
    last = RULES.view(after, 1)["lastMove"]
    assert last == {
        "seat": 0,
        "from": [0, 0, 0],
        "to": [4, -2, -2],
        "path": event["path"],
        "swappedWith": None,
    }


def test_the_timeout_action_is_the_move_with_the_most_progress():
    # Seat 0 heads for X-: the two-hop chain west gains 4, every other move at most 1.
    start = (2, -2, 0)
    state = position({0: [start, (3, 0, -3)], 1: [(1, -1, 0), (-1, 0, 1)]})
    action = RULES.timeout_action(state, 0)
    assert action == {"type": "move", "from": [2, -2, 0], "to": [-2, 0, 2]}
    assert action in RULES.legal_actions(state, 0)


def test_the_timeout_action_prefers_a_marble_outside_its_target_among_equal_gains():
    # Both moves gain one row: going deeper inside the target, or coming closer from the centre.
    state = position({0: [(-5, 3, 2), (0, 0, 0)]})
    assert RULES.timeout_action(state, 0)["from"] == [0, 0, 0]


def test_the_timeout_action_walks_the_last_marble_towards_the_free_target_hole():
    # Nine marbles home, the free hole at one end of the front row, the last marble at the other end: no move
    # gains anything, so the marble moves sideways towards the hole rather than shuffling.
    free_hole = (-5, 1, 4)
    home = [geometry.CELLS[c] for c in geometry.POINT_CELLS[3] if geometry.CELLS[c] != free_hole]
    state = position({0: [*home, (-4, 4, 0)]})
    assert RULES.timeout_action(state, 0) == {"type": "move", "from": [-4, 4, 0], "to": [-4, 3, 1]}


def test_with_nothing_hidden_determinize_changes_nothing_and_no_move_waits_for_a_grace_period():
    state = crowded(4, plies=20)
    copy_ = RULES.determinize(state, 1, random.Random(1))
    assert copy_ == state and copy_ is not state
    assert RULES.action_delay_ms(state, state["turn"], RULES.timeout_action(state, state["turn"])) == 0


def test_every_event_is_public_there_is_no_secret():
    state = crowded(6, plies=40)
    rng = random.Random(5)
    for _ in range(60):
        seat = state["turn"]
        state, events = RULES.apply_action(state, seat, rng.choice(RULES.legal_actions(state, seat)))
        assert events and all(event["visible_to"] is None for event in events)


# ------------------------------------------------------------------------------------------ games


@pytest.mark.parametrize("num_players", [2, 3, 4, 6])
def test_timeout_moves_alone_bring_a_player_home_before_the_turn_limit(num_players):
    state = play_to_the_end(new_game(num_players))
    outcome = RULES.outcome(state)
    assert outcome.reason == "all_home", outcome
    assert outcome.scores[outcome.ranking[0][0]] == 120


# ------------------------------------------------------------------------------------------ helpers


def crowded(num_players, plies, seed=1):
    rng = random.Random(seed)
    state = new_game(num_players)
    for _ in range(plies):
        seat = state["turn"]
        state, _events = RULES.apply_action(state, seat, rng.choice(RULES.legal_actions(state, seat)))
    return state


def play_to_the_end(state):
    while RULES.to_act(state):
        seat = state["turn"]
        state, _events = RULES.apply_action(state, seat, RULES.timeout_action(state, seat))
    return state
