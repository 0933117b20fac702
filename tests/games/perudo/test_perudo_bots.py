"""The Perudo bots (games/perudo/bots.py): legal actions only, no peeking at hidden dice, finished games, and each
level beating the one below it."""

from __future__ import annotations

import random

import pytest
from perudo_scenario import CALZA, DECLARE, DUDO, apply, bid, lose_die, new_game, roll
from tapete_sdk.plugin import CHANCE

from games.perudo import bots_solved
from games.perudo.bots import LEVELS, regain_value
from games.perudo.bots_model import (
    Beliefs,
    binomial_pmfs,
    binomial_tail,
    credited_tail,
    dice_in_play,
    estimate_dice_in_play,
    matching_faces,
)
from games.perudo.bots_reading import Reading, SeatBid, seat_bids, seat_pmfs
from games.perudo.rules import RULES

OPTION_SETS = [
    {},
    {"calza": True},
    {"salsa": True, "calza": True, "lostDiceVisible": True},
    {"palificoMode": "declared", "palificoOneDieMayChangeFace": True, "allowPacoOpening": True},
    {"raiseMode": "anyFaceOnHigherQty", "capBidAtDiceInPlay": False, "palificoPacoBids": "forbidden"},
    {"salsa": True, "palificoOneDieMayChangeFace": True},
    {"calza": True, "calzaCaller": "currentOnly", "startingDice": 7, "maxDice": 8, "lostDiceVisible": True},
    {
        "calza": True,
        "calzaCaller": "anyoneButLastBidderAndCurrent",
        "calzaSuccessEffect": "othersLoseOne",
        "calzaRequiresMissingDie": True,
        "palificoOncePerPlayer": False,
        "startingDice": 3,
        "maxDice": 6,
        "firstPlayer": "rollTwoSum",
    },
]
MAX_STEPS = 20_000


def play(options: dict, lineup: list[str], rng: random.Random, check=None) -> list[list[int]]:
    """One game between ``lineup``'s levels, asserting every decision is legal; returns the ranking.

    ``check(state, seat, action)`` is called after each decision, if given. Out-of-turn seats are asked first, as
    the tournament harness does.
    """
    state = RULES.initial_state(RULES.normalize_options(options, len(lineup)), len(lineup))
    for _ in range(MAX_STEPS):
        acting = RULES.to_act(state)
        if not acting:
            return RULES.outcome(state).ranking
        if CHANCE in acting:
            state, _ = RULES.apply_action(state, CHANCE, RULES.sample_chance(state, rng))
            continue
        awaited = RULES.awaited(state)
        for seat in sorted(acting, key=lambda seat: (seat in awaited, rng.random())):
            legal = RULES.legal_actions(state, seat)
            action = LEVELS[lineup[seat]](RULES.view(state, seat), legal, rng)
            if check is not None:
                check(state, seat, action)
            if action is None:
                assert seat not in awaited, f"{lineup[seat]} declined although awaited"
                continue
            assert action in legal, f"{lineup[seat]} chose an illegal {action}"
            state, _ = RULES.apply_action(state, seat, action)
            break
        else:
            pytest.fail("every awaited bot declined")
    pytest.fail("the game did not end")


def test_levels_are_ordered_weakest_first():
    assert list(LEVELS) == ["easy", "medium", "hard"]


@pytest.mark.parametrize("options", OPTION_SETS, ids=[f"options{index}" for index in range(len(OPTION_SETS))])
@pytest.mark.parametrize("players", [2, 3, 4, 5, 6])
def test_every_level_plays_only_legal_actions(options, players):
    rng = random.Random(players * 100 + OPTION_SETS.index(options))
    names = list(LEVELS)
    for game in range(3):
        lineup = [names[(seat + game) % len(names)] for seat in range(players)]
        ranking = play(options, lineup, rng)
        assert sorted(seat for group in ranking for seat in group) == list(range(players))


@pytest.mark.parametrize("level", list(LEVELS))
def test_each_level_finishes_games_against_itself(level):
    rng = random.Random(7)
    for players in (2, 4, 6):
        ranking = play({"calza": True}, [level] * players, rng)
        assert len(ranking[0]) == 1


@pytest.mark.parametrize(
    "options", [{}, OPTION_SETS[2], OPTION_SETS[3]], ids=["default", "salsa", "declared"]
)
def test_decisions_depend_only_on_what_the_seat_may_see(options):
    """Re-dealing every die the seat cannot see changes nothing: same view, same legal actions, same choice."""
    world_rng = random.Random(11)
    decisions = 0

    def check(state, seat, action):
        nonlocal decisions
        world = RULES.determinize(state, seat, world_rng)
        view = RULES.view(world, seat)
        assert view == RULES.view(state, seat)
        for level, bot in LEVELS.items():
            first = bot(RULES.view(state, seat), RULES.legal_actions(state, seat), random.Random(decisions))
            again = bot(view, RULES.legal_actions(world, seat), random.Random(decisions))
            assert first == again, f"{level} changed its mind when hidden dice were re-dealt"
        decisions += 1

    rng = random.Random(5)
    for players in (2, 3, 5):
        play(options, ["hard", "medium", "easy", "hard", "medium"][:players], rng, check)
    assert decisions > 50


def test_dice_in_play_is_estimated_not_read_from_the_legal_bids_when_counts_are_hidden():
    """With lost dice hidden the bots estimate the total from the round number (the view is all they read, never
    the bid limit); shown, they use it."""
    rng = random.Random(3)
    seen = 0

    def check(state, seat, action):
        nonlocal seen
        view = RULES.view(state, seat)
        if view["dice_in_play"] is not None:
            assert dice_in_play(view) == sum(state["counts"])
            return
        estimate = estimate_dice_in_play(view)
        assert dice_in_play(view) == estimate
        assert sum(1 for count in state["counts"] if count) <= estimate <= 5 * len(state["counts"])
        seen += 1

    play({"calza": True}, ["medium", "hard", "easy", "medium"], rng, check)
    play({"capBidAtDiceInPlay": False}, ["medium", "hard"], rng, check)
    play({"lostDiceVisible": True}, ["medium", "hard"], rng, check)
    assert seen > 20


def decide(level: str, state: dict, seat: int):
    return LEVELS[level](RULES.view(state, seat), RULES.legal_actions(state, seat), random.Random(0))


def with_hands(hands: list[list[int]], first: int = 0, **options) -> dict:
    """A two-or-more-player game rolled with ``hands``, whatever their sizes (the counts are set to fit)."""
    state = new_game(len(hands), first, **options)
    state["counts"] = [len(hand) for hand in hands]
    return roll(state, hands)


def test_bid_probability_is_binomial_with_wild_pacos_outside_palifico():
    normal = Beliefs([3, 3, 1, 5], False, binomial_pmfs({1: 3, 2: 2}, False))
    assert normal.mine[3] == 3  # two 3s and a wild Paco
    assert normal.at_least(4, 3) == pytest.approx(1 - (2 / 3) ** 5)
    assert normal.at_least(1, 1) == 1.0
    assert normal.exactly(2, 1) == pytest.approx(5 * (1 / 6) * (5 / 6) ** 4)
    palifico = Beliefs([3, 3, 1, 5], True, binomial_pmfs({1: 3, 2: 2}, True))
    assert palifico.mine[3] == 2  # Pacos are not wild in Palifico
    assert palifico.at_least(3, 3) == pytest.approx(1 - (5 / 6) ** 5)
    assert palifico.at_least(9, 3) == 0.0


@pytest.mark.parametrize("level", ["easy", "medium", "hard"])
def test_a_bid_that_cannot_be_true_is_doubted(level):
    state = apply(with_hands([[2, 3, 4, 5, 6], [2, 2, 3, 3, 4]]), 0, bid(7, 6))
    assert decide(level, state, 1) == DUDO  # at most one 6 among the ten dice


@pytest.mark.parametrize("level", ["medium", "hard"])
def test_a_bid_the_bot_holds_itself_is_raised_not_doubted(level):
    state = apply(with_hands([[2, 3, 4, 6, 6], [5, 5, 5, 1, 1]]), 0, bid(3, 5))
    action = decide(level, state, 1)
    assert action["type"] == "bid"


@pytest.mark.parametrize("level", ["medium", "hard"])
def test_calza_when_the_exact_count_is_likely(level):
    # The one-die opener claims three 5s; the bot holds two: the bid is exact if that die is a 5 or a Paco,
    # which the opening makes likely. The bot is missing a die, so a right Calza gives one back.
    state = apply(with_hands([[5], [5, 5, 2, 2]], calza=True, lostDiceVisible=True), 0, bid(3, 5))
    assert decide(level, state, 1) == CALZA


@pytest.mark.parametrize("level", ["medium", "hard"])
def test_the_bot_declares_palifico_when_it_may(level):
    state = new_game(2, 0, palificoMode="declared")
    for _ in range(4):
        state = lose_die(state, 0)
    state = roll(state, [[4], [2, 3, 4, 5, 6]])
    assert decide(level, state, 0) == DECLARE


@pytest.mark.parametrize("level", ["medium", "hard"])
def test_salsa_out_of_turn_only_when_clearly_good(level):
    hands = [[2, 3, 4, 5, 6], [2, 3, 3, 4, 6], [2, 2, 3, 3, 5]]
    state = apply(with_hands(hands, salsa=True), 0, bid(5, 4))
    assert decide(level, state, 2) is None  # a plausible bid, no sure raise: seat 2 lets seat 1 answer
    impossible = apply(with_hands(hands, salsa=True), 0, bid(12, 4))
    assert decide(level, impossible, 2) == DUDO


def win_share(strong: str, weak: str, games: int, players: int, options: dict, seed: int) -> float:
    """Share of games won by ``strong``, seats alternating between the levels from game to game (so the fair
    share is one half whatever the player count)."""
    rng = random.Random(seed)
    wins = 0
    for game in range(games):
        lineup = [strong if (seat + game) % 2 == 0 else weak for seat in range(players)]
        winner = play(options, lineup, rng)[0][0]
        wins += lineup[winner] == strong
    return wins / games


@pytest.mark.parametrize(
    ("strong", "weak", "players", "options", "games", "share"),
    [
        # Medium follows the solved duel endgames half the time: harder to exploit, but it exploits easy's habits
        # a little less there than its own greedy reading did (57.4% over 2,000 games against 59.8%).
        ("medium", "easy", 2, {}, 500, 0.55),
        ("hard", "medium", 2, {}, 500, 0.64),
        ("hard", "medium", 4, {}, 100, 0.7),
    ],
    ids=["medium-easy-duel", "hard-medium-duel", "hard-medium-4-players"],
)
def test_the_stronger_level_wins_clearly(strong, weak, players, options, games, share):
    assert win_share(strong, weak, games, players, options, seed=2024) > share


def test_easy_never_calls_calza_with_a_full_set_of_dice():
    """A correct Calza only gives back a lost die: with all its dice easy has nothing to gain from one. The same
    bid (four 5s, about what easy expects) draws a Calza now and then once easy is missing a die."""
    full = apply(with_hands([[2, 3, 4, 6, 6], [5, 5, 2, 3, 4]], calza=True), 0, bid(4, 5))
    missing = apply(with_hands([[2, 3, 4, 6, 6], [5, 5, 2, 3]], calza=True), 0, bid(4, 5))
    view, legal = RULES.view(full, 1), RULES.legal_actions(full, 1)
    assert CALZA in legal
    full_choices = [LEVELS["easy"](view, legal, random.Random(seed)) for seed in range(200)]
    assert CALZA not in full_choices
    view, legal = RULES.view(missing, 1), RULES.legal_actions(missing, 1)
    missing_choices = [LEVELS["easy"](view, legal, random.Random(seed)) for seed in range(200)]
    assert CALZA in missing_choices


def one_die_palifico_round(hands: list[list[int]], palifico_player: int = 0) -> dict:
    """A duel of one die each, in the Palifico round of ``palifico_player`` (who opens it)."""
    state = new_game(2, palifico_player)
    state["counts"] = [1, 1]
    state["palifico_candidate"] = palifico_player
    state["palifico_used"] = [seat == palifico_player for seat in range(2)]
    return roll(state, hands)


def test_medium_doubts_a_one_die_opening_rather_than_raise_to_a_bid_it_knows_false():
    """The opener of a one-die Palifico duel says "one 5"; without a 5 medium knows that "two 5s" is false, so it
    calls Dudo (which wins whenever the opener bluffed) instead of raising to a sure loss."""
    state = apply(one_die_palifico_round([[5], [3]]), 0, bid(1, 5))
    view, legal = RULES.view(state, 1), RULES.legal_actions(state, 1)
    assert bid(2, 5) in legal
    assert {str(LEVELS["medium"](view, legal, random.Random(seed))) for seed in range(100)} == {str(DUDO)}


def known_false(view: dict, action: dict) -> bool:
    """Does the seat know from its own dice and the shown dice count that the bid ``action`` is false?"""
    palifico = view["palifico"]
    own = sum(1 for die in view["my_dice"] if die in matching_faces(action["face"], palifico))
    return own + view["dice_in_play"] - view["my_dice_count"] < action["quantity"]


def _no_known_false_raise(checked: list):
    """A ``play`` hook: each bid made while Dudo was open is appended to ``checked`` and must not be one the
    bidder's own dice prove false."""

    def check(state, seat, action):
        view = RULES.view(state, seat)
        if action is None or action["type"] != "bid" or DUDO not in RULES.legal_actions(state, seat):
            return
        checked.append(action)
        assert not known_false(view, action), f"medium raised to {action} knowing it false: {view}"

    return check


@pytest.mark.parametrize("players", [2, 3])
def test_medium_never_raises_to_a_bid_it_knows_false_when_it_may_doubt(players):
    """With the dice count shown, medium never answers a bid with one its own dice prove false while Dudo is
    open to it, in any kind of round (Palifico, Calza, Salsa)."""
    rng = random.Random(17 + players)
    checked = []
    for options in ({"lostDiceVisible": True}, {"lostDiceVisible": True, "calza": True, "salsa": True}):
        for _ in range(15):
            play({**options, "startingDice": 3}, ["medium"] * players, rng, _no_known_false_raise(checked))
    assert len(checked) > 100


@pytest.mark.parametrize("name", list(bots_solved.OPTION_SETS))
def test_medium_never_raises_to_a_bid_it_knows_false_in_the_solved_duels(name):
    """Duels of two dice each under every solved option set: every round is one the solved tables cover, where
    medium follows the equilibrium three times in five but leaves out its raises that medium's dice prove false."""
    rng = random.Random(5)
    checked = []
    options = {**bots_solved.OPTION_SETS[name], "lostDiceVisible": True, "startingDice": 2}
    for _ in range(25):
        play(options, ["medium"] * 2, rng, _no_known_false_raise(checked))
    assert len(checked) > 40


def test_a_player_who_believes_the_standing_bid_counts_one_of_its_bidders_dice():
    assert credited_tail(9, 1 / 3, 4, 0.0) == pytest.approx(binomial_tail(9, 1 / 3, 4))
    assert credited_tail(9, 1 / 3, 4, 1.0) == pytest.approx(binomial_tail(8, 1 / 3, 3))
    half = credited_tail(9, 1 / 3, 4, 0.5)
    assert half == pytest.approx((binomial_tail(9, 1 / 3, 4) + binomial_tail(8, 1 / 3, 3)) / 2)
    assert binomial_tail(9, 1 / 3, 4) < half < binomial_tail(8, 1 / 3, 3)


def test_hard_reads_a_raise_on_the_standing_face_as_leaning_on_that_bid():
    """Four 5s raised on a standing bid of 5s says less about the raiser's 5s than four 5s named afresh: the
    raiser counted one of the previous bidder's dice."""
    fresh = seat_pmfs(5, (SeatBid(4, 5, ()),), 15, False, Reading())
    leaning = seat_pmfs(5, (SeatBid(4, 5, (), follows=True),), 15, False, Reading())

    def expected_fives(pmfs) -> float:
        return sum(count * chance for count, chance in enumerate(pmfs[5]))

    assert expected_fives(leaning) < expected_fives(fresh)


def test_seat_bids_marks_the_raises_that_keep_the_standing_face():
    state = with_hands([[2, 3, 4, 5, 6], [5, 5, 1, 2, 3], [4, 4, 6, 6, 2]], first=1)
    state = apply(apply(state, 1, bid(2, 5)), 2, bid(3, 5))
    view = RULES.view(state, 0)
    read = seat_bids(view, 15)
    assert [entry.follows for entry in read[1]] == [False]
    assert [entry.follows for entry in read[2]] == [True]


@pytest.mark.parametrize("effect", ["gainOne", "othersLoseOne"])
def test_a_correct_calza_that_costs_the_others_a_die_is_worth_each_at_the_opponent_weight(effect):
    state = with_hands(
        [[2, 3, 4, 5], [5, 5, 1, 2, 3], [4, 4, 6, 6, 2], [1, 2, 3]],
        calza=True,
        calzaSuccessEffect=effect,
        lostDiceVisible=True,
    )
    view = RULES.view(state, 0)
    assert regain_value(view, 0.3) == pytest.approx(0.9 if effect == "othersLoseOne" else 1.0)
