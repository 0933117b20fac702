"""The game-plugin contract: what every game's pure rules library provides.

A game is a module-level object ``RULES`` (in ``games/<key>/rules.py``) that satisfies :class:`GameRules`.
Everything here is pure Python (standard library only): no Django, no I/O, no clock, no hidden randomness, so
a bot author or researcher can ``import games.perudo.rules`` and play without the site.

A game is one folder: its package holds ``rules.py`` (``RULES``), optionally its computer players (``LEVELS``, loaded
by :mod:`tapete_sdk.registry`), its board assets and pages (docs/games.md, "A game is one folder"); a site
installs it by its package's name alone. What the site needs to know about it, the game declares on ``RULES``, each with a
default so that a minimal game declares nothing: its player counts (:func:`player_counts_of`), rating pools
(:func:`rating_pools_of`), presets (:func:`presets_of`), the seats of a "Play now" table (:func:`play_now_players`)
and the sentences of its option errors (:func:`option_errors_of`). A game may also have a post-game analysis, a
module of its own (:class:`PostGameAnalysis`).

Conventions shared by every game:

* **State is plain JSON** (dicts with string keys, lists, str, int, bool, None). It round-trips exactly through
  ``json.dumps``/``json.loads`` and is never mutated by ``apply_action``.
* **Seats** are ints ``0..n-1``. :data:`CHANCE` (-1) is the pseudo-seat of the dice roll or card shuffle:
  when ``CHANCE in to_act(state)`` the engine calls ``sample_chance(state, rng)`` and applies the result as the
  action of seat ``CHANCE``. Chance outcomes are therefore actions in the log, so a match replays exactly from
  (normalized options, action log).
* **Actions** are small dicts with a ``"type"`` key. A malformed action (wrong shape or types) raises
  :class:`MalformedAction`; a well-formed action the rules forbid now raises :class:`IllegalAction`. Both carry a
  machine-readable ``code`` (the UI translates it) and a readable English ``message``: they are
  coded errors (:class:`CodedError`), like the engine's and the lobby's refusals.
* **Canonical actions**: the engine never stores or broadcasts a client's action object, but its canonical form,
  :func:`canonical_action`: the listed legal action it names, with only that action's fields and their types. A
  game may define ``canonical_action(state, seat, action)`` itself; the default matches against ``legal_actions``.
* **Events** returned by ``apply_action`` are dicts ``{"type": ..., "visible_to": None | [seats], ...}``.
  ``visible_to`` None means public; a list restricts the event to those seats. A seat's game log is built only from
  the events it may see, so events never tell a seat more than its view.
* **Views**: ``view(state, seat)`` is the only thing that leaves the server for that seat (``None`` = spectator).
  It must be a function of what that seat may know: ``determinize`` re-deals everything the seat cannot see, and
  the shared conformance suite checks that the view does not change.
* Labels and help texts in option schemas are English source strings marked with :func:`gettext_noop`; the site
  translates them when it renders them.
"""

from __future__ import annotations

import random
from dataclasses import dataclass, field
from typing import Any, Protocol, runtime_checkable

CHANCE = -1

JSON = Any


def gettext_noop(message: str) -> str:
    """Mark a string for translation without translating it (Django's makemessages extracts this name)."""
    return message


class CodedError(Exception):
    """A refusal: a stable, machine-readable ``code`` (clients translate it) and a readable ``message``. The base
    of the rules' errors (:class:`RulesError`), the engine's (``turnengine.errors.EngineError``), the lobby's
    (``lobby.errors.LobbyError``), the Bot API's (``botapi.errors``) and moderation's
    (``moderation.services.Refused``); whoever raises one has changed nothing."""

    def __init__(self, code: str, message: str) -> None:
        self.code = code
        self.message = str(message)
        super().__init__(f"{code}: {self.message}")

    def as_dict(self) -> dict[str, str]:
        return {"code": self.code, "message": self.message}


class RulesError(CodedError):
    """Base of the errors a rules library raises."""


class IllegalAction(RulesError):
    """A well-formed action that the rules forbid in this state (not your turn, bid too low...)."""


class MalformedAction(RulesError):
    """An action whose shape is wrong: unknown type, missing field, wrong value type."""


class InvalidOptions(RulesError):
    """Table options that are unknown, of the wrong type, out of range, or inconsistent."""


@dataclass(frozen=True)
class Outcome:
    """The result of a finished game.

    ``ranking`` lists groups of seats, best first; seats in one group tied. Every seat appears exactly once.
    ``reason`` is a short machine-readable code (``"last_player_standing"``, ``"all_home"`` ...).
    ``scores`` optionally maps seat -> final score for games that score.
    """

    ranking: list[list[int]]
    reason: str
    scores: dict[int, int] | None = None

    def to_json(self) -> dict[str, JSON]:
        return {
            "ranking": [list(group) for group in self.ranking],
            "reason": self.reason,
            "scores": None if self.scores is None else {str(k): v for k, v in self.scores.items()},
        }

    @property
    def winners(self) -> list[int]:
        return list(self.ranking[0]) if self.ranking else []


OPTION_KINDS = ("bool", "int", "choice", "multichoice")


@dataclass(frozen=True)
class Option:
    """One table option: the lobby builds its form field from this, the rules validate against it.

    kinds: ``bool``; ``int`` (``minimum``/``maximum``); ``choice`` (one of ``choices``); ``multichoice`` (a list of
    distinct values from ``choices``, at most ``max_selected``). ``choices`` are ``(value, label)`` pairs.
    ``nullable`` allows ``None`` (meaning "the default for this player count", explained in ``help``).
    ``house_rule`` marks variants that no official rule text has. ``unit`` is ``"ms"`` for an ``int`` that is a
    duration in milliseconds (the site asks for it, and shows it, in seconds). ``requires`` names the ``bool`` option
    without which this one changes nothing (Calza's caller without Calza): the site then leaves it out of the
    table's rules in words.
    """

    name: str
    kind: str
    default: JSON
    label: str
    help: str
    choices: tuple[tuple[JSON, str], ...] = ()
    minimum: int | None = None
    maximum: int | None = None
    max_selected: int | None = None
    nullable: bool = False
    house_rule: bool = False
    unit: str = ""
    requires: str = ""

    def __post_init__(self) -> None:
        if self.kind not in OPTION_KINDS:
            raise ValueError(f"unknown option kind {self.kind!r}")

    @property
    def choice_values(self) -> tuple[JSON, ...]:
        return tuple(value for value, _label in self.choices)

    def validate(self, value: JSON) -> JSON:
        """Return ``value`` if it is valid for this option, else raise :class:`InvalidOptions`."""
        if value is None:
            if self.nullable:
                return None
            raise InvalidOptions("option_required", f"option {self.name!r} may not be null")
        if self.kind == "bool":
            if not isinstance(value, bool):
                raise InvalidOptions("option_type", f"option {self.name!r} must be true or false")
        elif self.kind == "int":
            if isinstance(value, bool) or not isinstance(value, int):
                raise InvalidOptions("option_type", f"option {self.name!r} must be an integer")
            if self.minimum is not None and value < self.minimum:
                raise InvalidOptions("option_range", f"option {self.name!r} must be at least {self.minimum}")
            if self.maximum is not None and value > self.maximum:
                raise InvalidOptions("option_range", f"option {self.name!r} must be at most {self.maximum}")
        elif self.kind == "choice":
            if value not in self.choice_values or isinstance(value, bool) != isinstance(self.default, bool):
                allowed = ", ".join(repr(v) for v in self.choice_values)
                raise InvalidOptions("option_choice", f"option {self.name!r} must be one of {allowed}")
        elif self.kind == "multichoice":
            if not isinstance(value, list) or any(v not in self.choice_values for v in value):
                allowed = ", ".join(repr(v) for v in self.choice_values)
                raise InvalidOptions("option_choice", f"option {self.name!r} must be a list of {allowed}")
            if len(set(value)) != len(value):
                raise InvalidOptions("option_choice", f"option {self.name!r} lists a value twice")
            if self.max_selected is not None and len(value) > self.max_selected:
                raise InvalidOptions(
                    "option_range", f"option {self.name!r} takes at most {self.max_selected} values"
                )
        return value

    def to_json(self) -> dict[str, JSON]:
        return {
            "name": self.name,
            "kind": self.kind,
            "default": self.default,
            "label": self.label,
            "help": self.help,
            "choices": [[value, label] for value, label in self.choices],
            "minimum": self.minimum,
            "maximum": self.maximum,
            "max_selected": self.max_selected,
            "nullable": self.nullable,
            "house_rule": self.house_rule,
            "unit": self.unit,
            "requires": self.requires,
        }


@dataclass(frozen=True)
class Preset:
    """A named set of options a table creator picks in one click ("Board Game Arena", "Base game", "4 players").

    ``options`` are partial (the schema's defaults fill the rest); ``num_players`` fixes the player count when the
    preset is about it. Games list theirs in ``RULES.presets`` (see :func:`presets_of`); ``label`` and ``help`` are
    English source strings marked with :func:`gettext_noop`.
    """

    key: str
    label: str
    options: dict[str, JSON] = field(default_factory=dict)
    num_players: int | None = None
    help: str = ""


@dataclass(frozen=True)
class RatingPool:
    """A rating pool: the tables whose results are rated together, because a variant (here, the player count)
    changes the game too much for one rating to mean anything across it.

    ``player_counts`` are the counts of its tables (empty: every count). ``label`` names the pool on the leaderboard:
    an English source string marked with :func:`gettext_noop`, or empty for the site's own words ("2 players" for a
    pool of one count, "All tables" otherwise). Games list theirs in ``RULES.rating_pools`` (see
    :func:`rating_pools_of`), in the order the leaderboard shows them; keys are stored with every rating.
    """

    key: str
    player_counts: tuple[int, ...] = ()
    label: str = ""


STANDARD_POOL = RatingPool("standard")


def rating_pools_of(rules) -> tuple[RatingPool, ...]:
    """The game's rating pools; a game that declares none has one, ``standard``, for every table."""
    return tuple(getattr(rules, "rating_pools", ())) or (STANDARD_POOL,)


def rating_pool_for(rules, num_players: int) -> RatingPool:
    """The pool of a table of ``num_players``: the first declared pool that admits the count."""
    for pool in rating_pools_of(rules):
        if not pool.player_counts or num_players in pool.player_counts:
            return pool
    raise ValueError(f"{rules.key}: no rating pool for {num_players} players")


def player_counts_of(rules) -> tuple[int, ...]:
    """The player counts the game is played by: its ``player_counts`` if it declares them (Chinese Checkers skips
    5), else every count from ``min_players`` to ``max_players``."""
    declared = getattr(rules, "player_counts", None)
    if declared is not None:
        return tuple(declared)
    return tuple(range(rules.min_players, rules.max_players + 1))


def presets_of(rules) -> tuple[Preset, ...]:
    """The game's presets, best known first; a game that declares none has only its custom options."""
    return tuple(getattr(rules, "presets", ()))


def option_errors_of(rules) -> dict[str, str]:
    """The game's sentences for the codes of its cross-option checks (``option_errors``: code -> English sentence
    marked with :func:`gettext_noop`), shown to a table creator instead of the exception's terse message."""
    return dict(getattr(rules, "option_errors", {}))


def play_now_players(rules) -> int:
    """How many seats a one-click "Play now" table has (the player and computer players): the game's
    ``play_now_players`` if it declares one, else its minimum."""
    return int(getattr(rules, "play_now_players", rules.min_players))


def place_points(rules, num_players: int) -> tuple[int, ...]:
    """The tournament points of each place at a table of ``num_players``, first place first: the game's
    ``place_points(num_players)`` if it declares one, else two points for every player finished ahead of (so 1st of
    4 earns 6, 1st of 2 earns 2, last earns 0). Players tied share the mean of the places they cover, rounded
    down (:func:`ranking_points`)."""
    declared = getattr(rules, "place_points", None)
    if declared is not None:
        return tuple(int(points) for points in declared(num_players))
    return tuple(2 * (num_players - 1 - place) for place in range(num_players))


def ranking_points(rules, ranking: list[list[int]], num_players: int) -> dict[int, int]:
    """Seat -> tournament points for a finished table's ``ranking`` (groups of tied seats, best first)."""
    points = place_points(rules, num_players)
    result, place = {}, 0
    for group in ranking:
        shared = points[place : place + len(group)]
        for seat in group:
            result[seat] = sum(shared) // len(shared) if shared else 0
        place += len(group)
    return result


def normalize_with_schema(
    schema: tuple[Option, ...],
    options: dict[str, JSON] | None,
    num_players: int,
    min_players: int,
    max_players: int,
) -> dict[str, JSON]:
    """Fill defaults and validate each option against ``schema``; games add their cross-option checks after."""
    if isinstance(num_players, bool) or not isinstance(num_players, int):
        raise InvalidOptions("player_count", "the number of players must be an integer")
    if not min_players <= num_players <= max_players:
        raise InvalidOptions(
            "player_count", f"this game is for {min_players} to {max_players} players, not {num_players}"
        )
    options = dict(options or {})
    known = {option.name for option in schema}
    unknown = sorted(set(options) - known)
    if unknown:
        raise InvalidOptions("option_unknown", f"unknown option(s): {', '.join(unknown)}")
    normalized: dict[str, JSON] = {}
    for option in schema:
        value = options.get(option.name, option.default)
        if isinstance(value, list):
            value = list(value)
        normalized[option.name] = option.validate(value)
    return normalized


@runtime_checkable
class GameRules(Protocol):
    """What ``RULES`` in every ``games/<key>/rules.py`` provides."""

    key: str
    name: str
    min_players: int
    max_players: int
    options: tuple[Option, ...]

    def normalize_options(self, options: dict[str, JSON], num_players: int) -> dict[str, JSON]:
        """Fill defaults; unknown or invalid options raise :class:`InvalidOptions`."""

    def initial_state(self, options: dict[str, JSON], num_players: int) -> dict[str, JSON]:
        """The state before the first chance step (no randomness here). ``options`` are normalized."""

    def to_act(self, state: dict[str, JSON]) -> frozenset[int]:
        """Seats that may act now (out-of-turn seats included), ``CHANCE`` when a roll/shuffle is pending,
        empty when the game is over."""

    def awaited(self, state: dict[str, JSON]) -> frozenset[int]:
        """The seats the game is waiting for: their clocks run. A subset of ``to_act`` without ``CHANCE``.
        Seats that only *may* act out of turn (Calza, Salsa, challenges) are not awaited."""

    def legal_actions(self, state: dict[str, JSON], seat: int) -> list[dict[str, JSON]]:
        """Every action ``seat`` may take now, in a deterministic order; empty if none. ``CHANCE`` excluded."""

    def sample_chance(self, state: dict[str, JSON], rng: random.Random) -> dict[str, JSON]:
        """The pending chance action, drawn from ``rng`` only."""

    def apply_action(
        self, state: dict[str, JSON], seat: int, action: dict[str, JSON]
    ) -> tuple[dict[str, JSON], list[dict[str, JSON]]]:
        """Return ``(new_state, events)``; never mutates ``state``. Raises IllegalAction / MalformedAction."""

    def view(self, state: dict[str, JSON], seat: int | None) -> dict[str, JSON]:
        """What ``seat`` (None: a spectator) may see now; enough to render the table and to reconnect."""

    def outcome(self, state: dict[str, JSON]) -> Outcome | None:
        """None while the game runs; the final ranking once it is over."""

    def timeout_action(self, state: dict[str, JSON], seat: int) -> dict[str, JSON]:
        """The action the platform plays for an awaited seat that timed out or left."""

    def determinize(self, state: dict[str, JSON], seat: int | None, rng: random.Random) -> dict[str, JSON]:
        """A state that ``seat`` cannot tell apart from ``state``: everything hidden from it is re-dealt from
        ``rng`` consistently with what it knows. Used by the conformance suite (views must not change) and by
        bots (determinization)."""

    def action_delay_ms(self, state: dict[str, JSON], seat: int, action: dict[str, JSON]) -> int:
        """Milliseconds that must pass after the previous action before this one may be applied (a challenge
        grace period); 0 when it may be applied at once. The engine enforces it with its clock."""

    # Optional: ``canonical_action(state, seat, action) -> action``: the canonical form of a seat's action (see
    # :func:`canonical_action`, whose default matches the action against ``legal_actions``).
    # Optional: ``window_ms(state, seat) -> int | None``. For a seat awaited out of turn (Spicy's decision on a
    # last card), the short window its clock gets instead of its time bank; expiring there is not a fault.
    # Optional: ``reveal_pause_ms(events) -> int``. After a transition whose events show the players something
    # they need to see (a Dudo's dice, a challenged card), how long the clocks that start then wait before running.
    # Optional declarations, each with a default so a minimal game needs none: ``presets`` (a tuple of
    # :class:`Preset`, see :func:`presets_of`), ``option_errors`` (see :func:`option_errors_of`),
    # ``play_now_players`` (see :func:`play_now_players`), ``player_counts`` (see :func:`player_counts_of`) and
    # ``rating_pools`` (a tuple of :class:`RatingPool`, see :func:`rating_pools_of`).


LogRow = tuple[int, int, int, dict[str, JSON]]  # (step, version, seat, action): one action of a match's log


@runtime_checkable
class PostGameAnalysis(Protocol):
    """A game's post-game analysis, if it has one: the module ``analysis`` of its package, loaded by
    :func:`tapete_sdk.registry.load` as its computer players are (a game's app config may name another module).
    It is pure, like the rules: it counts, and the site puts the counts into words in the reader's language (the
    game's module ``analysis_words``: docs/games.md, "A game is one folder"). A game without one simply has no analysis.

    ``analyse`` is called once a match is over, when every roll and deal in its log is public. ``log`` is the whole
    log in order, chance steps included, as :data:`LogRow` rows: ``step`` numbers the actions, ``version`` is the
    match's version the action belongs to (what the replay steps through: a call and the roll it sets off share
    one). ``seed`` is the match's seed, published at its end: an analysis that asks a computer player what it would
    have played seeds it from there, so that it is the same every time.

    The result is plain JSON, stored as it is and served to programs as the analysis's ``data``: a dict whose
    ``moves`` lists the analysed moves in the log's order, each a dict with the ``step``, ``version`` and ``seat`` of
    its row (the site writes a note beside each); the rest (per player, per round...) is the game's own.
    :func:`tapete_sdk.conformance.check_analysis` checks these promises.
    """

    def analyse(
        self, rules: GameRules, options: dict[str, JSON], num_players: int, log: list[LogRow], *, seed: str
    ) -> dict[str, JSON]:
        """The analysis of a finished match of ``rules``, played with the normalized ``options``."""


def percent(value: float) -> str:
    """A probability as a percentage for a game's analysis in words: ``70 %``, with a no-break space so that it
    never splits over two lines."""
    return f"{round(100 * value)}\u00a0%"


def canonical_action(rules: GameRules, state: dict[str, JSON], seat: int, action: JSON) -> dict[str, JSON]:
    """The canonical form of ``seat``'s ``action``: what the engine applies, stores and broadcasts instead of the
    client's object. The game's own ``canonical_action`` if it has one, else :func:`canonical_by_legal_actions`.
    Raises :class:`MalformedAction` or :class:`IllegalAction` (with the rules' own code) when there is none."""
    own = getattr(rules, "canonical_action", None)
    if own is not None:
        return own(state, seat, action)
    return canonical_by_legal_actions(rules, state, seat, action)


def canonical_by_legal_actions(
    rules: GameRules, state: dict[str, JSON], seat: int, action: JSON
) -> dict[str, JSON]:
    """The default canonical form: the listed legal action with the same effect as ``action``.

    An action sent exactly as listed is its own canonical form. Any other is judged by the rules (``apply_action``)
    first, so a refusal carries their own code (``bid_too_low``,
    ``not_your_turn``, ``tuck_not_allowed``) and a field they read is never silently dropped. Then the listed
    actions whose every field the action carries with the same JSON value and type (``True`` is not ``1``, ``2.0``
    is not ``2``) are tried, the most specific first, and the first that leads to the same state is the canonical
    form; other fields (junk, Chinese Checkers' ignored ``path``, Perudo's optional ``bid_seq``) are dropped. An
    action the rules accept in another spelling is the listed action with the same effect."""
    if not isinstance(action, dict):
        raise MalformedAction("not_an_object", "an action is a JSON object")
    legal = rules.legal_actions(state, seat)
    # Dict equality runs in C but takes True for 1 and 2.0 for 2: each hit is confirmed with same_json.
    for candidate in legal:
        if candidate == action and same_json(candidate, action):
            return candidate  # sent as listed (the usual case): no need to ask the rules
    spelled_alike = []
    for fields in sorted({frozenset(candidate) for candidate in legal}, key=len, reverse=True):
        if fields <= action.keys():
            projected = {field: action[field] for field in fields}
            spelled_alike += [c for c in legal if c == projected and same_json(c, projected)]
    effect, _events = rules.apply_action(state, seat, action)
    tried = {id(candidate) for candidate in spelled_alike}
    for candidate in [*spelled_alike, *(candidate for candidate in legal if id(candidate) not in tried)]:
        if rules.apply_action(state, seat, candidate)[0] == effect:
            return candidate
    raise IllegalAction("not_legal", "the action is not one of the seat's legal actions")


def same_json(value: JSON, other: JSON) -> bool:
    """JSON equality that tells types apart: booleans from numbers, integers from floats."""
    if isinstance(value, list | tuple) and isinstance(other, list | tuple):
        return len(value) == len(other) and all(map(same_json, value, other))
    if type(value) is not type(other):
        return False
    if isinstance(value, dict):
        return value.keys() == other.keys() and all(same_json(value[key], other[key]) for key in value)
    return value == other


@dataclass
class Playout:
    """A record of a game played through the contract: the options, the seat count and every (seat, action)."""

    options: dict[str, JSON]
    num_players: int
    log: list[tuple[int, dict[str, JSON]]] = field(default_factory=list)


def replay(
    rules: GameRules, options: dict[str, JSON], num_players: int, log: list[tuple[int, dict[str, JSON]]]
):
    """Rebuild the state from (normalized options, action log): the engine's and the replay page's ground truth."""
    state = rules.initial_state(options, num_players)
    for seat, action in log:
        state, _events = rules.apply_action(state, seat, action)
    return state


def play_random(
    rules: GameRules, options: dict[str, JSON], num_players: int, rng: random.Random, max_steps: int = 100_000
) -> Playout:
    """Play one game with uniformly random legal actions (and chance from ``rng``); returns its playout."""
    options = rules.normalize_options(options, num_players)
    playout = Playout(options=options, num_players=num_players)
    state = rules.initial_state(options, num_players)
    for _ in range(max_steps):
        acting = rules.to_act(state)
        if not acting:
            return playout
        if CHANCE in acting:
            seat, action = CHANCE, rules.sample_chance(state, rng)
        else:
            seat = rng.choice(sorted(acting))
            action = rng.choice(rules.legal_actions(state, seat))
        state, _events = rules.apply_action(state, seat, action)
        playout.log.append((seat, action))
    raise RuntimeError(f"{rules.key}: no end after {max_steps} steps")
