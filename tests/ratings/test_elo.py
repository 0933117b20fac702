"""Pairwise multiplayer Elo: properties over random tables of 2 to 6 seats, plus a few worked examples."""

import math

import pytest
from hypothesis import given
from hypothesis import strategies as st

from ratings.elo import (
    ABANDON_PENALTY,
    INITIAL_RATING,
    K_ESTABLISHED,
    K_PROVISIONAL,
    PROVISIONAL_GAMES,
    expected_score,
    final_ranking,
    k_factor,
    rating_changes,
    round_changes,
)

ratings_ = st.floats(min_value=100, max_value=3000, allow_nan=False)
games_played_ = st.integers(min_value=0, max_value=2 * PROVISIONAL_GAMES)


@st.composite
def rankings(draw, min_seats=2, max_seats=6):
    """A ranking of seats 0..n-1: a random order cut into groups of tied seats."""
    n = draw(st.integers(min_value=min_seats, max_value=max_seats))
    order = draw(st.permutations(range(n)))
    ties_with_previous = draw(st.lists(st.booleans(), min_size=n - 1, max_size=n - 1))
    ranking = [[order[0]]]
    for seat, tied in zip(order[1:], ties_with_previous, strict=True):
        if tied:
            ranking[-1].append(seat)
        else:
            ranking.append([seat])
    return ranking


@st.composite
def tables(draw, min_seats=2, max_seats=6, equal_k=False):
    """A ranking with each seat's rating and games played (all with the same K when ``equal_k``)."""
    ranking = draw(rankings(min_seats, max_seats))
    seats = _seats(ranking)
    ratings = {seat: draw(ratings_) for seat in seats}
    if equal_k:
        games = draw(games_played_)
        games_played = dict.fromkeys(seats, games)
    else:
        games_played = {seat: draw(games_played_) for seat in seats}
    return ranking, ratings, games_played


def _seats(ranking):
    return sorted(seat for group in ranking for seat in group)


def _changes(table, **special):
    ranking, ratings, games_played = table
    return rating_changes(ranking, ratings=ratings, games_played=games_played, **special)


def _without(ranking, removed):
    return [kept for group in ranking if (kept := [seat for seat in group if seat not in removed])]


# Zero sum


@given(tables(equal_k=True))
def test_changes_sum_to_zero_with_equal_k_and_no_penalty(table):
    changes = _changes(table)
    assert abs(sum(changes.values())) < 1e-9
    assert sum(round_changes(changes).values()) == 0


@given(tables(), st.data())
def test_rounded_changes_are_floats_rounded_down_or_up_keeping_the_rounded_total(table, data):
    abandoned = data.draw(st.sets(st.sampled_from(_seats(table[0]))))
    changes = _changes(table, abandoned=abandoned)
    rounded = round_changes(changes)
    assert rounded.keys() == changes.keys()
    assert all(math.floor(changes[seat]) <= rounded[seat] <= math.ceil(changes[seat]) for seat in changes)
    assert sum(rounded.values()) == round(math.fsum(changes.values()))


def test_rounding_hands_leftover_points_to_largest_remainders():
    # Rounding each change on its own would give 3 - 1 - 1 = +1 point out of nowhere.
    assert round_changes({0: 2.6, 1: -1.3, 2: -1.3}) == {0: 2, 1: -1, 2: -1}
    assert round_changes({0: -2.6, 1: 1.3, 2: 1.3}) == {0: -2, 1: 1, 2: 1}
    # Equal remainders: the lowest seat first.
    assert round_changes({0: -1.0, 1: 0.5, 2: 0.5}) == {0: -1, 1: 1, 2: 0}


# Winners, favourites and the table size


@given(tables())
def test_a_sole_winner_never_loses_points(table):
    ranking = table[0]
    if len(ranking[0]) == 1:
        assert _changes(table)[ranking[0][0]] >= 0


@given(tables(), st.data())
def test_a_higher_rated_winner_gains_less_than_a_lower_rated_one(table, data):
    ranking, ratings, games_played = table
    winner = ranking[0][0]
    lower = data.draw(st.floats(min_value=100, max_value=2900))
    higher = data.draw(st.floats(min_value=lower + 1, max_value=3000))
    gain = {}
    for rating in (lower, higher):
        gain[rating] = _changes((ranking, {**ratings, winner: rating}, games_played))[winner]
    assert gain[higher] < gain[lower]


@given(tables(min_seats=6, max_seats=6))
def test_a_six_player_game_moves_no_rating_by_more_than_its_k(table):
    _, _, games_played = table
    for seat, change in _changes(table).items():
        assert abs(change) <= k_factor(games_played[seat])


def test_winning_among_six_equals_moves_a_rating_as_much_as_winning_a_duel():
    def winner_gain(n):
        ranking = [[seat] for seat in range(n)]
        table = (ranking, dict.fromkeys(range(n), INITIAL_RATING), dict.fromkeys(range(n), 0))
        return _changes(table)[0]

    assert winner_gain(2) == winner_gain(6) == K_PROVISIONAL / 2


def test_three_equal_players_win_draw_and_lose_like_a_duel():
    table = ([[0], [1], [2]], dict.fromkeys(range(3), 1500.0), dict.fromkeys(range(3), 50))
    assert _changes(table) == {0: K_ESTABLISHED / 2, 1: 0.0, 2: -K_ESTABLISHED / 2}


# Symmetry and ties


@given(tables(), st.data())
def test_permuting_seats_permutes_the_changes(table, data):
    ranking, ratings, games_played = table
    seats = _seats(ranking)
    relabel = dict(zip(seats, data.draw(st.permutations(seats)), strict=True))
    abandoned = data.draw(st.sets(st.sampled_from(seats)))
    unrated = data.draw(st.sets(st.sampled_from(seats)))
    changes = _changes(table, abandoned=abandoned, unrated_seats=unrated)
    relabelled = rating_changes(
        [[relabel[seat] for seat in group] for group in ranking],
        ratings={relabel[seat]: rating for seat, rating in ratings.items()},
        games_played={relabel[seat]: games for seat, games in games_played.items()},
        abandoned={relabel[seat] for seat in abandoned},
        unrated_seats={relabel[seat] for seat in unrated},
    )
    assert relabelled == {relabel[seat]: change for seat, change in changes.items()}


@given(tables(), st.data())
def test_equal_rated_tied_players_get_equal_changes(table, data):
    ranking, ratings, games_played = table
    first, second = data.draw(st.lists(st.sampled_from(_seats(ranking)), min_size=2, max_size=2, unique=True))
    tied = [group + [second] if first in group else group for group in _without(ranking, {second})]
    changes = _changes(
        (tied, {**ratings, second: ratings[first]}, {**games_played, second: games_played[first]})
    )
    assert changes[first] == changes[second]


# Abandonment and unrated seats


@given(tables(), st.data())
def test_abandoning_ranks_last_and_costs_the_penalty(table, data):
    ranking, ratings, games_played = table
    abandoned = data.draw(st.sets(st.sampled_from(_seats(ranking)), min_size=1))
    stayed = _without(ranking, abandoned)
    left = [group for group in final_ranking(ranking, abandoned) if set(group) <= abandoned]
    assert final_ranking(ranking, abandoned) == stayed + left
    assert _seats(left) == sorted(abandoned)

    changes = _changes(table, abandoned=abandoned)
    ranked_last = _changes((stayed + left, ratings, games_played))
    for seat, change in changes.items():
        penalty = ABANDON_PENALTY if seat in abandoned else 0
        assert change == ranked_last[seat] - penalty


def test_an_abandoning_leader_ranks_below_everyone_and_pays_the_penalty():
    table = ([[0], [1], [2]], dict.fromkeys(range(3), 1500.0), dict.fromkeys(range(3), 50))
    changes = _changes(table, abandoned={0})
    assert changes == {1: K_ESTABLISHED / 2, 2: 0.0, 0: -K_ESTABLISHED / 2 - ABANDON_PENALTY}


@given(tables(min_seats=3), st.data())
def test_unrated_seats_change_nothing_for_anyone(table, data):
    ranking, ratings, games_played = table
    unrated = data.draw(st.sets(st.sampled_from(_seats(ranking)), min_size=1))
    changes = _changes(table, unrated_seats=unrated)
    without_them = _changes((_without(ranking, unrated), ratings, games_played))
    assert changes == {seat: without_them.get(seat, 0.0) for seat in changes}
    assert all(changes[seat] == 0 for seat in unrated)


def test_an_unrated_seat_that_abandoned_pays_only_the_penalty():
    table = ([[0], [1], [2]], dict.fromkeys(range(3), 1500.0), dict.fromkeys(range(3), 50))
    changes = _changes(table, abandoned={0}, unrated_seats={0})
    assert changes == {1: K_ESTABLISHED / 2, 2: -K_ESTABLISHED / 2, 0: -ABANDON_PENALTY}


# Building blocks


def test_k_is_higher_for_a_players_first_rated_games():
    assert k_factor(0) == k_factor(PROVISIONAL_GAMES - 1) == K_PROVISIONAL
    assert k_factor(PROVISIONAL_GAMES) == k_factor(1000) == K_ESTABLISHED
    assert K_PROVISIONAL > K_ESTABLISHED
    with pytest.raises(ValueError):
        k_factor(-1)


def test_expected_score_follows_the_400_point_logistic_curve():
    assert expected_score(1500, 1500) == 0.5
    assert expected_score(1900, 1500) == pytest.approx(10 / 11)
    assert expected_score(1500, 1900) == pytest.approx(1 / 11)


@given(ratings_, ratings_)
def test_expected_scores_of_a_duel_add_up_to_one(rating, opponent):
    assert expected_score(rating, opponent) + expected_score(opponent, rating) == pytest.approx(1)


def test_a_lone_rated_seat_changes_nothing():
    table = ([[0], [1]], {0: 1500.0, 1: 1500.0}, {0: 0, 1: 0})
    assert _changes(table, unrated_seats={1}) == {0: 0.0, 1: 0.0}


@pytest.mark.parametrize(
    ("ranking", "special"),
    [
        ([[0, 1], [1]], {}),  # seat 1 twice
        ([[0], [1], [2]], {}),  # no rating for seat 2
        ([[0], [1]], {"abandoned": {5}}),
        ([[0], [1]], {"unrated_seats": {5}}),
    ],
)
def test_inconsistent_seats_are_refused(ranking, special):
    with pytest.raises(ValueError):
        rating_changes(ranking, ratings={0: 1500.0, 1: 1500.0}, games_played={0: 0, 1: 0, 2: 0}, **special)
