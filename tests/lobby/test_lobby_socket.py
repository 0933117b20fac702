"""The lobby socket's two forms: ``/ws/lobby/`` hears every table's change (the table lists), ``/ws/lobby/?lists=0``
(what a page without a table list opens) does not, and both carry a player's own frames."""

import pytest
from asgiref.sync import sync_to_async
from django.test import TestCase

from lobby import services
from tests.turnengine.wsclient import connect, receive, receive_until


def _open_table(user) -> int:
    with TestCase.captureOnCommitCallbacks(execute=True):
        return services.table_create(user=user, game="tictactoe", num_players=2, options={}, ranked=False).pk


@pytest.mark.django_db(transaction=True)
@pytest.mark.asyncio
async def test_a_page_without_table_lists_hears_no_tables_changes(make_user):
    player, host = await sync_to_async(make_user)(), await sync_to_async(make_user)()
    lists, connected = await connect("/ws/lobby/", user=player)
    assert connected
    quiet, connected = await connect("/ws/lobby/?lists=0", user=player)
    assert connected
    for socket in (lists, quiet):  # the player's own frames: the count of tables awaiting them, as it opens
        assert (await receive(socket))["t"] == "turns"
    match_id = await sync_to_async(_open_table)(host)
    heard = await receive_until(lists, "lobby")
    assert heard["d"]["match_id"] == match_id
    assert await quiet.receive_nothing(timeout=0.5)
    await lists.disconnect()
    await quiet.disconnect()
