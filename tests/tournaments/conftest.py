"""Tournaments for the tests: a staff creator, a tournament of a game starting at a given time, players joined."""

from datetime import timedelta

import pytest
from django.utils import timezone

from tournaments import life_cycle
from tournaments.models import Tournament


@pytest.fixture
def make_tournament(make_user):
    def make(*, players: int = 4, game: str = "tictactoe", table_size: int = 2, **fields) -> tuple:
        staff = make_user()
        staff.is_staff = True
        staff.save(update_fields=["is_staff"])
        fields.setdefault("starts_at", timezone.now() + timedelta(minutes=5))
        fields.setdefault("name", "Friday cup")
        tournament = Tournament.objects.create(game=game, table_size=table_size, created_by=staff, **fields)
        users = [make_user() for _ in range(players)]
        for user in users:
            life_cycle.tournament_join(user=user, tournament_id=tournament.pk)
        return tournament, users

    return make


def started(tournament: Tournament) -> Tournament:
    life_cycle.tournament_advance(tournament.pk, now=tournament.starts_at)
    tournament.refresh_from_db()
    return tournament
