"""Every registered game passes the shared conformance suite over many random playouts; and the suite catches a
game that breaks a promise (each "broken game" below wraps a real one and breaks one thing)."""

import dataclasses
import random

import pytest
from django.apps import apps
from tapete_sdk import registry
from tapete_sdk.conformance import (
    DEEP,
    FAST,
    ConformanceError,
    check_analysis,
    check_declarations,
    check_game,
    check_playouts,
    random_setups,
)
from tapete_sdk.plugin import RulesError

from turnengine.game_app import installed_games

GAMES = registry.all_games()  # every installed game: the site's and the test-only fourth (tests/settings.py)

# Per game: (fast playouts, deep playouts). Deep playouts apply every legal action and check hidden information at
# every step; fast ones check the cheap promises. Together: thousands of games per title.
BUDGET = {"perudo": (1500, 60), "spicy": (1000, 40), "chinesecheckers": (60, 6)}
# Chinese Checkers' analysis asks the hard computer player about every move: fewer and shorter games.
ANALYSED_GAMES = {"chinesecheckers": (3, {"maxTurns": 10})}


def _setups(rules, seed, count):
    return list(random_setups(rules, random.Random(seed), count))


@pytest.mark.slow
@pytest.mark.parametrize("rules", GAMES, ids=lambda r: r.key)
def test_random_playouts_keep_every_promise(rules):
    fast, _deep = BUDGET.get(rules.key, (500, 20))
    check_playouts(rules.key, _setups(rules, 1, fast), first_seed=0, depth=FAST)


@pytest.mark.parametrize("rules", GAMES, ids=lambda r: r.key)
def test_deep_playouts_keep_hidden_information_and_accept_every_legal_action(rules):
    _fast, deep = BUDGET.get(rules.key, (500, 20))
    check_playouts(rules.key, _setups(rules, 2, deep), first_seed=10_000, depth=DEEP)


@pytest.mark.parametrize("rules", GAMES, ids=lambda r: r.key)
def test_declared_player_counts_pools_and_presets_agree_with_the_rules(rules):
    check_declarations(rules)


def test_every_installed_game_app_is_registered_and_every_game_package_is_discovered():
    packages = {game.name for game in installed_games()}
    installed = {config.label for config in apps.get_app_configs() if config.name in packages}  # label = key
    assert {game.key for game in installed_games()} == installed
    assert {rules.key for rules in GAMES} == installed and "tictactoe" in installed
    assert {rules.key for rules in registry.discover()} == installed


class _Broken:
    """A real game seen through a wrapper: each subclass breaks one promise and keeps the rest."""

    def __init__(self, rules):
        self._rules = rules

    def __getattr__(self, name):
        return getattr(self._rules, name)


class _OddPlayerCounts(_Broken):
    """A game whose declared player counts disagree with the counts its options accept."""

    player_counts = (2, 3, 4, 5, 6)


def test_the_suite_catches_declared_player_counts_the_rules_refuse():
    with pytest.raises(ConformanceError, match="5 players refused"):
        check_declarations(_OddPlayerCounts(registry.get("chinesecheckers")))


class _WithoutDeterminize(_Broken):
    """A game that leaves out a member of the contract: it cannot re-deal what a seat does not see."""

    def __getattr__(self, name):
        if name == "determinize":
            raise AttributeError(name)
        return super().__getattr__(name)


def test_the_suite_catches_a_game_without_a_member_of_the_contract():
    with pytest.raises(ConformanceError, match="tictactoe lacks the contract's determinize"):
        check_declarations(_WithoutDeterminize(registry.get("tictactoe")))


class _UnexplainedOption(_Broken):
    """A game whose first option has no help text for the lobby's form and the how-to page."""

    @property
    def options(self):
        first, *rest = self._rules.options
        return (dataclasses.replace(first, help=""), *rest)


def test_the_suite_catches_an_option_without_a_help_text():
    with pytest.raises(ConformanceError, match="needs a label, a help text"):
        check_declarations(_UnexplainedOption(registry.get("perudo")))


class _MutatingRules(_Broken):
    """A game whose ``apply_action`` writes into the state it was given."""

    def apply_action(self, state, seat, action):
        new_state, events = self._rules.apply_action(state, seat, action)
        state["touched"] = True
        return new_state, events


def test_the_suite_catches_an_apply_action_that_mutates_its_input():
    perudo = registry.get("perudo")
    options, num_players = next(random_setups(perudo, random.Random(3), 1))
    with pytest.raises(ConformanceError, match="apply_action mutated its input"):
        check_game(_MutatingRules(perudo), options, num_players, seed=3, depth=FAST)


@pytest.mark.parametrize(
    "rules", [rules for rules in GAMES if registry.analysis(rules.key)], ids=lambda r: r.key
)
def test_each_post_game_analysis_keeps_its_promises(rules):
    count, shorter = ANALYSED_GAMES.get(rules.key, (10, {}))
    for seed, (options, num_players) in enumerate(_setups(rules, 3, count)):
        options = rules.normalize_options({**options, **shorter}, num_players)
        check_analysis(rules, registry.analysis(rules.key), options, num_players, seed)


class _StepsForVersions:
    """An analysis that breaks one promise: it numbers its moves' versions by their steps."""

    def __init__(self, analysis):
        self._analysis = analysis

    def analyse(self, rules, options, num_players, log, *, seed):
        data = self._analysis.analyse(rules, options, num_players, log, seed=seed)
        return {**data, "moves": [{**move, "version": move["step"]} for move in data["moves"]]}


def test_the_suite_catches_an_analysis_whose_moves_are_not_rows_of_the_log():
    perudo = registry.get("perudo")
    with pytest.raises(ConformanceError, match="not those of a row of the log"):
        check_analysis(
            perudo, _StepsForVersions(registry.analysis("perudo")), *_setups(perudo, 3, 1)[0], seed=1
        )


class _RefusalThatMutates(_Broken):
    """A game whose ``apply_action`` writes into the state before it refuses an action."""

    def apply_action(self, state, seat, action):
        try:
            return self._rules.apply_action(state, seat, action)
        except RulesError:
            state["refused"] = True
            raise


class _ViewThatMutates(_Broken):
    """A game whose ``view`` writes into the state it shows."""

    def view(self, state, seat):
        state["viewed"] = True
        return self._rules.view(state, seat)


class _DeterminizeThatMutates(_Broken):
    """A game whose ``determinize`` writes into the state it re-deals from (the deep playouts call it)."""

    def determinize(self, state, seat, rng):
        state["redealt"] = True
        return self._rules.determinize(state, seat, rng)


@pytest.mark.parametrize(
    ("broken", "depth"),
    [(_RefusalThatMutates, FAST), (_ViewThatMutates, FAST), (_DeterminizeThatMutates, DEEP)],
    ids=["refused-action", "view", "determinize"],
)
def test_the_suite_catches_a_call_that_changes_a_state_it_should_only_read(broken, depth):
    perudo = registry.get("perudo")
    options, num_players = next(random_setups(perudo, random.Random(3), 1))
    with pytest.raises(ConformanceError, match="the state changed while it was only read"):
        check_game(broken(perudo), options, num_players, seed=3, depth=depth)
