"""The tables awaiting a player: kept on commit by the match writer (rows and counts), pushed once per change to
the players concerned, the "Your move" page, "next table", and nothing of it on a real-time table's moves."""

import orjson
import pytest
from django.db import connection
from django.test.utils import CaptureQueriesContext
from django.urls import reverse

from tests.conftest import race
from turnengine import awaiting, services, timers, writer
from turnengine.models import AwaitedTurn, Match, TurnsWaiting

pytestmark = pytest.mark.django_db(transaction=True)


def move(match, users):
    """The awaited seat plays its first legal action."""
    match.refresh_from_db()
    seat = min(match.rules.awaited(match.state))
    action = match.rules.legal_actions(match.state, seat)[0]
    services.match_apply_action(
        match_id=match.pk, user=users[seat], expected_version=match.version, action=action
    )
    match.refresh_from_db()
    return seat


def count(user) -> int:
    return awaiting.count_of(user)


def turns_frames(sent, user) -> list[dict]:
    group = awaiting.group(user.pk)
    return [orjson.loads(update.frames[group])["d"] for update in sent if group in update.frames]


def test_a_turn_based_table_counts_whose_move_it_awaits(start_table, sent):
    match, users = start_table("tictactoe", 2, time_control="daily")
    first = min(match.rules.awaited(match.state))
    waiting, other = users[first], users[1 - first]
    assert count(waiting) == 1 and count(other) == 0
    row = AwaitedTurn.objects.get(match=match)
    assert (row.seat, row.user_id, row.mailed) == (first, waiting.pk, False)
    assert row.deadline_at is not None and (row.deadline_at - row.since).total_seconds() == 24 * 3600

    sent.clear()
    move(match, users)
    assert count(waiting) == 0 and count(other) == 1
    # One frame per player concerned, with their new count; the one now awaited is told it is theirs.
    assert turns_frames(sent, waiting) == [
        {"count": 0, "match_id": match.pk, "game": "tictactoe", "yours": False}
    ]
    assert turns_frames(sent, other) == [
        {"count": 1, "match_id": match.pk, "game": "tictactoe", "yours": True}
    ]


def test_three_tables_count_three_and_the_page_lists_them_oldest_first(three_tables, client):
    player, tables = three_tables()
    assert count(player) == 3 == TurnsWaiting.objects.get(user=player).count
    client.force_login(player)
    page = client.get(reverse("alerts:your_move")).content.decode()
    positions = [page.index(reverse("lobby:table", args=[match.pk])) for match, _ in tables]
    assert positions == sorted(positions)  # the longest-waiting first
    assert "24" in page or "23" in page  # time left, in words
    # The header's badge says 3 on any page.
    home = client.get(reverse("lobby:home")).content.decode()
    assert "data-turns-count>3</span>" in home

    # "Next table": the oldest, then (leaving it) the one after, and so on round; once moved at, it is no longer
    # awaited.
    first, second, third = (match.pk for match, _users in tables)
    assert client.get(reverse("alerts:next"))["Location"] == reverse("lobby:table", args=[first])
    assert client.get(reverse("alerts:next") + f"?from={first}")["Location"] == reverse(
        "lobby:table", args=[second]
    )
    assert client.get(reverse("alerts:next") + f"?from={second}")["Location"] == reverse(
        "lobby:table", args=[third]
    )
    assert client.get(reverse("alerts:next") + f"?from={third}")["Location"] == reverse(
        "lobby:table", args=[first]
    )
    move(*tables[0])
    assert count(player) == 2
    assert client.get(reverse("alerts:next"))["Location"] == reverse("lobby:table", args=[second])


def test_finish_and_abort_clear_the_rows_and_counts(three_tables):
    player, tables = three_tables()
    match, users = tables[0]
    with writer.locked(match.pk) as change:
        timers.match_abort(change)
    assert count(player) == 2
    assert not AwaitedTurn.objects.filter(match=match).exists()
    match, users = tables[1]
    while match.status == Match.Status.ACTIVE:
        move(match, users)
    assert count(player) == 1 and count(users[0]) + count(users[1]) == 1
    assert not AwaitedTurn.objects.filter(match=match).exists()


def test_a_real_time_move_does_no_alert_work(start_table, sent):
    match, users = start_table("tictactoe", 2, time_control="blitz")
    with CaptureQueriesContext(connection) as queries:
        move(match, users)
    touched = [
        query["sql"] for query in queries if "awaited" in query["sql"] or "turnswaiting" in query["sql"]
    ]
    assert touched == []
    assert not AwaitedTurn.objects.exists() and not TurnsWaiting.objects.exists()
    assert not any(group.startswith("turns.") for update in sent for group in update.frames)


def test_a_move_that_keeps_the_turn_counts_nothing_again(start_table, sent):
    """A change of the clocks that leaves whose turn it is alone (a re-armed clock) writes no row, sends nothing."""
    match, users = start_table("tictactoe", 2, time_control="daily")
    seat = min(match.rules.awaited(match.state))
    sent.clear()
    with CaptureQueriesContext(connection) as queries:
        timers.seats_rearm(match_id=match.pk, version=match.version, seats={seat})
    assert not [query for query in queries if "awaited" in query["sql"] or "turnswaiting" in query["sql"]]
    assert not any(group.startswith("turns.") for update in sent for group in update.frames)


def test_bad_and_anonymous_requests(client, make_user):
    assert client.get(reverse("alerts:your_move"))["Location"].startswith(reverse("login"))
    client.force_login(make_user())
    assert client.get(reverse("alerts:next") + "?from=x").status_code == 400
    assert client.get(reverse("alerts:next") + "?from=99999999999999999999").status_code == 400
    response = client.get(
        reverse("alerts:next"), follow=True
    )  # nothing waits: back to the page, with a message
    assert response.redirect_chain[-1][0] == reverse("alerts:your_move")
    assert client.get(reverse("alerts:your_move_list")).status_code == 200


def test_two_tables_turning_to_the_same_player_at_once_count_both(three_tables):
    """Two opponents move at the same moment at two tables of the same player: the database orders the recounts
    (each player's count row is locked), so the count is 3 again whichever commits first."""
    player, tables = three_tables()
    for match, users in tables[:2]:
        move(match, users)  # the player moves: now each opponent's turn
    assert count(player) == 1

    def answer(match, users):
        opponent = next(user for user in users if user != player)
        seat = users.index(opponent)
        match.refresh_from_db()
        action = match.rules.legal_actions(match.state, seat)[0]
        return lambda: services.match_apply_action(
            match_id=match.pk, user=opponent, expected_version=match.version, action=action
        )

    race([answer(*tables[0]), answer(*tables[1])])
    assert count(player) == 3 == AwaitedTurn.objects.filter(user=player).count()


def test_what_a_turn_passing_costs_a_turn_based_move(start_table):
    """What a turn passing adds to a turn-based move's transaction: on PostgreSQL two statements (the rows out and
    in with the players' count rows locked, then the recount: ``turnengine.awaiting_sql``); through the ORM six (the
    seats' players, the rows out, the rows in, the counts locked, counted, read)."""
    match, users = start_table("tictactoe", 2, time_control="daily")
    with CaptureQueriesContext(connection) as queries:
        move(match, users)
    alerts = [
        query["sql"]
        for query in queries
        if "awaitedturn" in query["sql"] or "turnswaiting" in query["sql"] or "is_bot" in query["sql"]
    ]
    assert len(alerts) == (2 if connection.vendor == "postgresql" else 6), alerts
