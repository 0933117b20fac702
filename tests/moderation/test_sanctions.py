"""Each sanction takes effect at once and the player is told: chat refused with its end, open tables told and
closed (4403 with a reason), log-in and every page explaining it, warnings shown until acknowledged, running games
left (ranked: abandoned; friendly: the bot plays); hidden lines and aborts reach every open page at once."""

from datetime import timedelta
from zoneinfo import ZoneInfo

import pytest
from channels.db import database_sync_to_async
from django.urls import reverse
from django.utils import timezone, translation

from lobby import services as lobby
from lobby.errors import LobbyError
from moderation import services as moderation
from moderation.models import AuditEntry, NetworkNotice, Report
from ratings.models import RatingChange
from tests.conftest import PASSWORD
from tests.turnengine.wsclient import connect, receive, receive_until
from turnengine import chat, timers
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


def test_log_in_tells_a_suspended_player_why_and_until_when_in_their_zone(client, make_user, moderator):
    player = make_user()
    player.time_zone = "America/New_York"
    player.save()
    sanction = moderation.moderation_suspend(
        moderator=moderator, user=player, reason="insults", public_reason="Abusive language.",
        duration=timedelta(days=7),
    )
    page = client.post(reverse("login"), {"username": player.username, "password": PASSWORD})
    text = page.content.decode()
    local = timezone.localtime(sanction.ends_at, ZoneInfo("America/New_York"))
    assert "Your account is suspended until" in text and "Abusive language." in text
    assert "(America/New_York)" in text and f"{local:%Y}" in text
    assert "correct username and password" not in text
    wrong = client.post(reverse("login"), {"username": player.username, "password": "wrong-password-1"})
    assert "correct username and password" in wrong.content.decode()  # the sanction only behind the password
    assert "suspended" not in wrong.content.decode()


def test_every_page_explains_the_suspension_to_a_logged_in_player(client, make_user, moderator):
    player = make_user()
    client.force_login(player)
    moderation.moderation_suspend(
        moderator=moderator, user=player, reason="cheating", public_reason="Collusion.", duration=timedelta(days=1)
    )
    for url in (reverse("lobby:home"), reverse("profile", args=[player.username]), "/table/1/"):
        page = client.get(url)
        assert page.status_code == 403 and b"Your account is suspended until" in page.content, url
        assert b"Collusion." in page.content
    assert client.post(reverse("logout")).status_code == 302


def test_a_warning_shows_on_every_page_until_acknowledged(client, make_user, moderator):
    player = make_user()
    client.force_login(player)
    warning = moderation.moderation_warn(moderator=moderator, user=player, reason="language",
                                         public_reason="Please keep the chat friendly.")
    for _ in range(2):
        assert b"Please keep the chat friendly." in client.get(reverse("lobby:home")).content
    client.post(reverse("moderation:acknowledge", args=[warning.pk]), {"next": "/"})
    assert b"Please keep the chat friendly." not in client.get(reverse("lobby:home")).content
    warning.refresh_from_db()
    assert warning.acknowledged_at is not None


def test_a_muted_players_chat_box_says_until_when(client, start_table, moderator):
    match, users = start_table("perudo", 2)
    users[0].time_zone = "Asia/Tokyo"
    users[0].save()
    moderation.moderation_mute(moderator=moderator, user=users[0], reason="spam", duration=timedelta(hours=24))
    client.force_login(users[0])
    page = client.get(reverse("lobby:table", args=[match.pk])).content.decode()
    assert "data-mute-notice" in page and "muted you in chat until" in page and "(Asia/Tokyo)" in page


def test_a_suspension_releases_ranked_seats_as_abandoned_and_friendly_seats_to_the_bot(start_table, moderator):
    ranked, ranked_users = start_table("perudo", 2, ranked=True)
    friendly, friendly_users = start_table("perudo", 2)
    Seat.objects.filter(match=friendly, index=1).update(user=ranked_users[1])
    moderation.moderation_suspend(moderator=moderator, user=ranked_users[1], reason="x", duration=timedelta(hours=1))
    ranked.refresh_from_db()
    friendly.refresh_from_db()
    assert Seat.objects.get(match=ranked, user=ranked_users[1]).abandoned
    assert ranked.clock["absent"][1] or ranked.status == Match.Status.FINISHED
    assert not Seat.objects.get(match=friendly, user=ranked_users[1]).abandoned
    assert friendly.clock["absent"][1]  # a computer player plays it from now on
    timers.match_end_by_vote(match_id=ranked.pk, user=ranked_users[0])  # the table goes on, and is rated
    assert RatingChange.objects.filter(match=ranked).count() == 2
    assert RatingChange.objects.get(match=ranked, user=ranked_users[1]).abandoned


@pytest.mark.django_db(transaction=True)
@pytest.mark.asyncio
async def test_suspension_tells_the_open_table_and_closes_it_with_4403(start_table, moderator):
    match, users = await database_sync_to_async(start_table)("perudo", 2)
    socket, connected = await connect(f"/ws/match/{match.pk}/", users[1])
    assert connected
    await receive_until(socket, "view")
    await database_sync_to_async(moderation.moderation_suspend)(
        moderator=moderator, user=users[1], reason="abuse", public_reason="Insults.", duration=timedelta(days=1)
    )
    frame = await receive_until(socket, "sanction")
    assert frame["d"]["kind"] == "suspension" and "Insults." in frame["d"]["message"]
    assert frame["d"]["until"] is not None
    while True:
        output = await socket.receive_output(timeout=5)
        if output["type"] == "websocket.close":
            break
    assert output["code"] == 4403 and output["reason"].startswith("Your account is suspended until")
    again, connected = await connect(f"/ws/match/{match.pk}/", users[1])
    assert connected  # accepted only to say why, then closed
    assert (await receive_until(again, "sanction"))["d"]["kind"] == "suspension"
    assert (await again.receive_output(timeout=5))["code"] == 4403


@pytest.mark.django_db(transaction=True)
@pytest.mark.asyncio
async def test_a_banned_player_is_refused_at_every_table_and_admitted_once_the_ban_is_lifted(start_table, moderator):
    match, users = await database_sync_to_async(start_table)("perudo", 2)
    ban = await database_sync_to_async(moderation.moderation_ban)(moderator=moderator, user=users[1], reason="cheat")
    for path in (f"/ws/match/{match.pk}/", f"/ws/match/{match.pk + 1000}/"):  # their table, and one that is not
        socket, connected = await connect(path, users[1])
        assert connected  # accepted only to say why, then closed
        assert (await receive_until(socket, "sanction"))["d"]["kind"] == "ban"
        assert (await socket.receive_output(timeout=5))["code"] == 4403
    other, connected = await connect(f"/ws/match/{match.pk}/", users[0])  # another player's ban refuses nobody else
    assert connected and (await receive_until(other, "view"))["d"]["seat"] == 0
    await database_sync_to_async(moderation.moderation_lift)(moderator=moderator, sanction=ban, reason="appeal")
    socket, connected = await connect(f"/ws/match/{match.pk}/", users[1])
    assert connected and (await receive_until(socket, "view"))["d"]["seat"] == 1
    for open_socket in (other, socket):  # closed before the test database is flushed
        await open_socket.disconnect()


@pytest.mark.django_db(transaction=True)
@pytest.mark.asyncio
async def test_hiding_a_line_and_aborting_reach_every_open_page_at_once(start_table, moderator, make_user):
    match, users = await database_sync_to_async(start_table)("perudo", 2)
    player, _ok = await connect(f"/ws/match/{match.pk}/", users[0])
    spectator, _ok = await connect(f"/ws/match/{match.pk}/", await database_sync_to_async(make_user)())
    for socket in (player, spectator):
        await receive_until(socket, "view")
    await player.send_json_to({"t": "chat", "v": None, "d": {"text": "rude"}})
    line_id = (await receive_until(spectator, "chat"))["d"]["id"]
    await database_sync_to_async(moderation.moderation_hide_message)(
        moderator=moderator, message=await database_sync_to_async(ChatMessage.objects.get)(pk=line_id),
        reason="insult")
    for socket in (player, spectator):
        assert (await receive_until(socket, "chat_hidden"))["d"] == {"id": line_id}
    await database_sync_to_async(moderation.moderation_abort_match)(moderator=moderator, match=match, reason="bug")
    for socket in (player, spectator):
        frames = [await receive(socket), await receive(socket)]
        view = next(frame for frame in frames if frame["t"] == "view")
        assert view["d"]["status"] == "aborted" and view["d"]["clock"]["deadlines"] == {}
        assert any(frame["t"] == "aborted" and frame["d"] == {"by": "moderator"} for frame in frames)
    for socket in (player, spectator):
        await socket.disconnect()


@pytest.mark.django_db(transaction=True)
@pytest.mark.asyncio
async def test_a_warning_appears_live_on_an_open_table(start_table, moderator):
    match, users = await database_sync_to_async(start_table)("perudo", 2)
    socket, _ok = await connect(f"/ws/match/{match.pk}/", users[0])
    await receive_until(socket, "view")
    warning = await database_sync_to_async(moderation.moderation_warn)(
        moderator=moderator, user=users[0], reason="language", public_reason="Be kind.")
    frame = await receive_until(socket, "sanction")
    assert frame["d"]["kind"] == "warning" and frame["d"]["message"] == "A moderator warned you. Reason: Be kind."
    assert frame["d"]["acknowledge_url"] == reverse("moderation:acknowledge", args=[warning.pk])
    await socket.disconnect()


@pytest.mark.django_db(transaction=True)
@pytest.mark.asyncio
async def test_lifting_a_mute_opens_the_chat_of_the_open_table_at_once(start_table, moderator):
    match, users = await database_sync_to_async(start_table)("perudo", 2)
    socket, _ok = await connect(f"/ws/match/{match.pk}/", users[0], accept_language="fr")
    await receive_until(socket, "view")
    first = await database_sync_to_async(moderation.moderation_mute)(
        moderator=moderator, user=users[0], reason="spam", duration=timedelta(hours=24))
    second = await database_sync_to_async(moderation.moderation_mute)(
        moderator=moderator, user=users[0], reason="spam", duration=timedelta(days=7))
    for _mute in (first, second):
        assert (await receive_until(socket, "sanction"))["d"]["kind"] == "mute"
    await database_sync_to_async(moderation.moderation_lift)(moderator=moderator, sanction=second, reason="appeal")
    still = await receive_until(socket, "sanction")  # the other mute holds: its end, in the page's language
    assert still["d"]["id"] == first.pk and still["d"]["message"].startswith("Un modérateur")
    await database_sync_to_async(moderation.moderation_lift)(moderator=moderator, sanction=first, reason="appeal")
    assert (await receive_until(socket, "sanction_lifted"))["d"] == {"id": first.pk, "kind": "mute"}
    await socket.send_json_to({"t": "chat", "v": None, "d": {"text": "thank you"}})
    assert (await receive_until(socket, "chat"))["d"]["text"] == "thank you"
    await socket.disconnect()


def test_a_lift_tells_the_open_tables_only_once_it_commits(make_user, moderator, django_capture_on_commit_callbacks):
    player = make_user()
    mute = moderation.moderation_mute(moderator=moderator, user=player, reason="spam", duration=timedelta(hours=1))
    with django_capture_on_commit_callbacks() as callbacks:
        moderation.moderation_lift(moderator=moderator, sanction=mute, reason="appeal")
    assert callbacks  # the outbox sends the lift's message on commit, as it does the mute's


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
    with pytest.raises(moderation.Refused) as refused:
        moderation.moderation_abort_match(moderator=moderator, match=match, reason="again")
    assert refused.value.code == "match_over"


def test_every_action_needs_a_reason_and_the_audit_log_cannot_be_edited(make_user, moderator):
    with pytest.raises(moderation.ReasonRequired) as refused:
        moderation.moderation_warn(moderator=moderator, user=make_user(), reason=" ")
    assert refused.value.code == "reason_required" and not AuditEntry.objects.exists()
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


def test_a_socket_notice_speaks_the_pages_language_and_fits_a_close_frame(make_user, moderator):
    from moderation.notices import CLOSE_REASON_BYTES, close_reason, scope_language

    assert scope_language({"cookies": {"django_language": "it"}, "headers": []}) == "it"
    assert scope_language({"cookies": {}, "headers": [(b"accept-language", b"de-DE, fr-CH;q=0.9, en;q=0.5")]}) == "fr"
    assert scope_language({"headers": [(b"accept-language", b"xx")]}) == "en"
    player = make_user()
    sanction = moderation.moderation_suspend(moderator=moderator, user=player, reason="x", duration=timedelta(days=30))
    for language in ("en", "fr", "it"):
        with translation.override(language):
            reason = close_reason(sanction, ZoneInfo("America/Argentina/ComodRivadavia"))
        assert 0 < len(reason.encode()) <= CLOSE_REASON_BYTES and reason[:4] in {"Your", "Votr", "Il t"}
