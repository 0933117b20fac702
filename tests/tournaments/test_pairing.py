"""The pairing rules as pure functions, on scripted tournaments: table sizes 2 to 6 and the odd ones out, no repeat
opponents when avoidable, byes to the lowest who have not had one, scores by place per table size, and the
tie-breaks."""

from itertools import combinations

import pytest
from tapete_sdk import registry
from tapete_sdk.plugin import place_points, ranking_points

from tournaments import pairing
from tournaments.pairing import Player, Standing


def players(count: int) -> list[Player]:
    return [Player(key=key, score=0, rating=1500 - key, order=key) for key in range(count)]


@pytest.mark.parametrize(
    ("count", "size", "allowed", "sizes", "left"),
    [
        (8, 2, [2], [2, 2, 2, 2], 0),
        (9, 2, [2], [2, 2, 2, 2], 1),  # k=2: the odd one out gets a bye
        (10, 4, [2, 3, 4], [4, 3, 3], 0),  # the fewest tables, sizes within one of each other
        (5, 4, [2, 3, 4], [3, 2], 0),
        (7, 6, [2, 3, 4, 5, 6], [4, 3], 0),
        (13, 6, [2, 3, 4, 5, 6], [5, 4, 4], 0),
        (7, 3, [3], [3, 3], 1),  # no table of 2 or 4 in this game: one bye
        (7, 6, [2, 3, 4, 6], [4, 3], 0),  # Chinese Checkers: no table of five
        (11, 6, [2, 3, 4, 6], [4, 4, 3], 0),  # 6+5 is not allowed: one table more
        (9, 5, [2, 3, 4, 6], [3, 3, 3], 0),  # size 5 is not the game's: the largest allowed below it
        (1, 2, [2], [], 1),
    ],
)
def test_table_sizes(count, size, allowed, sizes, left):
    assert pairing.table_sizes(count, size, allowed) == (sizes, left)
    assert sum(sizes) + left == count


@pytest.mark.parametrize("size", [2, 3, 4, 5, 6])
def test_every_table_size_from_two_to_six_seats_everyone_once(size):
    tables, byes = pairing.swiss_tables(players(23), size, range(2, 7), {}, set())
    seated = [player.key for table in tables for player in table] + [player.key for player in byes]
    assert sorted(seated) == list(range(23))
    assert all(len(table) <= size for table in tables)
    assert len(byes) == (1 if size == 2 else 0)  # 23 is odd: at tables of two, one bye


def test_a_swiss_round_groups_players_by_score():
    field = [Player(key=key, score=score, rating=1500, order=key) for key, score in enumerate([0, 6, 2, 6, 0, 2])]
    tables, _byes = pairing.swiss_tables(field, 2, [2], {}, set())
    assert [{player.score for player in table} for table in tables] == [{6}, {2}, {0}]


def test_no_repeat_opponents_over_a_scripted_swiss_of_four_rounds():
    """Eight players, tables of two, four rounds, results scripted (the lower key wins): nobody meets anyone twice,
    though a pure score order would have paired some again."""
    scores = dict.fromkeys(range(8), 0)
    met: dict[int, set[int]] = {key: set() for key in range(8)}
    for _round in range(4):
        field = [Player(key=key, score=scores[key], rating=1500, order=key) for key in range(8)]
        tables, byes = pairing.swiss_tables(field, 2, [2], met, set())
        assert byes == []
        for table in tables:
            a, b = (player.key for player in table)
            assert b not in met[a], f"{a} and {b} met again"
            met[a].add(b)
            met[b].add(a)
            scores[min(a, b)] += 2


def test_tables_of_four_avoid_repeats_when_a_neighbour_allows():
    met = {0: {1}, 1: {0}}
    tables, _ = pairing.swiss_tables(players(8), 4, [2, 3, 4], met, set())
    assert not {0, 1} <= {player.key for player in tables[0]}


def test_the_bye_goes_to_the_lowest_who_has_not_had_one():
    field = [Player(key=key, score=10 - key, rating=1500, order=key) for key in range(5)]
    _tables, byes = pairing.swiss_tables(field, 2, [2], {}, had_bye=set())
    assert [player.key for player in byes] == [4]
    _tables, byes = pairing.swiss_tables(field, 2, [2], {}, had_bye={4})
    assert [player.key for player in byes] == [3]
    _tables, byes = pairing.swiss_tables(field, 2, [2], {}, had_bye={0, 1, 2, 3, 4})
    assert [player.key for player in byes] == [4]


def test_a_bye_is_worth_half_a_first_place():
    assert pairing.bye_points(place_points(registry.get("perudo"), 2)[0]) == 1
    assert pairing.bye_points(place_points(registry.get("perudo"), 4)[0]) == 3


def test_points_by_place_grow_with_the_table():
    rules = registry.get("perudo")
    assert place_points(rules, 2) == (2, 0)
    assert place_points(rules, 4) == (6, 4, 2, 0)
    assert place_points(rules, 6)[0] > place_points(rules, 4)[0] > place_points(rules, 2)[0]
    assert ranking_points(rules, [[2], [0], [3], [1]], 4) == {2: 6, 0: 4, 3: 2, 1: 0}
    assert ranking_points(rules, [[0, 1], [2]], 3) == {0: 3, 1: 3, 2: 0}  # a tie shares its places' points
    assert ranking_points(rules, [[0, 1]], 2) == {0: 1, 1: 1}  # a draw


def test_a_game_may_declare_its_own_points():
    class Declared:
        def place_points(self, num_players):
            return [10] + [0] * (num_players - 1)

    assert ranking_points(Declared(), [[1], [0, 2]], 3) == {1: 10, 0: 0, 2: 0}


def test_arena_pairs_full_tables_until_someone_waited_out_the_patience():
    waiting = players(7)
    tables, left = pairing.arena_tables(waiting, 3, [2, 3], {}, patient_out=False)
    assert [len(table) for table in tables] == [3, 3] and len(left) == 1
    tables, left = pairing.arena_tables(waiting, 3, [2, 3], {}, patient_out=True)
    assert sorted(len(table) for table in tables) == [2, 2, 3] and left == []


def test_arena_avoids_the_last_opponents():
    last = {0: {1}, 1: {0}, 2: {3}, 3: {2}}
    tables, _ = pairing.arena_tables(players(4), 2, [2], last, patient_out=False)
    for table in tables:
        a, b = (player.key for player in table)
        assert b not in last[a]


def test_swiss_standings_break_ties_by_buchholz():
    rows = [
        Standing(key=1, score=4, tiebreak=0, games=2, rating=1500, name="ann", opponents=[3, 4]),
        Standing(key=2, score=4, tiebreak=0, games=2, rating=1600, name="bob", opponents=[5, 6]),
        Standing(key=3, score=2, tiebreak=0, games=2, rating=1500, name="cy", opponents=[1]),
        Standing(key=4, score=2, tiebreak=0, games=2, rating=1500, name="di", opponents=[1]),
        Standing(key=5, score=0, tiebreak=0, games=2, rating=1500, name="ed", opponents=[2]),
        Standing(key=6, score=0, tiebreak=0, games=2, rating=1500, name="fay", opponents=[2]),
    ]
    ranked = pairing.standings(rows, swiss=True)
    assert [row.name for row in ranked][:2] == ["ann", "bob"]  # ann met stronger opponents (4 against 0)
    assert ranked[0].tiebreak == 4


def test_arena_ties_go_to_fewer_tables_and_the_disqualified_come_last():
    rows = [
        Standing(key=1, score=6, tiebreak=0, games=4, rating=1500, name="ann"),
        Standing(key=2, score=6, tiebreak=0, games=3, rating=1500, name="bob"),
        Standing(key=3, score=0, tiebreak=0, games=1, rating=1500, name="cy", out=True),
        Standing(key=4, score=0, tiebreak=0, games=1, rating=1500, name="di"),
    ]
    assert [row.name for row in pairing.standings(rows, swiss=False)] == ["bob", "ann", "di", "cy"]


def test_pairing_is_linear_in_players_after_the_sort():
    """Each table looks at a bounded window: the number of candidates examined grows with the players, not with
    their square (the timing is in bench/tournament_pairing.py)."""
    met = {key: {other for other in range(key - 3, key + 4) if other != key} for key in range(600)}
    tables, _ = pairing.swiss_tables(players(600), 4, [2, 3, 4], met, set())
    assert len(tables) == 150
    repeats = sum(1 for table in tables for a, b in combinations(table, 2) if b.key in met[a.key])
    assert repeats < 150  # most tables avoid every repeat with only a window to choose from


def test_arena_makes_no_table_of_players_who_just_played_each_other_until_the_patience():
    last = {0: {1}, 1: {0}}
    tables, left = pairing.arena_tables(players(2), 2, [2], last, patient_out=False)
    assert tables == [] and len(left) == 2
    tables, left = pairing.arena_tables(players(2), 2, [2], last, patient_out=True)
    assert len(tables) == 1 and left == []
