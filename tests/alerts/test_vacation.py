"""Vacation: a player's turn-based clocks pause for the days they choose (bounded per year), exactly, the other
players see it at the table, and coming back early gives back exactly the time spent away; a turn-based table that
starts during a vacation (a table's start, a tournament's) starts with the player's clock paused."""

from datetime import timedelta

import pytest
from django.db import connection
from django.test.utils import CaptureQueriesContext
from django.urls import reverse
from django.utils import timezone

from alerts import vacation
from lobby import rematch
from lobby import services as lobby
from turnengine import clocks
from turnengine.models import AwaitedTurn, Match

pytestmark = pytest.mark.django_db(transaction=True)
DAY_MS = 24 * clocks.HOUR


def test_after_vacation_counts_only_the_time_outside_it():
    # A 100 ms turn from 0, a vacation from 50 to 80: 50 ms before, 50 after, so it ends at 130.
    assert clocks.after_vacation(100, 0, [50, 80]) == 130
    assert clocks.after_vacation(100, 0, [-10, 20]) == 120  # began before the turn: counted from 20
    assert clocks.after_vacation(100, 30, [0, 20]) == 100  # over before the turn began
    assert clocks.after_vacation(100, 0, [100, 200]) == 100  # begins once the turn is over
    assert clocks.after_vacation(100, 0, None) == 100


def test_vacation_pauses_the_clock_and_ending_early_resumes_it_exactly(start_table, client):
    match, users = start_table("tictactoe", 2, time_control="daily")
    seat = min(match.rules.awaited(match.state))
    player, other = users[seat], users[1 - seat]
    since = match.clock["since"][seat]
    assert clocks.next_deadline(match.clock, clocks.of_match(match)) == since + DAY_MS

    start = timezone.now()
    assert vacation.start(player, days=3, now=start) is not None
    match.refresh_from_db()
    start_ms = clocks.epoch_ms(start)
    paused = 3 * DAY_MS
    assert clocks.next_deadline(match.clock, clocks.of_match(match)) == since + DAY_MS + paused
    assert clocks.epoch_ms(match.deadline_at) == since + DAY_MS + paused
    assert clocks.epoch_ms(AwaitedTurn.objects.get(match=match).deadline_at) == since + DAY_MS + paused

    # The other player sees it at the table.
    client.force_login(other)
    page = client.get(reverse("lobby:table", args=[match.pk])).content.decode()
    assert "data-vacation-note" in page and player.username in page

    # Back after ten hours: the turn ends ten hours later than it would have, to the millisecond.
    back = start + timedelta(hours=10)
    assert vacation.end(player, now=back) is not None
    match.refresh_from_db()
    away = clocks.epoch_ms(back) - start_ms
    assert clocks.next_deadline(match.clock, clocks.of_match(match)) == since + DAY_MS + away
    assert vacation.current(player, now=back) is None


def test_vacation_days_are_bounded_per_year(make_user, settings):
    settings.TAPETE_VACATION_DAYS_PER_YEAR = 10
    player = make_user()
    now = timezone.now().replace(month=6, day=1)
    first = vacation.start(player, days=30, now=now)  # cut to what is left
    assert first.ends_at - first.starts_at == timedelta(days=10)
    assert vacation.start(player, days=1, now=now + timedelta(days=1)) is None  # one runs already
    assert vacation.days_left(player, now=now + timedelta(days=11)) == 0
    assert vacation.start(player, days=1, now=now + timedelta(days=11)) is None


def test_the_settings_page_starts_and_ends_a_vacation(make_user, client, start_table):
    match, users = start_table("tictactoe", 2, time_control="daily")
    player = users[0]
    client.force_login(player)
    assert client.post(reverse("alerts:settings"), {"vacation_days": "2"}).status_code == 302
    assert vacation.current(player) is not None
    assert "I am back" in client.get(reverse("alerts:settings")).content.decode()
    assert client.post(reverse("alerts:settings"), {"end_vacation": "1"}).status_code == 302
    assert vacation.current(player) is None
    assert client.post(reverse("alerts:settings"), {"vacation_days": "x"}).status_code == 200  # refused
    assert Match.objects.get(pk=match.pk).status == Match.Status.ACTIVE


def _table(player, other, *, player_first: bool, time_control: str = "daily") -> Match:
    """A table of ``player`` and ``other`` started now, ``player`` at seat 0 (the first to move) or seat 1."""
    creator, joiner = (player, other) if player_first else (other, player)
    match = lobby.table_create(
        user=creator, game="tictactoe", num_players=2, options={}, ranked=False, time_control=time_control
    )
    lobby.table_join(user=joiner, match_id=match.pk)
    lobby.table_start(user=creator, match_id=match.pk)
    match.refresh_from_db()
    return match


def _deadline(match: Match, seat: int) -> int:
    return clocks.deadlines(match.clock, clocks.of_match(match))[seat]


def test_a_turn_based_table_started_during_a_vacation_starts_with_the_clock_paused(make_user):
    player, other = make_user(), make_user()
    start = timezone.now() - timedelta(hours=1)
    away = vacation.start(player, days=2, now=start)
    window = [clocks.epoch_ms(away.starts_at), clocks.epoch_ms(away.ends_at)]

    # The player moves first: their turn's 24 hours count from the end of the vacation, to the millisecond.
    mine = _table(player, other, player_first=True)
    assert mine.clock["vacation"] == [window, None]
    assert min(mine.rules.awaited(mine.state)) == 0
    assert _deadline(mine, 0) == window[1] + DAY_MS
    assert clocks.epoch_ms(mine.deadline_at) == window[1] + DAY_MS
    assert clocks.epoch_ms(AwaitedTurn.objects.get(match=mine).deadline_at) == window[1] + DAY_MS

    # The other player moves first at the other table: their clock runs as usual.
    theirs = _table(player, other, player_first=False)
    assert theirs.clock["vacation"] == [None, window]
    assert _deadline(theirs, 0) == theirs.clock["since"][0] + DAY_MS

    # A real-time table never pauses.
    assert "vacation" not in _table(player, other, player_first=True, time_control="normal").clock

    # Back early, after three hours: the turn ends 24 hours after the return, so exactly the time away came back.
    back = start + timedelta(hours=3)
    vacation.end(player, now=back)
    mine.refresh_from_db()
    assert _deadline(mine, 0) == clocks.epoch_ms(back) + DAY_MS
    assert clocks.epoch_ms(mine.deadline_at) == clocks.epoch_ms(back) + DAY_MS


def test_a_tournament_table_or_a_rematch_started_during_a_vacation_is_paused_too(make_user):
    player, other = make_user(), make_user()
    earlier = _table(player, other, player_first=True)
    Match.objects.filter(pk=earlier.pk).update(status=Match.Status.FINISHED)
    away = vacation.start(player, days=1)
    match = lobby.table_start_for(
        created_by=other, users=[player, other], game="tictactoe", options={}, ranked=False, time_control="daily"
    )
    match.refresh_from_db()
    assert _deadline(match, 0) == clocks.epoch_ms(away.ends_at) + DAY_MS

    rematch.table_rematch(user=other, match_id=earlier.pk)
    again, _ = rematch.table_rematch(user=player, match_id=earlier.pk)
    again.refresh_from_db()
    assert again.status == Match.Status.ACTIVE and again.clock["vacation"] == [
        [clocks.epoch_ms(away.starts_at), clocks.epoch_ms(away.ends_at)],
        None,
    ]
    assert _deadline(again, 0) == clocks.epoch_ms(away.ends_at) + DAY_MS


def test_the_start_asks_for_vacations_once_and_only_at_turn_based_tables(make_user):
    player, other = make_user(), make_user()
    vacation.start(player, days=1)
    for time_control, asked in (("daily", 1), ("normal", 0)):
        with CaptureQueriesContext(connection) as queries:
            _table(player, other, player_first=True, time_control=time_control)
        assert sum("alerts_vacation" in query["sql"] for query in queries.captured_queries) == asked
