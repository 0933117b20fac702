"""An exact solver for two-player Perudo endgames: CFR+ over one round, on the rules engine itself.

A duel is a chain of rounds. Each round starts from a public position (the opener's dice, the other player's dice,
whether it is the opener's Palifico round, who has used their Palifico) and ends in a reveal that leads to the next
position or to the end of the game. A round is solved as a zero-sum game whose payoff is the opener's chance of
winning the *game*: the value of the position the reveal leads to. Positions are solved from the fewest dice up,
so those values are known. With Calza a correct call gives a die back and leads beyond the solved positions,
which :func:`outside_value` then values roughly: the Calza set's figures hold for that stand-in.

What comes from the engine (``games/perudo/rules.py``), never rewritten here:

* the **legal bids** of every node of the round: the tree is grown by ``RULES.legal_actions`` and
  ``RULES.apply_action`` from a real state (the quantity limit aside: bids above the dice in play are left out,
  since they are certainly false and a Dudo answers them with a sure win, so they are dominated);
* the **showdown**: every terminal (the last bid, who called, Dudo or Calza) is resolved by
  ``RULES.apply_action`` for *every* pair of hands, and the next position is read from the state the engine leaves
  (dice counts, the next opener, the Palifico candidate). The solver then checks that the result depends on the
  hands only through the count of matching dice, which lets it evaluate a terminal in linear time.

Hands are multisets of dice (21 with two dice), dealt with their multinomial probabilities. CFR+ (regret matching
with regrets floored at zero, alternating updates, the average strategy weighted by the iteration number) runs
over the public tree with a vector of hands at each node. :func:`exploitability` computes each side's best
response to the average strategy: ``NashConv`` = (what a best responder wins as the opener) + (as the other
player) − 1; 0 is an exact equilibrium.

Run ``python -m games.perudo.solver`` (under ``nice``) to solve the shipped positions and write
``games/perudo/solved/`` (``bots_solved.py`` reads it); ``bench/RESULTS.md`` gives the figures.
"""

from __future__ import annotations

import argparse
import gzip
import itertools
import json
import math
import time
from collections.abc import Callable
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from tapete_sdk.plugin import CHANCE

from games.perudo.bidding import FACES, PACO
from games.perudo.bots_solved import OPTION_SETS, SOLVED_DIR, Position, action_key, position_key
from games.perudo.rules import OVER, RULES

Hand = tuple[int, ...]  # the dice, sorted
Policy = Callable[["Round", int, int], list[float]]  # (round, node index, hand index) -> action probabilities


# --- hands --------------------------------------------------------------------------------------------------


def hands_of(dice: int) -> list[tuple[Hand, float]]:
    """Every multiset of ``dice`` dice, with its probability."""
    out = []
    for hand in itertools.combinations_with_replacement(FACES, dice):
        ways = math.factorial(dice)
        for face in FACES:
            ways //= math.factorial(hand.count(face))
        out.append((hand, ways / 6**dice))
    return out


def matches(hand: Hand, face: int, palifico: bool) -> int:
    """The dice of ``hand`` a bid on ``face`` counts (Pacos wild outside Palifico; checked against the engine)."""
    wild = face != PACO and not palifico
    return sum(1 for die in hand if die == face or (wild and die == PACO))


# --- positions and the engine -------------------------------------------------------------------------------


def round_state(options: dict[str, Any], position: Position) -> dict[str, Any]:
    """An engine state of a two-player game at the roll of ``position``'s round, the opener in seat 0."""
    opener_dice, other_dice, candidate, used_opener, used_other = position
    state = RULES.initial_state(options, 2)
    state, _ = RULES.apply_action(state, CHANCE, {"type": "first_player", "seat": 0})
    state["counts"] = [opener_dice, other_dice]
    state["palifico_used"] = [used_opener, used_other]
    state["palifico_candidate"] = 0 if candidate else None
    # The rounds played so far, one die lost in each: what a seat that does not see the dice count goes by.
    state["round"] = max(0, 2 * options["startingDice"] - opener_dice - other_dice)
    return state


def roll(state: dict[str, Any], hands: tuple[Hand, Hand]) -> dict[str, Any]:
    return RULES.apply_action(state, CHANCE, {"type": "roll", "dice": [list(hand) for hand in hands]})[0]


def next_position(state: dict[str, Any]) -> tuple[int | None, Position | None]:
    """After a reveal: (the next opener's seat, their position), or (winner's seat, None) once the game is over."""
    if state["phase"] == OVER:
        return RULES.outcome(state).ranking[0][0], None
    opener = state["turn"]
    other = 1 - opener
    counts, used = state["counts"], state["palifico_used"]
    if not state["options"]["palificoOncePerPlayer"]:
        used = [False, False]  # the engine still records who has had a Palifico; nothing reads it then
    candidate = state["palifico_candidate"] == opener
    return opener, (counts[opener], counts[other], candidate, used[opener], used[other])


def outside_value(position: Position) -> float:
    """The opener's chance in a position beyond the solved ones (only Calza regains reach them): a plain share
    of the dice, a rough stand-in that only the Calza option sets use."""
    return position[0] / (position[0] + position[1])


# --- the round tree -----------------------------------------------------------------------------------------


@dataclass
class Terminal:
    """A reveal: the opener's game value for each total count of matching dice."""

    face: int
    palifico: bool
    value: list[float]


@dataclass
class Node:
    actor: int
    history: tuple[
        tuple[int, ...], ...
    ]  # the public actions so far: (q, f) bids, (0,) Dudo... see action_key
    actions: list[dict[str, Any]]
    children: list[int]  # index of a node, or −1 − index of a terminal
    state: dict[str, Any]  # the engine's state at the node (the dice of the first hands: see Round.view)
    regret: list[list[float]] = field(default_factory=list)
    total: list[list[float]] = field(default_factory=list)


class Round:
    """One round of a duel from ``position`` under ``options``, with CFR+ and best responses."""

    def __init__(self, options: dict[str, Any], position: Position, values: dict[Position, float]) -> None:
        self.options = RULES.normalize_options(options, 2)
        self.position = position
        self.values = values
        self.hands = [hands_of(position[0]), hands_of(position[1])]
        self.nodes: list[Node] = []
        self.terminals: list[Terminal] = []
        self._terminal_index: dict[tuple, int] = {}
        self.dice_in_play = position[0] + position[1]
        state = roll(round_state(self.options, position), (self.hands[0][0][0], self.hands[1][0][0]))
        self._grow(state, ())
        for node in self.nodes:
            size = len(self.hands[node.actor])
            node.regret = [[0.0] * len(node.actions) for _ in range(size)]
            node.total = [[0.0] * len(node.actions) for _ in range(size)]
        self.match_cache: dict[tuple[int, int, bool], list[int]] = {}

    # -- building ------------------------------------------------------------------------------------------

    def _grow(self, state: dict[str, Any], history: tuple[str, ...]) -> int:
        actor = state["turn"]
        actions = [
            action
            for action in RULES.legal_actions(state, actor)
            if action["type"] != "bid" or action["quantity"] <= self.dice_in_play
        ]
        index = len(self.nodes)
        node = Node(actor, history, actions, [], state)
        self.nodes.append(node)
        for action in actions:
            after, _ = RULES.apply_action(state, actor, action)
            key = (*history, action_key(action))
            if action["type"] in ("dudo", "calza"):
                node.children.append(-1 - self._terminal(state, actor, action))
            else:
                node.children.append(self._grow(after, key))
        return index

    def _terminal(self, state: dict[str, Any], caller: int, call: dict[str, Any]) -> int:
        """The reveal of the standing bid by ``caller``, resolved by the engine for every pair of hands."""
        bid = state["bid"]
        key = (bid["quantity"], bid["face"], bid["bidder"], caller, call["type"], state["palifico"])
        if key in self._terminal_index:
            return self._terminal_index[key]
        palifico = state["palifico"]
        by_count: dict[int, float] = {}
        for (hand0, _), (hand1, _) in itertools.product(*self.hands):
            world = dict(state)
            world["dice"] = [list(hand0), list(hand1)]
            after, events = RULES.apply_action(world, caller, call)
            reveal = events[0]["reveal"]
            count = matches(hand0, bid["face"], palifico) + matches(hand1, bid["face"], palifico)
            if reveal["count"] != count:
                raise AssertionError(f"the engine counted {reveal['count']}, the solver {count}: {key}")
            value = self.outcome_value(after)
            if by_count.setdefault(count, value) != value:
                raise AssertionError(f"the reveal of {key} depends on more than the count")
        value = [by_count.get(count, 0.0) for count in range(self.dice_in_play + 1)]
        self.terminals.append(Terminal(bid["face"], palifico, value))
        self._terminal_index[key] = len(self.terminals) - 1
        return len(self.terminals) - 1

    def outcome_value(self, after: dict[str, Any]) -> float:
        """Seat 0's (the opener's) chance of winning the game from the state the reveal left."""
        seat, position = next_position(after)
        if position is None:
            return 1.0 if seat == 0 else 0.0
        value = self.values[position] if position in self.values else outside_value(position)
        return value if seat == 0 else 1.0 - value

    def own_matches(self, player: int, face: int, palifico: bool) -> list[int]:
        key = (player, face, palifico)
        if key not in self.match_cache:
            self.match_cache[key] = [matches(hand, face, palifico) for hand, _ in self.hands[player]]
        return self.match_cache[key]

    def view(self, index: int, hand: int) -> tuple[dict[str, Any], list[dict[str, Any]]]:
        """The actor's view and the engine's legal actions at a node, holding their ``hand``-th hand."""
        node = self.nodes[index]
        state = dict(node.state)
        dice = [list(d) for d in state["dice"]]
        dice[node.actor] = list(self.hands[node.actor][hand][0])
        state["dice"] = dice
        return RULES.view(state, node.actor), RULES.legal_actions(state, node.actor)

    # -- evaluation ----------------------------------------------------------------------------------------

    def terminal_values(self, terminal: Terminal, player: int, reach_other: list[float]) -> list[float]:
        """For each hand of ``player``: Σ over the other's hands of chance × reach × ``player``'s game value."""
        other = 1 - player
        by_count = [0.0] * (len(self.hands[other][0][0]) + 1)
        for (_, chance), reach, count in zip(
            self.hands[other],
            reach_other,
            self.own_matches(other, terminal.face, terminal.palifico),
            strict=True,
        ):
            by_count[count] += chance * reach
        value = terminal.value if player == 0 else [1.0 - v for v in terminal.value]
        weighted = {
            mine: sum(weight * value[mine + count] for count, weight in enumerate(by_count) if weight)
            for mine in range(len(self.hands[player][0][0]) + 1)
        }
        return [weighted[count] for count in self.own_matches(player, terminal.face, terminal.palifico)]

    @staticmethod
    def current(regret: list[float]) -> list[float]:
        positive = sum(regret)
        if positive <= 0.0:
            return [1.0 / len(regret)] * len(regret)
        return [r / positive for r in regret]

    @staticmethod
    def average(total: list[float]) -> list[float]:
        mass = sum(total)
        if mass <= 0.0:
            return [1.0 / len(total)] * len(total)
        return [t / mass for t in total]

    def _cfr(self, index: int, player: int, reach_mine: list[float], reach_other: list[float], t: int):
        if index < 0:
            return self.terminal_values(self.terminals[-1 - index], player, reach_other)
        node = self.nodes[index]
        if node.actor == player:
            strategies = [self.current(regret) for regret in node.regret]
            child_values = []
            for a, child in enumerate(node.children):
                reach = [r * s[a] for r, s in zip(reach_mine, strategies, strict=True)]
                child_values.append(self._cfr(child, player, reach, reach_other, t))
            values = []
            for h, strategy in enumerate(strategies):
                value = sum(s * child_values[a][h] for a, s in enumerate(strategy))
                values.append(value)
                regret, total = node.regret[h], node.total[h]
                for a, s in enumerate(strategy):
                    regret[a] = max(0.0, regret[a] + child_values[a][h] - value)
                    total[a] += t * reach_mine[h] * s
            return values
        # No pruning where the other player never goes: the player's average strategy there must still grow,
        # or a best responder would find it uniform off the path.
        values = [0.0] * len(reach_mine)
        strategies = [self.current(regret) for regret in node.regret]
        for a, child in enumerate(node.children):
            reach = [r * s[a] for r, s in zip(reach_other, strategies, strict=True)]
            for h, v in enumerate(self._cfr(child, player, reach_mine, reach, t)):
                values[h] += v
        return values

    def solve(self, iterations: int) -> None:
        """``iterations`` of CFR+ (each updates both players in turn)."""
        ones = [[1.0] * len(hands) for hands in self.hands]
        for t in range(1, iterations + 1):
            for player in (0, 1):
                self._cfr(0, player, ones[player], ones[1 - player], t)

    def strategy(self, index: int, player_hand: int) -> list[float]:
        return self.average(self.nodes[index].total[player_hand])

    def average_policy(self, index: int, hand: int) -> list[float]:
        """The solved average strategy, as a policy (see :meth:`evaluate`)."""
        return self.strategy(index, hand)

    def _value(self, index: int, player: int, reach_other: list[float], mine: Policy | None, theirs: Policy):
        """``player``'s values per hand, playing ``mine`` (None: a best response) against ``theirs``."""
        if index < 0:
            return self.terminal_values(self.terminals[-1 - index], player, reach_other)
        node = self.nodes[index]
        if node.actor == player:
            child_values = [self._value(c, player, reach_other, mine, theirs) for c in node.children]
            if mine is None:
                return [max(values[h] for values in child_values) for h in range(len(self.hands[player]))]
            out = []
            for h in range(len(self.hands[player])):
                out.append(sum(s * child_values[a][h] for a, s in enumerate(mine(self, index, h))))
            return out
        values = [0.0] * len(self.hands[player])
        strategies = [theirs(self, index, h) for h in range(len(self.hands[1 - player]))]
        for a, child in enumerate(node.children):
            reach = [r * s[a] for r, s in zip(reach_other, strategies, strict=True)]
            if any(reach):
                for h, v in enumerate(self._value(child, player, reach, mine, theirs)):
                    values[h] += v
        return values

    def evaluate(self, player: int, mine: Policy | None, theirs: Policy) -> float:
        """``player``'s chance of winning the game, playing ``mine`` (None: a best response) against ``theirs``.
        A policy maps (this round, node index, hand index) to the probabilities of the node's actions."""
        reach = [1.0] * len(self.hands[1 - player])
        values = self._value(0, player, reach, mine, theirs)
        return sum(chance * value for (_, chance), value in zip(self.hands[player], values, strict=True))

    def game_value(self, player: int) -> float:
        """``player``'s chance of winning when both play the solved average strategy."""
        return self.evaluate(player, Round.average_policy, Round.average_policy)

    def exploitability(self, policy: Policy | None = None) -> tuple[float, float]:
        """(a best responder's chance as the opener, as the other player) against ``policy`` (default: the
        solved average strategy)."""
        policy = policy or Round.average_policy
        return self.evaluate(0, None, policy), self.evaluate(1, None, policy)


# --- option sets and the shipped positions ------------------------------------------------------------------


def positions_up_to(most: int) -> list[Position]:
    """Every duel position with at most ``most`` dice each, fewest dice first."""
    out = []
    for opener_dice, other_dice in itertools.product(range(1, most + 1), repeat=2):
        for candidate, used_opener, used_other in itertools.product((False, True), repeat=3):
            if candidate and (opener_dice != 1 or used_opener):
                continue  # only a player who has just dropped to one die, Palifico unused, is a candidate
            out.append((opener_dice, other_dice, candidate, used_opener, used_other))
    return sorted(out, key=lambda p: (p[0] + p[1], p))


def covered(options: dict[str, Any], position: Position) -> bool:
    """The positions solved for ``options``: every one-die duel, and the Palifico round of a one-die player
    against two dice (its face is locked, so its tree is small). A normal round with three or four dice in play
    has tens of thousands of public nodes (27,773 for two dice against one, 317,945 for two each): seconds per
    CFR+ iteration in pure Python, beyond what this module is run for. The used flags matter only with
    palificoOncePerPlayer."""
    if not options["palificoOncePerPlayer"] and (position[3] or position[4]):
        return False
    if position[0] + position[1] == 2:
        return True
    return position[2] and options["palificoMode"] == "automatic"


@dataclass
class Solved:
    position: Position
    value: float
    best_opener: float
    best_other: float
    infosets: int
    seconds: float

    @property
    def nash_conv(self) -> float:
        return self.best_opener + self.best_other - 1.0


def solve_set(options: dict[str, Any], iterations: int, log=print):
    """Solve every covered position of ``options``, fewest dice first; returns (rounds, figures). Positions that
    differ only in flags their round's reveals ignore (who has used their Palifico, in a one-die duel) share one
    solve."""
    options = RULES.normalize_options(options, 2)
    positions = [p for p in positions_up_to(2) if covered(options, p)]
    values: dict[Position, float] = {}
    rounds: dict[Position, Round] = {}
    figures: dict[Position, Solved] = {}
    done: dict[tuple, Position] = {}
    for position in positions:
        start = time.perf_counter()
        game = Round(options, position, values)
        same = (position[:3], tuple(tuple(terminal.value) for terminal in game.terminals))
        if same in done:
            rounds[position], figures[position] = rounds[done[same]], figures[done[same]]
            values[position] = values[done[same]]
            continue
        done[same] = position
        game.solve(iterations)
        value = game.game_value(0)
        best_opener, best_other = game.exploitability()
        values[position] = value
        rounds[position] = game
        infosets = sum(len(node.regret) for node in game.nodes)
        figures[position] = Solved(
            position, value, best_opener, best_other, infosets, time.perf_counter() - start
        )
        log(f"{position}: value {value:.5f}, NashConv {figures[position].nash_conv:.5f}, {infosets} infosets")
    return rounds, figures


# --- the shipped data ---------------------------------------------------------------------------------------

LEVELS = 255  # probabilities are stored as integers out of this


def quantize(strategy: list[float]) -> list[int]:
    """Integers out of :data:`LEVELS` summing to it, the largest remainders rounded up."""
    raw = [p * LEVELS for p in strategy]
    out = [int(r) for r in raw]
    short = LEVELS - sum(out)
    for index in sorted(range(len(raw)), key=lambda i: out[i] - raw[i])[:short]:
        out[index] += 1
    return out


def export(rounds: dict[Position, Round], threshold: float = 1e-3) -> dict[str, Any]:
    """The average strategies at the information sets the player reaches by playing them (anything the other
    player does), as ``{position: {history: {hand: {action: weight}}}}`` with weights out of :data:`LEVELS`."""
    out: dict[str, Any] = {}
    for position, game in rounds.items():
        table: dict[str, dict[str, dict[str, int]]] = {}
        own_reach = [[1.0] * len(game.hands[0]), [1.0] * len(game.hands[1])]
        stack = [(0, own_reach)]
        while stack:
            index, reach = stack.pop()
            node = game.nodes[index]
            actor = node.actor
            entries: dict[str, dict[str, int]] = {}
            next_reach = [[list(r) for r in reach] for _ in node.children]
            for h, (hand, _) in enumerate(game.hands[actor]):
                if reach[actor][h] < threshold:
                    for a in range(len(node.children)):
                        next_reach[a][actor][h] = 0.0
                    continue
                strategy = game.strategy(index, h)
                weights = quantize(strategy)
                entries["".join(map(str, hand))] = {
                    action_key(action): w for action, w in zip(node.actions, weights, strict=True) if w
                }
                for a, s in enumerate(strategy):
                    next_reach[a][actor][h] = reach[actor][h] * s
            if entries:
                table[" ".join(node.history)] = entries
            for a, child in enumerate(node.children):
                if child >= 0 and any(next_reach[a][actor]):
                    stack.append((child, next_reach[a]))
        out[position_key(position)] = table
    return out


def shipped_policy(table: dict[str, Any]) -> Policy:
    """The policy a shipped table plays (``bots_solved.py``'s format); uniform where the table has nothing, i.e.
    where the player's own earlier choices never lead."""

    def policy(game: Round, index: int, hand: int) -> list[float]:
        node = game.nodes[index]
        hand_key = "".join(map(str, game.hands[node.actor][hand][0]))
        weights = table.get(" ".join(node.history), {}).get(hand_key)
        if not weights:
            return [1.0 / len(node.actions)] * len(node.actions)
        raw = [weights.get(action_key(action), 0) for action in node.actions]
        return [w / sum(raw) for w in raw]

    return policy


def shipped_rounds(name: str) -> dict[Position, Round]:
    """The covered rounds of a shipped option set, with the values of the positions they lead to as shipped."""
    with gzip.open(SOLVED_DIR / f"{name}.json.gz", "rt", encoding="utf-8") as handle:
        figures = json.load(handle)["figures"]
    options = RULES.normalize_options(OPTION_SETS[name], 2)
    positions = [p for p in positions_up_to(2) if covered(options, p)]
    values = {p: figures[position_key(p)][0] for p in positions}
    return {p: Round(options, p, values) for p in positions}


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n", 1)[0])
    parser.add_argument("--iterations", type=int, default=200)
    parser.add_argument("--sets", nargs="*", default=list(OPTION_SETS))
    parser.add_argument("--out", type=Path, default=SOLVED_DIR)
    args = parser.parse_args()
    args.out.mkdir(parents=True, exist_ok=True)
    for name in args.sets:
        print(f"## {name}")
        rounds, figures = solve_set(OPTION_SETS[name], args.iterations)
        data = {
            "options": name,
            "figures": {
                position_key(p): [round(f.value, 5), round(f.nash_conv, 5), f.infosets]
                for p, f in figures.items()
            },
            "strategies": export(rounds),
        }
        with gzip.open(args.out / f"{name}.json.gz", "wt", encoding="utf-8") as handle:
            json.dump(data, handle, separators=(",", ":"))


if __name__ == "__main__":
    main()
