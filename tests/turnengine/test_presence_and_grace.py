"""Disconnection in words and the real-time grace: a seat whose sockets are all gone is offline from that moment,
its deadline becomes the end of the grace if that comes first, the engine then plays for it until it reconnects;
turn-based tables keep their hours. Also: the reveal pause, leavers never winning, rating changes in the frames."""

import json
from datetime import UTC, datetime, timedelta

import pytest

from ratings.models import RatingChange
from tests.conftest import play_bid_then_dudo, socket_presence
from turnengine import clocks, presence, seat_frames, services, timers, writer
from turnengine.models import Match, MatchAction, PresenceNotice

pytestmark = pytest.mark.django_db


def _frame(update, match, group="all"):
    return json.loads(update.frames[match.group_name(group)])


def _connect(match, seat, delta, now=None):
    return socket_presence(match, seat, delta, now)


def _awaited(match):
    (seat,) = sorted(match.rules.awaited(match.state))
    return seat


def test_a_lost_connection_is_shown_to_everyone_and_moves_the_deadline_to_the_grace(start_table):
    match, _users = start_table("chinesecheckers", 2)
    seat = _awaited(match)
    bank_deadline = match.deadline_at
    _connect(match, seat, +1)
    update = _connect(match, seat, -1)
    frame = _frame(update, match)
    assert frame["t"] == "presence"
    assert frame["d"]["notice"] is None  # the players' bar says it; the log waits for a real disconnection
    player = frame["d"]["players"][seat]
    assert player["online"] is False and player["offline_since"] is not None
    match.refresh_from_db()
    grace = timedelta(milliseconds=clocks.DEFAULT_GRACE_MS)
    assert match.deadline_at < bank_deadline
    offline_at = match.clock["offline"][seat]
    assert clocks.epoch_ms(match.deadline_at) == offline_at + grace // timedelta(milliseconds=1)
    assert frame["d"]["clock"]["deadlines"][str(seat)] == offline_at + clocks.DEFAULT_GRACE_MS


def test_after_the_grace_the_computer_plays_and_a_reconnection_takes_the_seat_back(start_table):
    match, _users = start_table("chinesecheckers", 2)
    seat = _awaited(match)
    _connect(match, seat, +1)
    _connect(match, seat, -1)
    match.refresh_from_db()
    version = match.version
    early = match.deadline_at - timedelta(seconds=1)
    assert timers.match_expire(match_id=match.pk, version=version, now=early) is None
    update = timers.match_expire(match_id=match.pk, version=version, now=match.deadline_at)
    match.refresh_from_db()
    assert match.version == version + 1
    assert seat not in match.rules.awaited(match.state)  # the computer moved for the seat
    events = _frame(update, match, 1 - seat)["d"]["events"]
    assert events[0] == {"type": "seat_autoplayed", "seat": seat}
    assert match.clock["timeouts"][seat] == 1 and not match.clock["absent"][seat]
    reconnect = _frame(_connect(match, seat, +1, now=match.deadline_at + timedelta(seconds=1)), match)
    assert reconnect["d"]["notice"]["type"] == "reconnected"
    assert reconnect["d"]["notice"]["away_s"] > clocks.DEFAULT_GRACE_MS // 1000
    match.refresh_from_db()
    assert match.clock["offline"][seat] is None
    assert not clocks.played_for(match.clock, clocks.of_match(match), seat, 10**15)


def test_past_its_grace_a_disconnected_seat_is_played_at_once_and_back_with_its_connection(start_table):
    match, users = start_table("chinesecheckers", 2)
    seat = _awaited(match)
    other = 1 - seat
    _connect(match, seat, +1)
    _connect(match, seat, -1)
    grace_end = _deadline(match)
    timers.match_expire(match_id=match.pk, version=match.version, now=grace_end)
    match.refresh_from_db()
    # the other player moves after the grace: the engine plays the disconnected seat's turn at once
    action = match.rules.legal_actions(match.state, other)[0]
    services.match_apply_action(
        match_id=match.pk,
        user=users[other],
        expected_version=match.version,
        action=action,
        now=grace_end + timedelta(seconds=5),
    )
    logged = MatchAction.objects.filter(match=match, version=match.version + 1).order_by("step")
    assert [row.seat for row in logged] == [other, seat]
    match.refresh_from_db()
    assert other in match.rules.awaited(match.state)
    # two timeouts made it absent (the clocks' rule); reconnecting brings the player back at once
    match.clock["timeouts"][seat] = clocks.TIMEOUTS_BEFORE_ABSENT
    match.clock["absent"][seat] = True
    match.save(update_fields=["clock"])
    notice = _frame(_connect(match, seat, +1), match)["d"]["notice"]
    assert notice == {"type": "reconnected", "seat": seat, "back": True}
    match.refresh_from_db()
    assert not match.clock["absent"][seat] and match.clock["timeouts"][seat] == 0


@pytest.mark.parametrize("profile", ["normal", "daily"])
def test_a_reload_within_the_grace_writes_nothing_in_the_log_and_a_real_disconnection_one_line(
    start_table, profile
):
    """A reload, a page change or a language switch closes the seat's last socket and opens another at once:
    nothing for the log. Back after at least the grace (the default one on turn-based tables), one line."""
    match, _users = start_table("perudo", 2, time_control=profile)
    grace = timedelta(milliseconds=presence.real_absence_ms(clocks.of_match(match)))
    _connect(match, 0, +1)
    for _reload in range(3):
        closed = _frame(_connect(match, 0, -1), match)
        assert closed["d"]["notice"] is None and closed["d"]["players"][0]["online"] is False
        match.refresh_from_db()
        went = _moment(match.clock["offline"][0])
        back = _frame(_connect(match, 0, +1, now=went + grace - timedelta(milliseconds=1)), match)
        assert back["d"]["notice"] is None and back["d"]["players"][0]["online"] is True
    assert not PresenceNotice.objects.filter(match=match).exists()

    _connect(match, 0, -1)
    match.refresh_from_db()
    went = _moment(match.clock["offline"][0])
    back = _frame(_connect(match, 0, +1, now=went + grace), match)
    notice = {"type": "reconnected", "seat": 0, "away_s": grace // timedelta(seconds=1)}
    assert back["d"]["notice"] == notice
    assert [row.notice for row in PresenceNotice.objects.filter(match=match)] == [notice]


def _moment(epoch_ms):
    return datetime.fromtimestamp(epoch_ms / 1000, tz=UTC)


def _deadline(match):
    match.refresh_from_db()
    return match.deadline_at


def test_a_player_who_left_stays_absent_when_reconnecting(start_table):
    match, users = start_table("chinesecheckers", 2)
    _connect(match, 0, +1)
    update = timers.seat_leave(match_id=match.pk, user=users[0])
    assert _frame(update, match)["d"]["notice"] == {"type": "left", "seat": 0}
    _connect(match, 0, -1)
    _connect(match, 0, +1)
    match.refresh_from_db()
    assert match.clock["absent"][0] and match.clock["left"][0]


def test_turn_based_tables_keep_their_hours_when_a_player_disconnects(start_table):
    match, _users = start_table("chinesecheckers", 2, time_control="daily")
    seat = _awaited(match)
    deadline = match.deadline_at
    _connect(match, seat, +1)
    _connect(match, seat, -1)
    match.refresh_from_db()
    assert match.deadline_at == deadline
    assert match.time_control["grace_ms"] == 0


def test_a_second_socket_closing_is_not_a_disconnection(start_table):
    match, _users = start_table("chinesecheckers", 2)
    _connect(match, 0, +1)
    _connect(match, 0, +1)
    update = _connect(match, 0, -1)
    assert _frame(update, match)["d"]["notice"] is None
    match.refresh_from_db()
    assert match.clock["offline"][0] is None


def test_the_table_sets_its_grace(make_user):
    from lobby import services as lobby

    user = make_user()
    match = lobby.table_create(
        user=user, game="perudo", num_players=2, options={}, ranked=False, grace_seconds=5
    )
    assert match.time_control["grace_ms"] == 5000


def test_a_dudo_pauses_the_next_clock_while_the_table_shows_the_reveal(start_table):
    match, users = start_table("perudo", 2)
    play_bid_then_dudo(match, users)
    starter = _awaited(match)
    pause = match.rules.reveal_pause_ms(
        [e for row in match.actions.order_by("step") for e in row.events if e["type"] == "dudo"]
    )
    assert pause > 0
    assert match.clock["since"][starter] == clocks.epoch_ms(match.last_action_at) + pause
    payload = seat_frames.clock_payload(match)
    assert payload["since"][starter] > payload["server_ms"]


def test_a_player_who_left_a_ranked_game_is_ranked_last_and_never_the_winner(start_table):
    match, users = start_table("perudo", 2, ranked=True)
    timers.seat_leave(match_id=match.pk, user=users[0])
    match.refresh_from_db()
    # whatever the computer achieves for seat 0, the table's result ranks the leaver last
    from tapete_sdk.plugin import Outcome

    result = writer.final_result(match, Outcome(ranking=[[0], [1]], reason="last_player_standing"))
    assert result["ranking"] == [[1], [0]] and result["left"] == [0]


def test_a_finished_ranked_match_sends_each_seats_rating_change(start_table):
    from tests.conftest import play_to_the_end

    match, users = start_table("perudo", 2, ranked=True)
    match = play_to_the_end(match, users)
    changes = seat_frames.match_meta(match)["rating_changes"]
    rows = {row.user_id: row for row in RatingChange.objects.filter(match=match)}
    for seat in match.seats.all():
        assert changes[str(seat.index)]["delta"] == round(rows[seat.user_id].delta)
    assert match.result["left"] == [] and "absent" in match.result


def test_an_aborted_match_stops_its_clocks(start_table):
    match, _users = start_table("perudo", 2)
    Match.objects.filter(pk=match.pk).update(status=Match.Status.ABORTED)
    match.refresh_from_db()
    assert seat_frames.clock_payload(match)["deadlines"] == {}
