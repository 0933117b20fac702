"""Each sanction takes effect at once: chat refused, sockets closed, log-in and tables refused, bans abandon."""

from datetime import timedelta

import pytest
from channels.db import database_sync_to_async
from django.urls import reverse

from lobby import services as lobby
from lobby.errors import LobbyError
from moderation import services as moderation
from moderation.models import AuditEntry, NetworkNotice, Report
from ratings.models import RatingChange
from tests.conftest import PASSWORD
from tests.turnengine.wsclient import closed_with, connect, receive_until
from turnengine import chat
from turnengine.errors import EngineError
from turnengine.models import ChatMessage, Match, Seat

pytestmark = pytest.mark.django_db


@pytest.fixture
def moderator(make_user):
    return make_user("moderator")


def test_a_muted_player_cannot_chat_until_the_mute_ends(start_table, moderator):
    match, users = start_table("perudo", 2)
    sanction = moderation.moderation_mute(
        moderator=moderator, user=users[0], reason="insults", duration=timedelta(hours=1)
    )
    with pytest.raises(EngineError) as refused:
        chat.chat_post(match=match, user=users[0], seat=0, text="hello", max_length=500)
    assert refused.value.code == "muted" and "muted" in refused.value.message
    assert not ChatMessage.objects.exists()
    sanction.ends_at = sanction.starts_at  # the mute is over
    sanction.save()
    chat.chat_post(match=match, user=users[0], seat=0, text="hello", max_length=500)
    assert AuditEntry.objects.get().action == "mute"


def test_a_suspended_player_cannot_log_in_or_join_tables(client, make_user, moderator):
    player = make_user()
    moderation.moderation_suspend(
        moderator=moderator, user=player, reason="cheating", duration=timedelta(days=3)
    )
    assert not client.login(username=player.username, password=PASSWORD)
    with pytest.raises(LobbyError) as refused:
        lobby.table_create(user=player, game="perudo", num_players=2, options={}, ranked=False)
    assert refused.value.code == "suspended"


def test_a_player_suspended_while_logged_in_is_logged_out_at_the_next_page(client, make_user, moderator):
    player = make_user()
    client.force_login(player)
    moderation.moderation_suspend(
        moderator=moderator, user=player, reason="cheating", duration=timedelta(days=1)
    )
    page = client.get(reverse("lobby:home"))
    assert not page.context["user"].is_authenticated


@pytest.mark.django_db(transaction=True)
@pytest.mark.asyncio
async def test_suspension_closes_the_open_websocket_at_once(start_table, moderator):
    match, users = await database_sync_to_async(start_table)("perudo", 2)
    socket, connected = await connect(f"/ws/match/{match.pk}/", users[1])
    assert connected
    await receive_until(socket, "view")
    await database_sync_to_async(moderation.moderation_suspend)(
        moderator=moderator, user=users[1], reason="abuse", duration=timedelta(days=1)
    )
    while True:
        output = await socket.receive_output(timeout=5)
        if output["type"] == "websocket.close":
            break
    assert output["code"] == 4403
    _socket, connected = await connect(f"/ws/match/{match.pk}/", users[1])
    if connected:  # the handshake is accepted, then closed (after an error frame giving the reason)
        assert (await closed_with(_socket))["code"] in (4401, 4403)


def test_a_ban_abandons_ranked_games_in_progress(start_table, moderator):
    match, users = start_table("perudo", 2, ranked=True)
    moderation.moderation_ban(moderator=moderator, user=users[1], reason="collusion")
    match.refresh_from_db()
    assert Seat.objects.get(match=match, user=users[1]).abandoned
    assert match.clock["absent"][1] or match.status == Match.Status.FINISHED


def test_hidden_chat_lines_leave_every_snapshot(start_table, moderator):
    match, users = start_table("spicy", 2, {"challengeGraceMs": 0})
    chat.chat_post(match=match, user=users[0], seat=0, text="rude words", max_length=500)
    chat.chat_post(match=match, user=users[1], seat=1, text="gg", max_length=500)
    line = ChatMessage.objects.get(text="rude words")
    moderation.moderation_hide_message(moderator=moderator, message=line, reason="insult")
    assert [entry["text"] for entry in chat.recent_chat(match=match, seat=1)] == ["gg"]


def test_spectators_chat_among_themselves(start_table, make_user):
    match, users = start_table("perudo", 2)
    chat.chat_post(match=match, user=users[0], seat=0, text="players line", max_length=500)
    chat.chat_post(match=match, user=make_user(), seat=None, text="psst, bid fives", max_length=500)
    assert [entry["text"] for entry in chat.recent_chat(match=match, seat=1)] == ["players line"]
    assert [entry["text"] for entry in chat.recent_chat(match=match, seat=None)] == [
        "players line",
        "psst, bid fives",
    ]


def test_an_aborted_match_has_no_result_and_changes_no_rating(start_table, moderator):
    match, _users = start_table("perudo", 2, ranked=True)
    moderation.moderation_abort_match(moderator=moderator, match=match, reason="bug")
    match.refresh_from_db()
    assert match.status == Match.Status.ABORTED and match.result is None
    assert not RatingChange.objects.exists()
    with pytest.raises(ValueError):
        moderation.moderation_abort_match(moderator=moderator, match=match, reason="again")


def test_every_action_needs_a_reason_and_the_audit_log_cannot_be_edited(make_user, moderator):
    with pytest.raises(ValueError):
        moderation.moderation_warn(moderator=moderator, user=make_user(), reason=" ")
    moderation.moderation_warn(moderator=moderator, user=make_user(), reason="language")
    entry = AuditEntry.objects.get()
    entry.reason = "rewritten"
    with pytest.raises(PermissionError):
        entry.save()
    with pytest.raises(PermissionError):
        entry.delete()


def test_a_player_reports_from_a_chat_line(client, start_table):
    match, users = start_table("perudo", 2)
    chat.chat_post(match=match, user=users[1], seat=1, text="you idiot", max_length=500)
    line = ChatMessage.objects.get()
    client.force_login(users[0])
    url = reverse("moderation:report", args=[users[1].username])
    form = client.get(url, {"match": match.pk, "move": match.version, "chat": line.pk})
    assert form.status_code == 200
    client.post(
        url,
        {"reason": "abuse", "comment": "see chat", "match": match.pk, "move": match.version, "chat": line.pk},
    )
    report = Report.objects.get()
    assert (report.reporter, report.reported, report.match, report.move) == (
        users[0],
        users[1],
        match,
        match.version,
    )
    assert list(report.chat_messages.all()) == [line]


def test_same_network_seats_at_a_ranked_table_are_flagged(make_user):
    first, second, third = make_user(), make_user(), make_user()
    match = lobby.table_create(
        user=first, game="spicy", num_players=3, options={}, ranked=True, ip_address="10.1.2.3"
    )
    lobby.table_join(user=second, match_id=match.pk, ip_address="10.1.2.3")
    lobby.table_join(user=third, match_id=match.pk, ip_address="10.9.9.9")
    lobby.table_start(user=first, match_id=match.pk)
    notice = NetworkNotice.objects.get()
    assert notice.ip_address == "10.1.2.3" and notice.usernames == sorted([first.username, second.username])


def test_personal_mutes_are_per_player(make_user):
    ana, bruno = make_user(), make_user()
    assert moderation.chat_mute_toggle(user=ana, username=bruno.username, mute=True) == [bruno.username]
    assert moderation.muted_usernames(user=bruno) == []
    assert moderation.chat_mute_toggle(user=ana, username=bruno.username, mute=False) == []
