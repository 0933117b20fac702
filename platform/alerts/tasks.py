"""The turn e-mails' Celery tasks, on the bulk queue (``CELERY_TASK_ROUTES``): beat looks for the players due an
e-mail or a reminder every ``TAPETE_ALERTS_SECONDS`` and queues one task per player, retried when the mail server
fails. Never run from a request or a move."""

from smtplib import SMTPException

from celery import shared_task

from alerts import mail

RETRIED = {"autoretry_for": (SMTPException, OSError), "retry_backoff": 30, "max_retries": 6}


@shared_task
def mail_due_turns() -> int:
    """Queue an e-mail for each player due one; returns how many."""
    players = mail.due_players()
    for user_id in players:
        send_turn_mail.delay(user_id)
    return len(players)


@shared_task(**RETRIED)
def send_turn_mail(user_id: int) -> int:
    return mail.send_turns(user_id)


@shared_task
def remind_deadlines() -> int:
    """Queue a reminder for each player with a turn-based turn past the reminder share; returns how many."""
    due = mail.due_reminders()
    for user_id, turn_ids in due.items():
        send_reminder.delay(user_id, turn_ids)
    return len(due)


@shared_task(**RETRIED)
def send_reminder(user_id: int, turn_ids: list[int]) -> int:
    return mail.send_reminder(user_id, turn_ids)
