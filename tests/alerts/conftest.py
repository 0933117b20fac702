"""The alerts' fixtures: a player awaited at three turn-based tables."""

import pytest

from lobby import services as lobby


@pytest.fixture
def three_tables(make_user):
    """``player`` sits at three turn-based Tic-tac-toe tables, each against someone else, and moves first at each;
    returns the player and each table with its users in seat order."""

    def make():
        player = make_user()
        tables = []
        for _ in range(3):
            opponent = make_user()
            match = lobby.table_create(
                user=player, game="tictactoe", num_players=2, options={}, ranked=False, time_control="daily"
            )
            lobby.table_join(user=opponent, match_id=match.pk)
            lobby.table_start(user=player, match_id=match.pk)
            match.refresh_from_db()
            users = [player, opponent] if match.seats.get(user=player).index == 0 else [opponent, player]
            tables.append((match, users))
        return player, tables

    return make
