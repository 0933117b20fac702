"""Bot tournaments: headless games between the levels of each title and its reference players; prints win rates
with 95% intervals, and each entrant's decision times on the title's hardest positions.

Run (nice it: the machine is shared)::

    PYTHONPATH=platform:. nice -n 10 .venv/bin/python bench/bots_tournament.py --games 280 --game perudo
    PYTHONPATH=platform:. nice -n 10 .venv/bin/python bench/bots_tournament.py --game spicy --players 2 4 \
        --entrants medium reference --speed-positions 0

Entrants are the levels the game declares (``LEVELS`` of ``games/<key>/bots.py``, see ``tapete_sdk.registry``:
level name -> ``choose(view, legal, rng)``, a function of the seat's view and legal actions only, returning an
action from ``legal``, or None to let an out-of-turn chance go by) and the title's reference player from ``bench/reference_players/`` (entrant
``reference``), a simple player written from the rules alone.

How a pairing is played, so that its figures can be trusted:

* **Seatings**: every lineup of the two entrants over the seats in which both appear is played in turn (2 at two
  players, 6 at three, 14 at four, 62 at six; in an order shuffled per pairing), so neither profits from the seat
  order nor from being more or fewer.
* **Fair share**: a game is won by the entrant holding the winning seat (a tie at the top is shared). An entrant
  holding k of the n seats wins k / n of the games by chance; the fair share printed is that figure averaged over
  the games played (one half once the seatings have come round evenly).
* **Interval**: the Wilson 95% score interval of the win rate. It is slightly conservative here (games with
  different fair shares vary less than a binomial). The verdict is ``above`` or ``below`` only when the interval
  excludes the fair share.
* **Seeds**: each pairing draws its dice, cards and bot randomness from its own seed (``--seed`` and the pairing's
  names), so pairings do not replay the same deals.
* **Stalls**: the ``turn limit`` column counts the games stopped by a turn limit instead of won (Chinese
  Checkers' ``maxTurns``): a level that cannot finish a game shows there.
* **Options**: each game draws its table options from the title's option schema (every bool, choice and
  multichoice option at random, integers at their defaults; a draw the rules refuse is drawn again), so Calza,
  Salsa, the Palifico modes, the Spice It Up! cards and the blocked-target rules all come up. ``--default-options``
  plays the defaults only.

Speed: each entrant decides on positions of the title's hardest kind (:data:`HARD_POSITIONS`: 6-player Chinese
Checkers midgames, 6-player Perudo with 10 dice each under Calza and Salsa, 6-player Spicy with large hands, deep
stacks and the Spice It Up! cards that multiply the choices), for every seat that may act there; the table shows
the median, 95th percentile and worst time per decision. ``--cold`` empties the title's caches (every
``functools`` cache of its modules) before each timed decision, as for the first decision of a fresh process.
"""

from __future__ import annotations

import argparse
import importlib
import itertools
import math
import random
import statistics
import sys
import time
import zlib
from collections.abc import Callable, Iterator
from dataclasses import dataclass
from types import ModuleType
from typing import Any

from tapete_sdk import registry
from tapete_sdk.plugin import CHANCE, GameRules, InvalidOptions, Option

MAX_STEPS = 20_000
Z95 = 1.959963984540054  # the 97.5th percentile of the standard normal law
REFERENCE = "reference"
TURN_LIMIT = (
    "max_turns"  # the outcome reason of a game stopped by its turn limit (Chinese Checkers' maxTurns)
)
# Options held fixed in tournaments: no challenge grace period in Spicy (the pure rules have no clock).
FIXED_OPTIONS: dict[str, dict[str, Any]] = {"spicy": {"challengeGraceMs": 0}}

Bot = Callable[[dict, list[dict], random.Random], dict | None]
State = dict[str, Any]


# --- arithmetic ---------------------------------------------------------------------------------------------


def fair_share(lineup: tuple[str, ...], entrant: str) -> float:
    """The share of games ``entrant`` wins by chance with this lineup: the seats it holds over the seats."""
    return lineup.count(entrant) / len(lineup)


def seatings(first: str, second: str, num_players: int) -> list[tuple[str, ...]]:
    """Every lineup of the two entrants over ``num_players`` seats in which both appear, in a fixed order."""
    return [
        lineup
        for lineup in itertools.product((first, second), repeat=num_players)
        if first in lineup and second in lineup
    ]


def wilson_interval(successes: float, trials: int, z: float = Z95) -> tuple[float, float]:
    """The Wilson score interval of a proportion (``successes`` may be fractional: shared wins)."""
    if trials <= 0:
        return 0.0, 1.0
    p = successes / trials
    denominator = 1.0 + z * z / trials
    centre = (p + z * z / (2 * trials)) / denominator
    half = z / denominator * math.sqrt(p * (1.0 - p) / trials + z * z / (4 * trials * trials))
    return max(0.0, centre - half), min(1.0, centre + half)


def pairing_seed(base: int, *names: object) -> int:
    """A seed of its own for each pairing, stable from run to run."""
    return zlib.crc32(repr((base, *names)).encode())


def percentile(sorted_values: list[float], fraction: float) -> float:
    """The nearest-rank percentile of an ascending list."""
    index = max(0, math.ceil(fraction * len(sorted_values)) - 1)
    return sorted_values[index]


# --- entrants and options -----------------------------------------------------------------------------------


def reference_player(key: str) -> Bot | None:
    """The reference player of a title: ``choose`` in ``bench/reference_players/<key>.py`` (or the module's only
    ``choose_*`` function), if there is such a module."""
    try:
        module: ModuleType = importlib.import_module(f"bench.reference_players.{key}")
    except ModuleNotFoundError as error:
        if error.name != f"bench.reference_players.{key}":
            raise
        return None
    if callable(getattr(module, "choose", None)):
        return module.choose
    named = [
        value
        for name, value in vars(module).items()
        if name.startswith("choose")
        and callable(value)
        and getattr(value, "__module__", None) == module.__name__
    ]
    if len(named) != 1:
        raise AttributeError(f"{module.__name__} must define choose(view, legal, rng)")
    return named[0]


def entrants_of(key: str) -> dict[str, Bot]:
    """The levels of a title (weakest first) and its reference player; empty for a title without bots."""
    levels: dict[str, Bot] = registry.bot_levels(key)
    if not levels:
        return {}
    entrants = dict(levels)
    reference = reference_player(key)
    if reference is not None:
        entrants[REFERENCE] = reference
    return entrants


def random_value(option: Option, rng: random.Random) -> Any:
    """A value of ``option`` drawn at random from its schema; integers keep their default."""
    if option.kind == "bool":
        return rng.random() < 0.5
    if option.kind == "choice":
        return rng.choice(option.choice_values)
    if option.kind == "multichoice":
        most = len(option.choices) if option.max_selected is None else option.max_selected
        return rng.sample(list(option.choice_values), rng.randint(0, most))
    return option.default


def sample_options(rules: GameRules, num_players: int, rng: random.Random) -> dict[str, Any]:
    """Table options drawn from the title's schema, redrawn until the rules accept them."""
    fixed = FIXED_OPTIONS.get(rules.key, {})
    for _ in range(100):
        options = {
            option.name: random_value(option, rng) for option in rules.options if option.name not in fixed
        }
        options.update(fixed)
        try:
            return rules.normalize_options(options, num_players)
        except InvalidOptions:
            continue
    raise RuntimeError(f"{rules.key}: no valid option set drawn in 100 tries")


def default_options(rules: GameRules, num_players: int) -> dict[str, Any]:
    return rules.normalize_options(dict(FIXED_OPTIONS.get(rules.key, {})), num_players)


# --- games --------------------------------------------------------------------------------------------------


def advance(rules: GameRules, state: State, seat_bots: list[Bot], rng: random.Random) -> State:
    """One step: the chance step, or the first seat whose bot acts (out-of-turn chances before awaited seats)."""
    acting = rules.to_act(state)
    if CHANCE in acting:
        return rules.apply_action(state, CHANCE, rules.sample_chance(state, rng))[0]
    awaited = rules.awaited(state)
    for seat in sorted(acting, key=lambda seat: (seat in awaited, rng.random())):
        action = seat_bots[seat](rules.view(state, seat), rules.legal_actions(state, seat), rng)
        if action is not None:
            return rules.apply_action(state, seat, action)[0]
    raise RuntimeError(f"{rules.key}: every acting bot declined to act")


def play(rules: GameRules, options: dict, seat_bots: list[Bot], rng: random.Random):
    """One game from normalized ``options``; each seat's bot sees only ``rules.view(state, seat)`` and its legal
    actions. Returns the outcome."""
    state = rules.initial_state(options, len(seat_bots))
    for _ in range(MAX_STEPS):
        if not rules.to_act(state):
            return rules.outcome(state)
        state = advance(rules, state, seat_bots, rng)
    raise RuntimeError(f"{rules.key}: no end after {MAX_STEPS} steps")


@dataclass
class Pairing:
    """The result of ``first`` against ``second``: wins and fair share are ``first``'s."""

    first: str
    second: str
    num_players: int
    games: int = 0
    wins: float = 0.0
    fair: float = 0.0  # summed over the games: the expected wins by chance
    seconds: float = 0.0
    turn_limit: int = 0  # games ended by a turn limit rather than won (a stalled table)

    @property
    def rate(self) -> float:
        return self.wins / self.games

    @property
    def fair_share(self) -> float:
        return self.fair / self.games

    @property
    def interval(self) -> tuple[float, float]:
        return wilson_interval(self.wins, self.games)

    @property
    def verdict(self) -> str:
        low, high = self.interval
        return "above" if low > self.fair_share else ("below" if high < self.fair_share else "even")


def head_to_head(
    rules: GameRules,
    entrants: dict[str, Bot],
    first: str,
    second: str,
    games: int,
    num_players: int,
    seed: int,
    vary_options: bool = True,
) -> Pairing:
    """``games`` games of ``first`` against ``second``, cycling through every seating, options drawn per game."""
    rng = random.Random(pairing_seed(seed, rules.key, num_players, first, second))
    lineups = seatings(first, second, num_players)
    rng.shuffle(lineups)  # a partial cycle (few games, many seats) then samples the seatings evenly
    result = Pairing(first, second, num_players)
    start = time.perf_counter()
    for game in range(games):
        lineup = lineups[game % len(lineups)]
        options = (
            sample_options(rules, num_players, rng) if vary_options else default_options(rules, num_players)
        )
        outcome = play(rules, options, [entrants[name] for name in lineup], rng)
        winners = outcome.ranking[0]
        result.games += 1
        result.wins += sum(lineup[seat] == first for seat in winners) / len(winners)
        result.fair += fair_share(lineup, first)
        result.turn_limit += outcome.reason == TURN_LIMIT
    result.seconds = time.perf_counter() - start
    return result


# --- the hardest positions ----------------------------------------------------------------------------------


@dataclass(frozen=True)
class HardPositions:
    """How to reach a title's hardest positions: the table, the level that plays there, how far to go."""

    num_players: int
    options: dict[str, Any]
    driver: str  # the level whose moves lead to the positions
    steps: tuple[int, int]  # a position is taken after a random number of steps in this range
    keep: Callable[[dict], bool] = lambda view: True  # which of those positions count (from a seat's view)


def crowded_spicy(view: dict) -> bool:
    """A deep stack while every hand is still full-ish: the most plays and declarations to weigh."""
    return view["stack_size"] >= 4 and min(view["hand_sizes"]) >= 4


HARD_POSITIONS: dict[str, HardPositions] = {
    "chinesecheckers": HardPositions(6, {}, "medium", (6 * 12, 6 * 30)),
    "perudo": HardPositions(
        6, {"startingDice": 10, "maxDice": 10, "calza": True, "salsa": True}, "medium", (1, 40)
    ),
    "spicy": HardPositions(
        6,
        {"challengeGraceMs": 0, "handSize": 10, "spiceItUp": ["copy_cat", "change_your_luck"]},
        "medium",
        (8, 60),
        crowded_spicy,
    ),
}


def hard_positions(rules: GameRules, entrants: dict[str, Bot], count: int, seed: int) -> Iterator[State]:
    """Up to ``count`` positions of the title's hardest kind, reached by its driver level from fresh games."""
    plan = HARD_POSITIONS[rules.key]
    rng = random.Random(pairing_seed(seed, rules.key, "speed"))
    options = rules.normalize_options(plan.options, plan.num_players)
    driver = [entrants[plan.driver]] * plan.num_players
    found = 0
    for _attempt in range(50 * count):  # a position kind that never comes up must not hang the run
        if found == count:
            return
        state = rules.initial_state(options, plan.num_players)
        for _ in range(rng.randint(*plan.steps)):
            if not rules.to_act(state):
                break
            state = advance(rules, state, driver, rng)
        acting = rules.to_act(state) - {CHANCE}
        if acting and CHANCE not in rules.to_act(state) and plan.keep(rules.view(state, min(acting))):
            found += 1
            yield state


def clear_caches(key: str) -> None:
    """Empty every ``functools`` cache of the title's modules: the next decision starts cold."""
    for name, module in list(sys.modules.items()):
        if name == f"games.{key}" or name.startswith(f"games.{key}."):
            for value in vars(module).values():
                if callable(getattr(value, "cache_clear", None)):
                    value.cache_clear()


def decision_times(
    rules: GameRules, entrants: dict[str, Bot], positions: list[State], seed: int, cold: bool = False
) -> dict[str, list[float]]:
    """Per entrant, the seconds each decision took, for every seat that may act in each position; with ``cold``
    every decision starts with the title's caches emptied (:func:`clear_caches`)."""
    times: dict[str, list[float]] = {name: [] for name in entrants}
    for index, state in enumerate(positions):
        for seat in sorted(rules.to_act(state)):
            view, legal = rules.view(state, seat), rules.legal_actions(state, seat)
            for name, bot in entrants.items():
                rng = random.Random(pairing_seed(seed, index, seat, name))
                if cold:
                    clear_caches(rules.key)
                start = time.perf_counter()
                bot(view, legal, rng)
                times[name].append(time.perf_counter() - start)
    return times


# --- printing -----------------------------------------------------------------------------------------------


def print_pairings_header(key: str) -> None:
    print(f"\n### {key}\n")
    print(
        "| players | entrant | against | games | wins | 95% interval | fair share | verdict | turn limit | games/s |"
    )
    print("| --- | --- | --- | ---: | ---: | ---: | ---: | --- | ---: | ---: |", flush=True)


def print_pairing(result: Pairing) -> None:
    low, high = result.interval
    print(
        f"| {result.num_players} | {result.first} | {result.second} | {result.games} | {result.rate:.1%} "
        f"| {low:.1%}–{high:.1%} | {result.fair_share:.0%} | {result.verdict} | {result.turn_limit} "
        f"| {result.games / result.seconds:.1f} |",
        flush=True,
    )


def print_speed(key: str, times: dict[str, list[float]], positions: int, cold: bool = False) -> None:
    plan = HARD_POSITIONS[key]
    caches = ", cold caches" if cold else ""
    print(
        f"\n{key}: decision times on {positions} positions ({plan.num_players} players, {plan.options}{caches})\n"
    )
    print("| entrant | decisions | p50 ms | p95 ms | max ms |")
    print("| --- | ---: | ---: | ---: | ---: |")
    for name, values in times.items():
        values = sorted(values)
        print(
            f"| {name} | {len(values)} | {statistics.median(values) * 1000:.3f} "
            f"| {percentile(values, 0.95) * 1000:.3f} | {values[-1] * 1000:.3f} |"
        )


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument(
        "--games", type=int, default=280, help="games per pairing and player count (0: speed only)"
    )
    parser.add_argument("--game", action="append", help="only this title (repeatable)")
    parser.add_argument("--players", type=int, nargs="+", default=[2, 4], help="player counts")
    parser.add_argument("--entrants", nargs="+", help="only these entrants (level names, reference)")
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--default-options", action="store_true", help="play the default options only")
    parser.add_argument(
        "--speed-positions", type=int, default=30, help="hardest positions per title (0: none)"
    )
    parser.add_argument(
        "--cold", action="store_true", help="empty the title's caches before each timed decision"
    )
    args = parser.parse_args()
    for rules in registry.discover():
        if args.game and rules.key not in args.game:
            continue
        entrants = entrants_of(rules.key)
        if args.entrants:
            entrants = {name: bot for name, bot in entrants.items() if name in args.entrants}
        if not entrants:
            continue
        # the stronger first: the levels strongest first, then the reference player
        order = [name for name in reversed(list(entrants)) if name != REFERENCE]
        order += [REFERENCE] if REFERENCE in entrants else []
        if args.games:
            print_pairings_header(rules.key)
        for players in args.players if args.games else ():
            for first, second in itertools.combinations(order, 2):
                if rules.min_players <= players <= rules.max_players:
                    vary = not args.default_options
                    print_pairing(
                        head_to_head(rules, entrants, first, second, args.games, players, args.seed, vary)
                    )
        if args.speed_positions and rules.key in HARD_POSITIONS:
            positions = list(hard_positions(rules, entrants_of(rules.key), args.speed_positions, args.seed))
            if positions:
                times = decision_times(rules, entrants, positions, args.seed, args.cold)
                print_speed(rules.key, times, len(positions), args.cold)
            else:
                print(f"\n{rules.key}: no position of the hardest kind was reached")


if __name__ == "__main__":
    main()
