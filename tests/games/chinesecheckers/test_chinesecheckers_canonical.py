"""Chinese Checkers' own ``canonical_action`` gives, for every action, what the SDK's default
(``canonical_by_legal_actions``, which lists every legal action) gives: the same canonical form, or the same refusal
with the same code and message; and ``generate_moves(only=origin)`` is that origin's entry of the full search."""

import random

import pytest
from tapete_sdk.plugin import CHANCE, RulesError, canonical_by_legal_actions, same_json

from games.chinesecheckers import board as geometry
from games.chinesecheckers.rules import RULES


def _positions(num_players: int, options: dict, seed: int, plies: int) -> list[dict]:
    """Positions of one game: mostly the timeout move (it brings marbles home, where targetLock and swap bite),
    sometimes a random one; a random first player, so the chance step's position comes first."""
    rng = random.Random(seed)
    state = RULES.initial_state(RULES.normalize_options(options, num_players), num_players)
    positions = [state]
    state, _events = RULES.apply_action(state, CHANCE, RULES.sample_chance(state, rng))
    for _ in range(plies):
        positions.append(state)
        if state["result"] is not None:
            break
        seat = state["turn"]
        legal = RULES.legal_actions(state, seat)
        action = RULES.timeout_action(state, seat) if rng.random() < 0.8 else rng.choice(legal)
        state, _events = RULES.apply_action(state, seat, action)
    positions.append(state)
    return positions


def _probes(state: dict, rng: random.Random) -> list[tuple[int, object]]:
    """Actions sent as listed, re-spelled, illegal and malformed, by every seat and by chance."""
    seats = [*range(state["numPlayers"]), CHANCE]
    cells = [list(cell) for cell in geometry.CELLS]
    probes: list[tuple[int, object]] = []
    for seat in seats:
        legal = RULES.legal_actions(state, seat)
        for action in rng.sample(legal, min(4, len(legal))):
            probes += [
                (seat, action),
                (seat, {**action, "path": [[0, 0, 0]], "junk": True}),
                (seat, {key: action[key] for key in reversed(action)}),
            ]
            if action["type"] == "move":
                probes += [
                    (seat, {**action, "from": [float(v) for v in action["from"]]}),
                    (seat, {**action, "to": [*action["to"], 0]}),
                    (seat, {**action, "from": action["to"], "to": action["from"]}),
                    (seat, {"type": "move", "from": action["from"]}),
                    (seat, {**action, "type": "pass"}),
                ]
        own = [cell for cell, char in enumerate(state["board"]) if char == geometry.SEAT_CHARS[seat % 6]]
        for _ in range(6):
            origin = rng.choice(own) if own and rng.random() < 0.7 else rng.randrange(geometry.CELL_COUNT)
            probes.append((seat, {"type": "move", "from": cells[origin], "to": rng.choice(cells)}))
        probes += [
            (seat, {"type": "pass"}),
            (seat, {"type": "pass", "seat": seat}),
            (seat, {"type": "first_player", "seat": 0}),
            (seat, {"type": "first_player", "seat": True}),
            (seat, {"type": "move", "from": [9, -9, 0], "to": [0, 0, 0]}),
            (seat, {"type": "move", "from": [True, 0, -1], "to": [0, 0, 0]}),
            (seat, {"type": "move", "from": (0, 0, 0), "to": [0, 0, 0]}),
            (seat, {"type": "jump"}),
            (seat, {}),
            (seat, ["move"]),
            (seat, None),
        ]
    return probes


def _outcome(function, state: dict, seat: int, action: object):
    try:
        return "canonical", function(state, seat, action)
    except RulesError as error:
        return type(error).__name__, error.code, error.message


@pytest.mark.parametrize(
    ("num_players", "options"),
    [
        (2, {}),
        (2, {"targetLock": True}),
        (2, {"blockedTargetRule": "swap"}),
        (3, {"blockedTargetRule": "occupiedCountsAsFilled", "maxTurns": 20}),
        (4, {"blockedTargetRule": "swap", "targetLock": True}),
        (6, {"maxTurns": 30}),
    ],
)
def test_the_own_canonical_form_is_the_defaults_for_every_action(num_players, options):
    rng = random.Random(num_players)
    for seed in range(2):
        for state in _positions(num_players, {**options, "firstPlayer": "random"}, seed, plies=160):
            for seat, action in _probes(state, rng):
                own = _outcome(RULES.canonical_action, state, seat, action)
                default = _outcome(
                    lambda *args: canonical_by_legal_actions(RULES, *args), state, seat, action
                )
                assert own[0] == default[0] and (own[1:] == default[1:] if own[0] != "canonical" else True), (
                    action,
                    own,
                    default,
                )
                if own[0] == "canonical":
                    assert same_json(own[1], default[1]) and list(own[1]) == list(default[1]), (
                        action,
                        own,
                        default,
                    )


@pytest.mark.parametrize("options", [{}, {"blockedTargetRule": "swap", "targetLock": True}])
def test_the_search_of_one_origin_is_its_entry_of_the_full_search(options):
    for state in _positions(4, options, seed=7, plies=200)[::5]:
        point_of = state["points"]
        flags = {
            "target_lock": state["options"]["targetLock"],
            "swap": state["options"]["blockedTargetRule"] == "swap",
        }
        for seat in range(state["numPlayers"]):
            full = dict(geometry.generate_moves(state["board"], seat, point_of[seat], **flags))
            for origin in range(geometry.CELL_COUNT):
                alone = geometry.generate_moves(state["board"], seat, point_of[seat], only=origin, **flags)
                assert alone == ([(origin, full[origin])] if origin in full else [])
