"""Turn e-mails (Django's in-memory backend): sent once after the delay, batched per period, a digest a day, the
signed one-click unsubscribe link without logging in, preferences, reminders at the share of a turn, and the
Celery tasks on the bulk queue."""

import re
from datetime import timedelta

import pytest
from django.core import mail as outbox
from django.urls import reverse
from django.utils import timezone, translation
from django.utils.translation import ngettext

from alerts import mail, tasks
from alerts.models import AlertSettings
from alerts.preferences import unsubscribe_token
from turnengine.models import AwaitedTurn

pytestmark = pytest.mark.django_db(transaction=True)


@pytest.fixture(autouse=True)
def no_delay(settings):
    settings.TAPETE_TURN_MAIL_DELAY_SECONDS = 0
    settings.TAPETE_SITE_URL = "https://tapete.example"


@pytest.fixture
def eager(monkeypatch):
    """The per-player tasks that beat's tasks queue run at once, in this process (as a bulk worker would)."""
    for task in (tasks.send_turn_mail, tasks.send_reminder):
        monkeypatch.setattr(task, "delay", lambda *args, task=task: task.apply(args))


def awaited_player(start_table):
    match, users = start_table("tictactoe", 2, time_control="daily")
    seat = min(match.rules.awaited(match.state))
    return match, users[seat]


def test_a_turn_e_mail_is_sent_once_and_its_link_unsubscribes_without_logging_in(start_table, client, eager):
    match, player = awaited_player(start_table)
    assert tasks.mail_due_turns.apply().get() == 1
    assert len(outbox.outbox) == 1
    message = outbox.outbox[0]
    assert message.to == [player.email]
    assert "waiting for your move" in message.subject
    assert f"https://tapete.example/table/{match.pk}/" in message.body
    unsubscribe = re.search(r"https://tapete\.example(/unsubscribe/[^/\s]+/)", message.body)
    assert unsubscribe and message.extra_headers["List-Unsubscribe"] == f"<{unsubscribe[0]}>"
    assert AwaitedTurn.objects.get(match=match).mailed

    # Once: the next rounds find nothing new to say.
    assert tasks.mail_due_turns.apply().get() == 0
    assert len(outbox.outbox) == 1

    # The link works for anyone who has it, logged in or not (its page asks first: tests/alerts/test_unsubscribe.py;
    # here a mail program's one-click POST); a forged one changes nothing.
    forged = client.post(
        reverse("alerts:unsubscribe", args=[unsubscribe_token(player) + "x"]), {"List-Unsubscribe": "One-Click"}
    )
    assert forged.status_code == 400
    assert client.get(unsubscribe[1]).status_code == 200
    assert AlertSettings.objects.get(user=player).mail == AlertSettings.Mail.IMMEDIATE
    assert client.post(unsubscribe[1], {"List-Unsubscribe": "One-Click"}).status_code == 200
    assert AlertSettings.objects.get(user=player).mail == AlertSettings.Mail.OFF
    AwaitedTurn.objects.filter(match=match).update(mailed=False)
    assert mail.due_players() == []


def test_at_most_one_e_mail_per_period_naming_every_table(three_tables, settings):
    player, tables = three_tables()
    AwaitedTurn.objects.exclude(match=tables[0][0]).delete()  # only the first table awaits them at first
    assert mail.send_turns(player.pk) == 1
    # Two more tables start waiting within the hour: no e-mail until the period has passed, then one naming all.
    for match, users in tables[1:]:
        AwaitedTurn.objects.create(match=match, seat=users.index(player), user=player, since=timezone.now())
    assert mail.due_players() == []
    later = timezone.now() + timedelta(seconds=settings.TAPETE_TURN_MAIL_PERIOD_SECONDS + 1)
    assert mail.due_players(later) == [player.pk]
    assert mail.send_turns(player.pk, now=later) == 3
    assert len(outbox.outbox) == 2 and "3 tables" in outbox.outbox[1].subject


def test_the_delay_the_digest_and_no_address(start_table, settings):
    settings.TAPETE_TURN_MAIL_DELAY_SECONDS = 900
    match, player = awaited_player(start_table)
    now = timezone.now()
    assert mail.due_players(now) == []  # not yet: the player may be at the table already
    assert mail.due_players(now + timedelta(seconds=901)) == [player.pk]

    AlertSettings.objects.create(user=player, mail=AlertSettings.Mail.DIGEST, last_mailed_at=now)
    assert mail.due_players(now + timedelta(hours=2)) == []
    assert mail.due_players(now + timedelta(hours=24, seconds=1)) == [player.pk]

    type(player).objects.filter(pk=player.pk).update(email="")
    assert mail.due_players(now + timedelta(days=2)) == []


def test_the_settings_page_saves_the_preference(start_table, client, make_user):
    player = make_user()
    client.force_login(player)
    page = client.get(reverse("alerts:settings"))
    assert page.status_code == 200
    assert client.post(reverse("alerts:settings"), {"mail": "digest"}).status_code == 302
    assert AlertSettings.objects.get(user=player).mail == "digest"
    assert (
        client.post(reverse("alerts:settings"), {"mail": "sometimes"}).status_code == 200
    )  # refused, unchanged
    assert AlertSettings.objects.get(user=player).mail == "digest"


def test_a_reminder_at_three_quarters_of_the_turn_once(start_table, eager):
    match, player = awaited_player(start_table)
    turn = AwaitedTurn.objects.get(match=match)
    assert mail.due_reminders() == {}
    three_quarters = turn.since + (turn.deadline_at - turn.since) * 0.75 + timedelta(seconds=1)
    assert mail.due_reminders(three_quarters) == {player.pk: [turn.pk]}
    assert mail.send_reminder(player.pk, [turn.pk]) == 1
    assert "soon" in outbox.outbox[-1].subject
    assert mail.due_reminders(three_quarters) == {}
    assert mail.send_reminder(player.pk, [turn.pk]) == 0


def test_the_tasks_go_to_the_bulk_queue(settings):
    routes = settings.CELERY_TASK_ROUTES
    assert routes["alerts.tasks.*"]["queue"] == settings.TAPETE_QUEUES["bulk"]
    beat = {entry["task"] for entry in settings.CELERY_BEAT_SCHEDULE.values()}
    assert {"alerts.tasks.mail_due_turns", "alerts.tasks.remind_deadlines"} <= beat


def test_the_e_mail_is_written_in_the_language_the_player_last_logged_in_with(start_table, client, eager):
    match, player = awaited_player(start_table)
    player.set_password("a long enough password 1")
    player.save()
    client.cookies["django_language"] = "it"
    assert client.post(
        reverse("login"), {"username": player.username, "password": "a long enough password 1"}
    ).status_code == 302
    assert AlertSettings.objects.get(user=player).language == "it"
    assert tasks.mail_due_turns.apply().get() == 1
    message = outbox.outbox[0]
    assert "waiting for your move" not in message.subject
    with translation.override("it"):
        italian = ngettext(
            "Tapete: a table is waiting for your move", "Tapete: %(count)d tables are waiting for your move", 1
        )
    assert message.subject == italian and italian != "Tapete: a table is waiting for your move"
