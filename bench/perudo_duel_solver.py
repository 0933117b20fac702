"""CFR+ over a Perudo duel round as a public tree, vectorised over the hands with numpy: the rounds with three or
four dice in play, which the pure-Python solver (``games/perudo/solver.py``) is too slow for.

Same game, same engine, same payoffs as that solver (a round is worth the opener's chance of winning the *game*;
the reveals and the next positions come from ``RULES.apply_action``; bids above the dice in play are left out),
computed differently:

* **The public tree, level by level.** A node is a public history of bids. Its legal actions depend on the last
  bid and the seat to act only, so the engine is asked once per (last bid, seat) and the tree (317,945 nodes for
  two dice each) is laid out as flat arrays, one set per depth, children in the order of their parents' edges
  (``tests/bench/test_perudo_duel_solver.py`` checks the trees against the pure solver's, grown from the engine
  at every node). The actor of a depth is the same at every node of it (the duel alternates): the build checks.
* **A vector of hands at every node.** Regrets and strategy sums are ``(edges, hands)`` arrays; a CFR+ pass is a
  forward sweep of the reach vectors (depth by depth) and a backward sweep of counterfactual values, each a
  handful of numpy operations per depth (sums over each node's edges by ``np.bincount``), as in the public-belief
  implementations of Liar's Dice solvers. A reveal's value for each hand comes from the count of matching dice
  only (checked against the engine for every pair of hands, as in the pure solver): the other player's reach is
  summed by matching count, then read back through the value of each total count.

CFR+ (regrets floored at zero, alternating updates, the average strategy weighted by the iteration number) runs
until the NashConv of the average strategy (what a best responder wins as the opener, plus as the other player,
minus 1) is below ``--target`` or ``--iterations`` are done. The solved strategies are written in the format of
``games/perudo/bots_solved.py`` (only the information sets the equilibrium player reaches by its own play, the
probabilities quantized to 1/255), one file per position, ``games/perudo/solved/<option set>.<position>.json.gz``
(read only when such a round is played), and each position's value, the NashConv of the strategy *as shipped*
(quantized, uniform where the table leaves it out) and its number of information sets are added to the figures
of ``<option set>.json.gz``. ``--refigure`` recomputes those figures from the shipped tables without solving.

Run (nice it: the machine is shared; about a quarter of an hour for the default set)::

    PYTHONPATH=platform:sdk:. nice -n 19 .venv/bin/python bench/perudo_duel_solver.py --sets default

``docs/perudo-solver.md`` says what is solved; ``bench/RESULTS.md`` has the figures. numpy is a test and bench
dependency only: the games (and the bots, which read the shipped tables) import nothing but the standard library.
"""

from __future__ import annotations

import argparse
import gzip
import json
import time
from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

import numpy as np

from games.perudo.bots_solved import (
    OPTION_SETS,
    SOLVED_DIR,
    Position,
    action_key,
    encode,
    entries,
    position_key,
)
from games.perudo.rules import RULES
from games.perudo.solver import (
    LEVELS,
    hands_of,
    matches,
    next_position,
    outside_value,
    quantize,
    roll,
    round_state,
)

FLOAT = np.float32  # the sweeps' arrays: half the memory traffic of float64, ample for a NashConv of 1e-4

# A policy for a depth: (tree, depth, player) -> an (edges, hands) array of action probabilities, or None to let
# the evaluation take the best response there.
LevelPolicy = Callable[["PublicTree", int], np.ndarray]


@dataclass
class Level:
    """The nodes of one depth and their edges (each node's edges contiguous, nodes in order)."""

    actor: int
    parent: np.ndarray  # per node: its parent's index in the depth above (−1 at the root)
    via: np.ndarray  # per node: the bid (index into PublicTree.bids) that led to it (−1 at the root)
    kind: np.ndarray  # per node: its (last bid, actor) kind
    starts: np.ndarray  # per node: its first edge
    edge_parent: np.ndarray  # per edge: its node
    edge_child: np.ndarray  # per edge: the child's index in the next depth, or −1 for a reveal
    edge_terminal: np.ndarray  # per edge: the reveal's index, or −1 for a bid
    edge_action: list[str]  # per edge: the action's key (see bots_solved.action_key)


class PublicTree:
    """One round of a duel from ``position`` under ``options``; ``values`` are the solved positions' values."""

    def __init__(self, options: dict[str, Any], position: Position, values: dict[Position, float]) -> None:
        self.options = RULES.normalize_options(options, 2)
        self.position = position
        self.values = values
        dealt = [hands_of(position[0]), hands_of(position[1])]
        self.hands = [[hand for hand, _ in deal] for deal in dealt]
        self.chance = [np.array([p for _, p in deal], dtype=FLOAT) for deal in dealt]
        self.dice = position[0] + position[1]
        self.bids: list[str] = []
        self._bid_index: dict[str, int] = {}
        self._kinds: dict[tuple[int, int], int] = {}
        self._kind_states: list[dict[str, Any]] = []
        self._kind_edges: list[
            list[tuple[str, int, int]]
        ] = []  # (action key, child kind or −1, terminal or −1)
        self._terminal_index: dict[tuple, int] = {}
        self.terminal_face: list[int] = []
        self.terminal_palifico: list[bool] = []
        self.terminal_value: list[list[float]] = []  # the opener's value for each total matching count
        self.outside: set[Position] = set()  # next positions not solved (valued by outside_value)
        root = roll(round_state(self.options, position), (self.hands[0][0], self.hands[1][0]))
        self.levels = self._grow(self._kind(-1, root))
        self._prepare_reveals()

    # -- building --------------------------------------------------------------------------------------------

    def _kind(self, bid: int, state: dict[str, Any]) -> int:
        key = (bid, state["turn"])
        if key not in self._kinds:
            index = self._kinds[key] = len(self._kind_states)
            self._kind_states.append(state)
            self._kind_edges.append([])
            self._kind_edges[index] = self._expand(state)  # grows the kinds it leads to first
        return self._kinds[key]

    def _expand(self, state: dict[str, Any]) -> list[tuple[str, int, int]]:
        actor = state["turn"]
        edges = []
        for action in RULES.legal_actions(state, actor):
            if action["type"] == "bid" and action["quantity"] > self.dice:
                continue  # certainly false: a Dudo wins it surely, so it is dominated
            key = action_key(action)
            if action["type"] in ("dudo", "calza"):
                edges.append((key, -1, self._terminal(state, actor, action)))
            elif action["type"] == "bid":
                if key not in self._bid_index:
                    self._bid_index[key] = len(self.bids)
                    self.bids.append(key)
                edges.append((key, -2 - self._bid_index[key], -1))  # resolved to a kind after the expansion
            else:
                raise AssertionError(f"an action the duel solver does not know: {action}")
        resolved = []
        for key, child, terminal in edges:
            if child <= -2:
                after, _ = RULES.apply_action(state, actor, _action(key))
                child = self._kind(-2 - child, after)
            resolved.append((key, child, terminal))
        return resolved

    def _terminal(self, state: dict[str, Any], caller: int, call: dict[str, Any]) -> int:
        """The reveal of the standing bid by ``caller``, resolved by the engine for every pair of hands."""
        bid, palifico = state["bid"], state["palifico"]
        key = (bid["quantity"], bid["face"], bid["bidder"], caller, call["type"], palifico)
        if key in self._terminal_index:
            return self._terminal_index[key]
        by_count: dict[int, float] = {}
        for hand0 in self.hands[0]:
            for hand1 in self.hands[1]:
                world = dict(state)
                world["dice"] = [list(hand0), list(hand1)]
                after, events = RULES.apply_action(world, caller, call)
                count = matches(hand0, bid["face"], palifico) + matches(hand1, bid["face"], palifico)
                if events[0]["reveal"]["count"] != count:
                    raise AssertionError(
                        f"the engine counted {events[0]['reveal']['count']}, we {count}: {key}"
                    )
                value = self._outcome_value(after)
                if by_count.setdefault(count, value) != value:
                    raise AssertionError(f"the reveal of {key} depends on more than the count")
        self._terminal_index[key] = len(self.terminal_value)
        self.terminal_face.append(bid["face"])
        self.terminal_palifico.append(palifico)
        self.terminal_value.append([by_count.get(count, 0.0) for count in range(self.dice + 1)])
        return len(self.terminal_value) - 1

    def _outcome_value(self, after: dict[str, Any]) -> float:
        seat, position = next_position(after)
        if position is None:
            return 1.0 if seat == 0 else 0.0
        if position not in self.values:
            self.outside.add(position)
        value = self.values[position] if position in self.values else outside_value(position)
        return value if seat == 0 else 1.0 - value

    def _grow(self, root_kind: int) -> list[Level]:
        kinds = self._kind_edges
        degree = np.array([len(edges) for edges in kinds])
        offsets = np.concatenate(([0], np.cumsum(degree)))
        flat_child = np.array([child for edges in kinds for _, child, _ in edges])
        flat_terminal = np.array([terminal for edges in kinds for _, _, terminal in edges])
        flat_key = [key for edges in kinds for key, _, _ in edges]
        flat_bid = np.array([self._bid_index.get(key, -1) for key in flat_key])
        actor_of = np.array([state["turn"] for state in self._kind_states])
        levels = []
        kind = np.array([root_kind])
        parent = np.array([-1])
        via = np.array([-1])
        while len(kind):
            actors = set(actor_of[kind].tolist())
            if len(actors) != 1:
                raise AssertionError("both players act at one depth: the duel does not alternate")
            counts = degree[kind]
            starts = np.concatenate(([0], np.cumsum(counts)[:-1]))
            edge_parent = np.repeat(np.arange(len(kind)), counts)
            flat = offsets[kind][edge_parent] + np.arange(len(edge_parent)) - starts[edge_parent]
            child_kind = flat_child[flat]
            is_bid = child_kind >= 0
            edge_child = np.where(is_bid, np.cumsum(is_bid) - 1, -1)
            levels.append(
                Level(
                    actors.pop(),
                    parent,
                    via,
                    kind,
                    starts,
                    edge_parent,
                    edge_child,
                    flat_terminal[flat],
                    [flat_key[i] for i in flat.tolist()]
                    if len(flat) < 200_000
                    else _LazyKeys(flat_key, flat),
                )
            )
            kind, parent, via = child_kind[is_bid], edge_parent[is_bid], flat_bid[flat][is_bid]
        return levels

    def _prepare_reveals(self) -> None:
        """Per player: for each reveal, its value as a (own count, other's count) table; per face group (face,
        Palifico), every hand's matching count."""
        faces = sorted(set(zip(self.terminal_face, self.terminal_palifico, strict=True)))
        group_of = {group: g for g, group in enumerate(faces)}
        self.terminal_group = np.array(
            [group_of[group] for group in zip(self.terminal_face, self.terminal_palifico, strict=True)]
        )
        self.counts = [
            np.array([[matches(hand, face, pal) for hand in self.hands[p]] for face, pal in faces])
            for p in (0, 1)
        ]
        values = np.array(self.terminal_value, dtype=FLOAT)
        self.reveal_table = []
        for p in (0, 1):
            mine, theirs = self.position[p] + 1, self.position[1 - p] + 1
            own = np.arange(mine)[:, None] + np.arange(theirs)[None, :]
            table = values[:, own]  # (reveals, own count, other's count): the opener's value
            self.reveal_table.append(table if p == 0 else 1.0 - table)
        for level in self.levels:
            reveal = level.edge_terminal >= 0
            level.reveal_edges = np.flatnonzero(reveal)
            level.bid_edges = np.flatnonzero(~reveal)
            level.bid_parent = level.edge_parent[level.bid_edges]
            level.flat_index = {}

    def node_sums(self, d: int, edge_values: np.ndarray) -> np.ndarray:
        """Per node of depth ``d``, the sum of ``edge_values`` (edges × hands) over its edges (``np.bincount``
        on a flat index: several times faster than ``np.add.reduceat`` along the first axis)."""
        level = self.levels[d]
        hands = edge_values.shape[1]
        index = level.flat_index.get(hands)
        if index is None:
            index = level.flat_index[hands] = (level.edge_parent[:, None] * hands + np.arange(hands)).ravel()
        sums = np.bincount(index, weights=edge_values.ravel(), minlength=len(level.starts) * hands)
        return sums.reshape(len(level.starts), hands).astype(FLOAT)

    @property
    def nodes(self) -> int:
        return sum(len(level.kind) for level in self.levels)

    # -- sweeps ------------------------------------------------------------------------------------------------

    def reveal_values(self, level: Level, player: int, reach: np.ndarray) -> np.ndarray:
        """``player``'s values at the level's reveal edges, given the other player's reach (chance included)
        along each of those edges."""
        edges = level.reveal_edges
        terminals = level.edge_terminal[edges]
        groups = self.terminal_group[terminals]
        other_counts = self.counts[1 - player]
        by_count = np.zeros((len(edges), self.position[1 - player] + 1), dtype=FLOAT)
        for g in np.unique(groups):
            rows = np.flatnonzero(groups == g)
            one_hot = np.eye(self.position[1 - player] + 1, dtype=FLOAT)[other_counts[g]]  # (hands, counts)
            by_count[rows] = reach[rows] @ one_hot
        per_count = np.einsum("kc,kmc->km", by_count, self.reveal_table[player][terminals])
        return np.take_along_axis(per_count, self.counts[player][groups], axis=1)

    def reaches(self, strategies: list[np.ndarray]) -> list[list[np.ndarray]]:
        """Each player's reach (chance included) at every node of every depth, playing ``strategies``."""
        reach = [[self.chance[0][None, :]], [self.chance[1][None, :]]]
        for d, level in enumerate(self.levels[:-1]):
            for p in (0, 1):
                along = reach[p][d][level.bid_parent]
                if level.actor == p:
                    along *= strategies[d][level.bid_edges]
                reach[p].append(along)
        return reach

    def sweep(
        self, player: int, reach_other: list[np.ndarray], theirs: list[np.ndarray], choose: Callable
    ) -> list[np.ndarray]:
        """``player``'s counterfactual values at every depth's nodes, bottom up, the other player reaching the
        nodes with ``reach_other`` and playing ``theirs``; ``choose(d, edge values)`` turns the edge values of
        one of the player's depths into node values."""
        out: list[np.ndarray] = [None] * len(self.levels)
        for d in range(len(self.levels) - 1, -1, -1):
            level = self.levels[d]
            edge_values = np.empty((len(level.edge_parent), len(self.hands[player])), dtype=FLOAT)
            if len(level.bid_edges):
                edge_values[level.bid_edges] = out[d + 1]  # the children, in the order of their edges
            if len(level.reveal_edges):
                edges = level.reveal_edges
                reach = reach_other[d][level.edge_parent[edges]]
                if level.actor != player:
                    reach = reach * theirs[d][edges]
                edge_values[edges] = self.reveal_values(level, player, reach)
            if level.actor == player:
                out[d] = choose(d, edge_values)
            else:
                out[d] = self.node_sums(d, edge_values)
            if d + 1 < len(self.levels):
                out[d + 1] = None  # only the root's and the current depth's are kept
        return out

    def normalize(self, d: int, weights: np.ndarray) -> np.ndarray:
        """Each node's weights as probabilities (uniform where they are all zero)."""
        level = self.levels[d]
        if not hasattr(level, "uniform"):
            degree = np.diff(np.append(level.starts, len(level.edge_parent)))
            level.uniform = (1.0 / degree)[level.edge_parent][:, None].astype(FLOAT)
        sums = self.node_sums(d, weights)
        empty = sums <= 1e-30  # a float32 sum this small (denormal) has no finite inverse
        inverse = 1.0 / np.where(empty, 1.0, sums)
        inverse[empty] = 0.0
        out = weights * inverse[level.edge_parent]
        if empty.any():
            out += empty[level.edge_parent] * level.uniform
        return out

    def evaluate(self, player: int, mine: list[np.ndarray] | None, theirs: list[np.ndarray]) -> float:
        """``player``'s chance of winning the game, playing ``mine`` (None: a best response) against ``theirs``
        (per depth, the acting player's probabilities; only the other player's depths of ``theirs`` are read)."""
        reach = self.reaches(theirs)[1 - player]

        def choose(d, edge_values):
            level = self.levels[d]
            if mine is None:
                return np.maximum.reduceat(edge_values, level.starts, axis=0)
            return self.node_sums(d, edge_values * mine[d])

        root = self.sweep(player, reach, theirs, choose)[0][0]
        return float(self.chance[player].astype(float) @ root.astype(float))


class Solver:
    """CFR+ on a public tree."""

    def __init__(self, tree: PublicTree) -> None:
        self.tree = tree
        self.regret = [
            np.zeros((len(level.edge_parent), len(tree.hands[level.actor])), dtype=FLOAT)
            for level in tree.levels
        ]
        self.total = [np.zeros_like(r) for r in self.regret]
        self.iterations = 0

    def current(self) -> list[np.ndarray]:
        return [self.tree.normalize(d, regret) for d, regret in enumerate(self.regret)]

    def average(self) -> list[np.ndarray]:
        return [self.tree.normalize(d, total) for d, total in enumerate(self.total)]

    def iterate(self, count: int) -> None:
        tree = self.tree
        for _ in range(count):
            self.iterations += 1
            t = self.iterations
            strategies = self.current()
            for player in (0, 1):
                if player == 1:  # the opener's regrets have just changed: their strategy with them
                    strategies = [
                        tree.normalize(d, regret) if tree.levels[d].actor == 0 else strategies[d]
                        for d, regret in enumerate(self.regret)
                    ]
                reach = tree.reaches(strategies)

                def update(d, edge_values, player=player, strategies=strategies, reach=reach, t=t):
                    level = tree.levels[d]
                    strategy = strategies[d]
                    node_values = tree.node_sums(d, edge_values * strategy)
                    regret = self.regret[d]
                    regret += edge_values - node_values[level.edge_parent]
                    np.maximum(regret, 0.0, out=regret)
                    self.total[d] += t * reach[player][d][level.edge_parent] * strategy
                    return node_values

                tree.sweep(player, reach[1 - player], strategies, update)

    def nash_conv(self, strategies: list[np.ndarray] | None = None) -> tuple[float, float, float]:
        """(the opener's value, a best responder's chance as the opener, as the other player)."""
        strategies = strategies or self.average()
        tree = self.tree
        return (
            tree.evaluate(0, strategies, strategies),
            tree.evaluate(0, None, strategies),
            tree.evaluate(1, None, strategies),
        )


class _LazyKeys:
    """The action keys of a depth's edges, read on demand (the deep depths have hundreds of thousands)."""

    def __init__(self, keys: list[str], flat: np.ndarray) -> None:
        self.keys, self.flat = keys, flat

    def __getitem__(self, index: int) -> str:
        return self.keys[int(self.flat[index])]

    def __len__(self) -> int:
        return len(self.flat)


def _action(key: str) -> dict[str, Any]:
    if key == "D":
        return {"type": "dudo"}
    if key == "C":
        return {"type": "calza"}
    quantity, face = key.split(".")
    return {"type": "bid", "quantity": int(quantity), "face": int(face)}


# --- histories and the shipped format ---------------------------------------------------------------------------


def history(tree: PublicTree, d: int, node: int, memo: dict) -> str:
    """The public history of a node as ``bots_solved`` writes it: the bids ``q.f`` joined by spaces."""
    key = (d, node)
    if key not in memo:
        if d == 0:
            memo[key] = ""
        else:
            level = tree.levels[d]
            above = history(tree, d - 1, int(level.parent[node]), memo)
            bid = tree.bids[int(level.via[node])]
            memo[key] = f"{above} {bid}" if above else bid
    return memo[key]


def quantized(tree: PublicTree, strategies: list[np.ndarray]) -> list[np.ndarray]:
    """The strategies as shipped: every node's probabilities as integers out of 255 (``solver.quantize``, the
    largest remainders rounded up), vectorised over the nodes."""
    out = []
    for d, strategy in enumerate(strategies):
        level = tree.levels[d]
        raw = strategy * LEVELS
        floor = np.floor(raw)
        short = LEVELS - np.add.reduceat(floor, level.starts, axis=0)  # per node and hand
        rounded = floor.copy()
        for h in range(strategy.shape[1]):
            order = np.lexsort((floor[:, h] - raw[:, h], level.edge_parent))
            rank = np.arange(len(order)) - level.starts[level.edge_parent[order]]
            rounded[order, h] += rank < short[level.edge_parent[order], h]
        out.append(rounded / LEVELS)
    return out


def export(tree: PublicTree, strategies: list[np.ndarray], threshold: float = 1e-3) -> dict[str, Any]:
    """``{history: {hand: {action: weight}}}`` at the information sets the player reaches by their own play
    (reach ≥ ``threshold``, anything the other player does), as ``games/perudo/solver.export`` writes them."""
    own = [[np.ones((1, len(tree.hands[0])))], [np.ones((1, len(tree.hands[1])))]]
    for d, level in enumerate(tree.levels[:-1]):
        for p in (0, 1):
            along = own[p][d][level.edge_parent]
            if level.actor == p:
                along = along * strategies[d]
            own[p].append(along[level.bid_edges])
    table: dict[str, dict[str, dict[str, int]]] = {}
    memo: dict = {}
    for d, level in enumerate(tree.levels):
        reach = own[level.actor][d]
        bounds = np.append(level.starts, len(level.edge_parent))
        for node in np.flatnonzero((reach >= threshold).any(axis=1)).tolist():
            by_hand = {}
            for h in np.flatnonzero(reach[node] >= threshold).tolist():
                weights = quantize(strategies[d][bounds[node] : bounds[node + 1], h].tolist())
                by_hand["".join(map(str, tree.hands[level.actor][h]))] = {
                    level.edge_action[bounds[node] + a]: w for a, w in enumerate(weights) if w
                }
            table[history(tree, d, node, memo)] = by_hand
    return table


def table_figures(tree: PublicTree, table: dict[str, Any]) -> tuple[float, float]:
    """(the opener's value, NashConv) of a table as shipped: quantized, and uniform at the information sets it
    leaves out (those its player reaches with probability below 1/1000)."""
    strategies = table_strategies(tree, table)
    value = tree.evaluate(0, strategies, strategies)
    return value, tree.evaluate(0, None, strategies) + tree.evaluate(1, None, strategies) - 1.0


def table_strategies(tree: PublicTree, table: dict[str, Any]) -> list[np.ndarray]:
    """A shipped table as per-depth strategies (uniform where it has nothing: where its player never goes)."""
    out = []
    memo: dict = {}
    for d, level in enumerate(tree.levels):
        degree = np.diff(np.append(level.starts, len(level.edge_parent)))
        strategy = (1.0 / degree)[level.edge_parent][:, None] * np.ones((1, len(tree.hands[level.actor])))
        hand_keys = ["".join(map(str, hand)) for hand in tree.hands[level.actor]]
        for node in range(len(level.starts)):
            found = entries(table.get(history(tree, d, node, memo)))
            if not found:
                continue
            first = int(level.starts[node])
            keys = [level.edge_action[first + a] for a in range(int(degree[node]))]
            for h, hand in enumerate(hand_keys):
                weights = found.get(hand)
                if weights:
                    raw = np.array([weights.get(key, 0) for key in keys], dtype=float)
                    strategy[first : first + len(keys), h] = raw / raw.sum()
        out.append(strategy)
    return out


# --- the positions ---------------------------------------------------------------------------------------------


def duel_positions(options: dict[str, Any]) -> list[Position]:
    """The normal rounds with three or four dice in play that a game can reach, fewest dice first: a player
    with two dice has never dropped to one, so has not used their Palifico; a one-die player in a normal round
    has (with palificoOncePerPlayer; otherwise the flags change nothing and are left False)."""
    once = options["palificoOncePerPlayer"]
    return [(2, 1, False, False, once), (1, 2, False, once, False), (2, 2, False, False, False)]


def solve_set(name: str, iterations: int, target: float, minutes: float, log=print) -> dict[str, Any]:
    """Solve the three- and four-dice rounds of one option set; returns {position key: (table, figures)}."""
    path = SOLVED_DIR / f"{name}.json.gz"
    with gzip.open(path, "rt", encoding="utf-8") as handle:
        data = json.load(handle)
    options = RULES.normalize_options(OPTION_SETS[name], 2)
    values = {_position(key): figures[0] for key, figures in data["figures"].items()}
    for position in duel_positions(options):
        start = time.perf_counter()
        tree = PublicTree(options, position, values)
        solver = Solver(tree)
        log(f"{position_key(position)}: {tree.nodes} nodes, built in {time.perf_counter() - start:.1f} s")
        nash_conv = 1.0
        while solver.iterations < iterations:
            solver.iterate(25)
            value, best_opener, best_other = solver.nash_conv()
            nash_conv = best_opener + best_other - 1.0
            log(f"  {solver.iterations} iterations: value {value:.5f}, NashConv {nash_conv:.5f}", flush=True)
            if nash_conv < target or time.perf_counter() - start > 60 * minutes:
                break
        table = export(tree, solver.average())
        with gzip.open(
            SOLVED_DIR / f"{name}.{position_key(position)}.json.gz", "wt", encoding="utf-8"
        ) as handle:
            json.dump({"strategy": {h: encode(e) for h, e in table.items()}}, handle, separators=(",", ":"))
        value, nash_conv = table_figures(tree, table)
        infosets = sum(len(level.starts) * len(tree.hands[level.actor]) for level in tree.levels)
        values[position] = value
        data["figures"][position_key(position)] = [round(value, 5), round(nash_conv, 5), infosets]
        log(
            f"  shipped: value {value:.5f}, NashConv {nash_conv:.5f} as shipped, {len(table)} histories, "
            f"{time.perf_counter() - start:.0f} s"
        )
    return data


def refigure(name: str) -> None:
    """Recompute the figures of an option set's shipped three- and four-dice tables (values bottom up)."""
    path = SOLVED_DIR / f"{name}.json.gz"
    with gzip.open(path, "rt", encoding="utf-8") as handle:
        data = json.load(handle)
    options = RULES.normalize_options(OPTION_SETS[name], 2)
    values = {_position(key): figure[0] for key, figure in data["figures"].items()}
    for position in duel_positions(options):
        key = position_key(position)
        with gzip.open(SOLVED_DIR / f"{name}.{key}.json.gz", "rt", encoding="utf-8") as handle:
            table = json.load(handle)["strategy"]
        tree = PublicTree(options, position, values)
        value, nash_conv = table_figures(tree, table)
        values[position] = value
        data["figures"][key] = [round(value, 5), round(nash_conv, 5), data["figures"][key][2]]
        print(f"{key}: value {value:.5f}, NashConv {nash_conv:.5f} as shipped", flush=True)
    with gzip.open(path, "wt", encoding="utf-8") as handle:
        json.dump(data, handle, separators=(",", ":"))


def _position(key: str) -> Position:
    dice_a, dice_b, flags = key.split("-")
    return (int(dice_a), int(dice_b), *(flag == "1" for flag in flags))


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n", 1)[0])
    parser.add_argument("--iterations", type=int, default=1000)
    parser.add_argument("--target", type=float, default=0.002, help="stop once NashConv is below this")
    parser.add_argument("--minutes", type=float, default=60.0, help="per position: stop after this long")
    parser.add_argument("--sets", nargs="*", default=["default"])
    parser.add_argument("--refigure", action="store_true", help="only recompute the shipped tables' figures")
    args = parser.parse_args()
    if args.refigure:
        for name in args.sets:
            refigure(name)
        return
    for name in args.sets:
        print(f"## {name}", flush=True)
        data = solve_set(
            name, args.iterations, args.target, args.minutes, log=lambda *a, **k: print(*a, flush=True)
        )
        with gzip.open(SOLVED_DIR / f"{name}.json.gz", "wt", encoding="utf-8") as handle:
            json.dump(data, handle, separators=(",", ":"))


if __name__ == "__main__":
    main()
