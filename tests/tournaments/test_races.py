"""A round is paired once, whoever asks at the same moment: two processes advancing a tournament at once (the beat
sweep and a finished table's task, or a duplicated message) take turns on the tournament's row, and the round's
unique key backs it."""

import pytest
from tournaments import life_cycle
from tournaments.models import Pairing, Round, TournamentTable

from tests.conftest import race
from tests.tournaments.test_life_cycle import current_tables, win
from turnengine.models import Match

pytestmark = pytest.mark.django_db(transaction=True)


def test_two_concurrent_calls_pair_the_first_round_once(make_tournament):
    tournament, _users = make_tournament(players=6)
    calls = [lambda: life_cycle.tournament_advance(tournament.pk, now=tournament.starts_at)] * 2
    race(calls)
    assert Round.objects.filter(tournament=tournament).count() == 1
    assert TournamentTable.objects.filter(round__tournament=tournament).count() == 3
    assert Match.objects.filter(tournament_table__round__tournament=tournament).count() == 3
    assert Pairing.objects.filter(round__tournament=tournament).count() == 6


def test_two_concurrent_calls_after_a_round_pair_the_next_once(make_tournament):
    tournament, _users = make_tournament(players=4, rounds=3)
    life_cycle.tournament_advance(tournament.pk, now=tournament.starts_at)
    for match in current_tables(tournament):
        win(match, 0)
    race([lambda: life_cycle.tournament_advance(tournament.pk)] * 3)
    assert list(Round.objects.filter(tournament=tournament).values_list("number", flat=True)) == [1, 2]
    assert Pairing.objects.filter(round__tournament=tournament, round__number=2).count() == 4
