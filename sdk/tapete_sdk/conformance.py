"""The shared conformance suite every registered game must pass.

Pure Python (no Django, no pytest): :func:`check_game` plays random games through the plugin contract and raises
:class:`ConformanceError` at the first broken promise. ``tests/sdk/test_conformance.py`` runs it for every
game found by the registry, over many playouts, player counts and option sets.

What is checked (the promises of ``tapete_sdk.plugin``):

* the rules have every member of the contract (:class:`~tapete_sdk.plugin.GameRules`); every option has a label, a
  help text and a label for each choice; the declarations agree with the rules (:func:`check_declarations`);
* states and views are plain JSON and survive a JSON round-trip; ``apply_action`` never mutates its input, and
  nothing else does either: views, legal actions, ``timeout_action``, ``sample_chance``, ``determinize``, canonical
  forms and refused actions leave the state as they found it;
* every seat in ``to_act`` has a legal action, seats outside it have none, ``awaited`` is a subset of ``to_act``;
* legal actions apply without error; actions outside the list (another seat's, or ones legal earlier) are refused
  with ``IllegalAction``/``MalformedAction``; the timeout action is legal for every awaited seat;
* games end; the outcome's ranking covers every seat exactly once; ``replay`` of (options, log) gives the same state;
* canonical actions (``canonical_action``): a listed legal action is its own canonical form, with extra fields
  or not; an action that is not legal has none (the same refusal as ``apply_action``'s);
* hidden information: a seat's view and legal actions do not change when ``determinize`` re-deals what that seat
  cannot see, and the events it receives say nothing that its view after the action does not.

:func:`check_analysis` checks a game's post-game analysis (``tapete_sdk.plugin.PostGameAnalysis``) over a random
game: plain JSON, the same every time, the log left as it was, and every analysed move a row of the log, in order.
"""

from __future__ import annotations

import json
import multiprocessing
import os
import random
from collections.abc import Iterator
from concurrent.futures import ProcessPoolExecutor
from dataclasses import dataclass

from tapete_sdk import registry
from tapete_sdk.plugin import (
    CHANCE,
    GameRules,
    IllegalAction,
    InvalidOptions,
    LogRow,
    MalformedAction,
    Outcome,
    PostGameAnalysis,
    RulesError,
    canonical_action,
    play_now_players,
    play_random,
    player_counts_of,
    presets_of,
    rating_pools_of,
    replay,
)

JSON = object
# json.dumps without the encoder's bookkeeping of the containers it is inside: the playouts spend much of their
# time encoding, and a cycle, which could not survive the round-trip checked below, still fails (RecursionError).
_dumps = json.JSONEncoder(check_circular=False).encode


class ConformanceError(AssertionError):
    """A game broke the contract; the message says where (game, seed, step)."""


@dataclass(frozen=True)
class Depth:
    """How much each playout checks: cheap checks on every step always; the costly ones when enabled."""

    apply_every_legal: bool = False
    hidden_information: bool = False
    probe_illegal: bool = True
    canonical_actions: bool = False


FAST = Depth()
DEEP = Depth(apply_every_legal=True, hidden_information=True, canonical_actions=True)


def random_options(rules: GameRules, rng: random.Random) -> dict:
    """A random (not necessarily consistent) choice for every option of the schema."""
    chosen = {}
    for option in rules.options:
        if option.nullable and rng.random() < 0.3:
            chosen[option.name] = None
        elif option.kind == "bool":
            chosen[option.name] = rng.random() < 0.5
        elif option.kind == "choice":
            chosen[option.name] = rng.choice(option.choice_values)
        elif option.kind == "int":
            low = option.minimum if option.minimum is not None else 0
            high = option.maximum if option.maximum is not None else low + 10
            # Keep integers near their default: the extremes of wide ranges make very long games.
            if option.default is not None and high - low > 10:
                low, high = max(low, option.default - 3), min(high, option.default + 3)
            chosen[option.name] = rng.randint(low, high)
        elif option.kind == "multichoice":
            limit = option.max_selected if option.max_selected is not None else len(option.choices)
            chosen[option.name] = rng.sample(list(option.choice_values), rng.randint(0, limit))
    return chosen


def random_setups(rules: GameRules, rng: random.Random, count: int) -> Iterator[tuple[dict, int]]:
    """``count`` valid (normalized options, player count) pairs: defaults first, then random ones."""
    produced = 0
    counts = list(player_counts_of(rules))
    for num_players in counts:
        try:
            yield rules.normalize_options({}, num_players), num_players
        except InvalidOptions:
            continue
        produced += 1
        if produced >= count:
            return
    while produced < count:
        num_players = rng.choice(counts)
        try:
            options = rules.normalize_options(random_options(rules, rng), num_players)
        except InvalidOptions:
            continue
        produced += 1
        yield options, num_players


# The contract's members: its attributes (annotated) and its methods.
CONTRACT_MEMBERS = (
    *GameRules.__annotations__,
    *(name for name, member in vars(GameRules).items() if callable(member) and not name.startswith("_")),
)


def check_declarations(rules: GameRules) -> None:
    """The game has every member of the contract and its declarations agree with its rules: every option is
    labelled and explained (the lobby's form and the how-to page show them), the declared player counts are the
    ones its ``normalize_options`` accepts, every count falls in one of its rating pools, and its presets and "Play
    now" table are valid."""
    missing = [name for name in CONTRACT_MEMBERS if not hasattr(rules, name)]
    if missing:
        raise ConformanceError(f"{getattr(rules, 'key', rules)} lacks the contract's {', '.join(missing)}")
    for option in rules.options:
        texts = [option.label, option.help, *(label for _value, label in option.choices)]
        if not all(isinstance(text, str) and text for text in texts):
            raise ConformanceError(
                f"{rules.key}: option {option.name!r} needs a label, a help text and a label for each choice "
                f"(non-empty strings, translated by the site)"
            )
    counts = player_counts_of(rules)
    for num_players in range(rules.min_players - 1, rules.max_players + 2):
        try:
            rules.normalize_options({}, num_players)
            accepted = True
        except InvalidOptions:
            accepted = False
        if accepted != (num_players in counts):
            raise ConformanceError(
                f"{rules.key}: {num_players} players {'accepted' if accepted else 'refused'} by normalize_options, "
                f"but the declared player counts are {counts}"
            )
    pools = rating_pools_of(rules)
    keys = [pool.key for pool in pools]
    if len(set(keys)) != len(keys) or "bots" in keys:
        raise ConformanceError(f"{rules.key}: rating pool keys must be distinct and not 'bots': {keys}")
    for num_players in counts:
        if not any(not pool.player_counts or num_players in pool.player_counts for pool in pools):
            raise ConformanceError(f"{rules.key}: no rating pool for {num_players} players")
    for pool in pools:
        if not set(pool.player_counts) <= set(counts):
            raise ConformanceError(f"{rules.key}: pool {pool.key!r} names a player count the game refuses")
    if play_now_players(rules) not in counts:
        raise ConformanceError(f"{rules.key}: play_now_players is not one of its player counts")
    for preset in presets_of(rules):
        for num_players in [preset.num_players] if preset.num_players else counts:
            try:
                rules.normalize_options(preset.options, num_players)
            except InvalidOptions as error:
                raise ConformanceError(
                    f"{rules.key}: preset {preset.key!r} is invalid at {num_players} players: {error}"
                ) from error


def check_analysis(
    rules: GameRules, analysis: PostGameAnalysis, options: dict, num_players: int, seed: int
) -> dict:
    """Play one random game and analyse it; the analysis must keep the promises of ``PostGameAnalysis``. Returns
    the analysis."""
    playout = play_random(rules, options, num_players, random.Random(seed))
    log = engine_log(playout.log)
    before = json.dumps(log)
    data = analysis.analyse(rules, playout.options, num_players, log, seed=str(seed))

    def fail(message: str) -> None:
        raise ConformanceError(f"{rules.key} analysis ({num_players} players, seed {seed}): {message}")

    if json.dumps(log) != before:
        fail("the analysis changed the log it was given")
    try:
        if not isinstance(data, dict) or json.loads(json.dumps(data)) != data:
            fail("the analysis is not a JSON object that survives a round trip")
    except (TypeError, ValueError) as error:
        fail(f"the analysis is not plain JSON: {error}")
    if analysis.analyse(rules, playout.options, num_players, log, seed=str(seed)) != data:
        fail("analysing the same match twice gave two analyses")
    rows = {(step, version, seat): index for index, (step, version, seat, _action) in enumerate(log)}
    moves = data.get("moves")
    if not isinstance(moves, list) or not all(isinstance(move, dict) for move in moves):
        fail("the analysis has no list of moves")
    places = [rows.get((move.get("step"), move.get("version"), move.get("seat"))) for move in moves]
    if None in places:
        fail("an analysed move's step, version and seat are not those of a row of the log")
    if places != sorted(places):
        fail("the analysed moves are not in the log's order")
    return data


def engine_log(log: list[tuple[int, dict]]) -> list[LogRow]:
    """``(seat, action)`` pairs as rows of the site's log: numbered steps, and versions that, like the engine's,
    number a seat's action together with the chance steps it sets off (so that steps and versions differ)."""
    rows, version = [], 1
    for step, (seat, action) in enumerate(log, start=1):
        if seat != CHANCE and step > 1:
            version += 1
        rows.append((step, version, seat, action))
    return rows


def check_game(
    rules: GameRules, options: dict, num_players: int, seed: int, depth: Depth = FAST, max_steps: int = 20_000
) -> Outcome:
    """Play one random game with every check of ``depth``; return its outcome."""
    return _Playout(rules, options, num_players, seed, depth).run(max_steps)


def check_playouts(
    game: str,
    setups: list[tuple[dict, int]],
    first_seed: int,
    depth: Depth = FAST,
    processes: int | None = None,
) -> None:
    """:func:`check_game` for each (options, player count) of ``setups``, seeded ``first_seed``, ``first_seed + 1``
    and so on, spread over ``processes`` (default: every core). Playouts are independent and CPU-bound, so the
    result is the same as one after the other, only sooner. Workers are fresh processes (not forks of a caller that
    may hold threads and locks) and find ``game`` with the registry."""
    package = registry.package_of(game)
    runs = [
        (game, package, options, num_players, first_seed + index, depth)
        for index, (options, num_players) in enumerate(setups)
    ]
    processes = processes or os.cpu_count() or 1
    if processes == 1:
        for run in runs:
            _check_one(run)
        return
    with ProcessPoolExecutor(processes, mp_context=multiprocessing.get_context("spawn")) as pool:
        for _ in pool.map(_check_one, runs, chunksize=max(1, len(runs) // (8 * processes))):
            pass


def _check_one(run: tuple[str, str | None, dict, int, int, Depth]) -> None:
    game, package, options, num_players, seed, depth = run
    if game not in {rules.key for rules in registry.all_games()}:
        if package is None:
            registry.discover()
        else:
            registry.load(package)
    check_game(registry.get(game), options, num_players, seed, depth)


_READ_CHANGED_THE_STATE = (
    "the state changed while it was only read: by view, legal_actions, to_act, awaited, outcome, timeout_action, "
    "sample_chance, determinize, canonical_action or a refused apply_action"
)


@dataclass(frozen=True)
class _Step:
    """What one step asks of the rules once and checks against: the state's JSON text (its snapshot), who may act,
    each seat's legal actions and each seat's view (None: a spectator's)."""

    text: str
    acting: frozenset[int]
    legal: dict[int, list[dict]]
    views: dict[int | None, dict]


class _Playout:
    def __init__(self, rules: GameRules, options: dict, num_players: int, seed: int, depth: Depth) -> None:
        self.rules = rules
        self.options = options
        self.num_players = num_players
        self.seed = seed
        self.depth = depth
        self.rng = random.Random(seed)
        self.seats = list(range(num_players))
        self.seen_actions: list[dict] = []
        self.step = 0

    def fail(self, message: str) -> None:
        raise ConformanceError(
            f"{self.rules.key} ({self.num_players} players, seed {self.seed}, step {self.step}): {message}\n"
            f"options: {self.options}"
        )

    def run(self, max_steps: int) -> Outcome:
        rules = self.rules
        state = rules.initial_state(self.options, self.num_players)
        log: list[tuple[int, dict]] = []
        for self.step in range(max_steps):
            step = self.check_state(state)
            if not step.acting:
                return self.check_end(state, step, log)
            if CHANCE in step.acting:
                if step.acting != frozenset({CHANCE}):
                    self.fail(f"CHANCE pending together with seats {sorted(step.acting)}")
                seat, action = CHANCE, rules.sample_chance(state, self.rng)
            else:
                seat = self.rng.choice(sorted(step.acting))
                action = self.rng.choice(step.legal[seat])
            state = self.apply_checked(state, step, seat, action)
            log.append((seat, action))
        self.fail(f"the game did not end within {max_steps} steps")
        raise AssertionError  # unreachable

    def check_state(self, state: dict) -> _Step:
        """The promises about one state; returns what the rest of the step reuses (each asked of the rules once)."""
        rules = self.rules
        # JSON text is a faithful snapshot of a JSON state (checked here) and ~7x cheaper than a deep copy.
        text = _dumps(state)
        if json.loads(text) != state:
            self.fail("state does not survive a JSON round-trip")
        acting = rules.to_act(state)
        awaited = rules.awaited(state)
        if not awaited <= acting - {CHANCE}:
            self.fail(f"awaited {sorted(awaited)} is not a subset of to_act {sorted(acting)}")
        if acting and rules.outcome(state) is not None:
            self.fail("outcome is set while seats may still act")
        legal = {}
        for seat in self.seats:
            legal[seat] = rules.legal_actions(state, seat)
            if seat in acting and not legal[seat]:
                self.fail(f"seat {seat} is in to_act but has no legal action")
            if seat not in acting and legal[seat]:
                self.fail(f"seat {seat} is not in to_act but has legal actions {legal[seat][:3]}")
            self.seen_actions.extend(legal[seat][:5])
            if seat in awaited:
                timeout = rules.timeout_action(state, seat)
                if timeout not in legal[seat]:
                    self.fail(f"timeout action {timeout} of seat {seat} is not legal")
        views = {}
        for seat in [*self.seats, None]:
            views[seat] = rules.view(state, seat)
            if json.loads(_dumps(views[seat])) != views[seat]:
                self.fail(f"view of seat {seat} does not survive a JSON round-trip")
        step = _Step(text, acting, legal, views)
        if self.depth.probe_illegal and CHANCE not in acting:
            self.probe_illegal(state, step)
        if self.depth.canonical_actions and CHANCE not in acting and self.step % 2 == 0:
            self.check_canonical(state, step)
        if self.depth.hidden_information:
            self.check_hidden_information(state, step)
        return step

    def apply_checked(self, state: dict, step: _Step, seat: int, action: dict) -> dict:
        action_before = _dumps(action)
        if self.depth.apply_every_legal and seat != CHANCE:
            for other_action in step.legal[seat]:
                self.rules.apply_action(state, seat, other_action)
        new_state, events = self.rules.apply_action(state, seat, action)
        if _dumps(action) != action_before:
            self.fail(f"apply_action mutated its input ({action})")
        if _dumps(state) != step.text:
            self.fail(self.what_changed_the_state(step, seat, action))
        for event in events:
            visible_to = event.get("visible_to", "missing")
            if visible_to is not None and not (
                isinstance(visible_to, list) and all(s in self.seats for s in visible_to)
            ):
                self.fail(f"event {event} has no valid visible_to")
        if json.loads(_dumps(events)) != events:
            self.fail("events do not survive a JSON round-trip")
        if self.depth.hidden_information:
            self.check_events_leak_nothing(state, seat, action, new_state, events)
        return new_state

    def what_changed_the_state(self, step: _Step, seat: int, action: dict) -> str:
        """The state changed during the step (one comparison after ``apply_action`` covers every call): the step's
        ``apply_action`` calls again, each on a fresh copy, tell whether it was one of them or a call that only
        reads."""
        applied = step.legal[seat] if self.depth.apply_every_legal and seat != CHANCE else []
        for each in [*applied, action]:
            fresh = json.loads(step.text)
            self.rules.apply_action(fresh, seat, each)
            if _dumps(fresh) != step.text:
                return f"apply_action mutated its input ({each})"
        return _READ_CHANGED_THE_STATE

    def probe_illegal(self, state: dict, step: _Step) -> None:
        """Actions outside a seat's legal list are refused (and change nothing: checked after the step's action)."""
        rules = self.rules
        probes: list[tuple[int, dict, type[RulesError]]] = []
        outsiders = [s for s in self.seats if s not in step.acting]
        for seat in step.acting:
            legal = step.legal[seat]
            for outsider in outsiders[:2]:
                probes.append((outsider, self.rng.choice(legal), IllegalAction))
            for old in self.rng.sample(self.seen_actions, min(4, len(self.seen_actions))):
                if old not in legal:
                    probes.append((seat, old, IllegalAction))
            probes.append((seat, {"type": "no-such-action"}, MalformedAction))
            probes.append((seat, ["not", "a", "dict"], MalformedAction))
        for seat, action, expected in probes:
            try:
                rules.apply_action(state, seat, action)
            except expected:
                continue
            except RulesError as error:
                self.fail(f"{action} from seat {seat} raised {type(error).__name__}, not {expected.__name__}")
            self.fail(f"seat {seat} may play {action}, which is not in its legal actions")

    def check_canonical(self, state: dict, step: _Step) -> None:
        """What the engine stores is the canonical form: a listed action with extra fields has the listed action as
        its canonical form, and actions that are not legal (another seat's, an unknown type) have none."""
        rules = self.rules
        for seat in step.acting:
            action = self.rng.choice(step.legal[seat])
            sent = {**action, "junk": "<script>" + "A" * 64, "seat": 99}
            try:
                canonical = canonical_action(rules, state, seat, sent)
            except RulesError as error:
                self.fail(f"the legal action {sent} of seat {seat} has no canonical form: {error}")
            if canonical != action:
                self.fail(f"the canonical form of {sent} is {canonical}, not the listed {action}")
            for outsider in [s for s in self.seats if s not in step.acting][:1]:
                self.expect_no_canonical(state, outsider, action)
            self.expect_no_canonical(state, seat, {"type": "no-such-action"})

    def expect_no_canonical(self, state: dict, seat: int, action: dict) -> None:
        try:
            canonical = canonical_action(self.rules, state, seat, action)
        except RulesError:
            return
        self.fail(f"{action} from seat {seat} is not legal but has the canonical form {canonical}")

    def check_hidden_information(self, state: dict, step: _Step) -> None:
        """A seat's view and legal actions are functions of what it may know."""
        rules = self.rules
        for seat in [*self.seats, None]:
            for _ in range(2):
                other = rules.determinize(state, seat, self.rng)
                if rules.view(other, seat) != step.views[seat]:
                    self.fail(f"view of seat {seat} changes when hidden information is re-dealt")
                if seat is not None and rules.legal_actions(other, seat) != step.legal[seat]:
                    self.fail(f"legal actions of seat {seat} depend on hidden information")

    def check_events_leak_nothing(
        self, state: dict, actor: int, action: dict, new_state: dict, events: list[dict]
    ) -> None:
        """Play the same action in worlds the observer cannot tell apart: where its view after is the same, the
        events it receives must be the same too."""
        rules = self.rules
        for observer in [*self.seats, None]:
            seen = _visible(events, observer)
            view_after = rules.view(new_state, observer)
            for _ in range(3):
                world = rules.determinize(state, observer, self.rng)
                try:
                    world_after, world_events = rules.apply_action(world, actor, action)
                except RulesError:
                    continue  # the action needs something this world dealt elsewhere; try another world
                if (
                    rules.view(world_after, observer) == view_after
                    and _visible(world_events, observer) != seen
                ):
                    self.fail(f"events seen by {observer} after {action} depend on hidden information")
                break

    def check_end(self, state: dict, step: _Step, log: list[tuple[int, dict]]) -> Outcome:
        outcome = self.rules.outcome(state)
        if outcome is None:
            self.fail("nobody may act but there is no outcome")
        ranked = [seat for group in outcome.ranking for seat in group]
        if sorted(ranked) != self.seats or any(not group for group in outcome.ranking):
            self.fail(f"ranking {outcome.ranking} does not cover every seat exactly once")
        if self.rules.awaited(state):
            self.fail("seats are awaited after the end")
        if replay(self.rules, self.options, self.num_players, log) != state:
            self.fail("replaying the action log gives a different final state")
        if _dumps(state) != step.text:
            self.fail(_READ_CHANGED_THE_STATE)
        return outcome


def _visible(events: list[dict], seat: int | None) -> list[dict]:
    return [
        e for e in events if e.get("visible_to") is None or (seat is not None and seat in e["visible_to"])
    ]
