"""Periodic tasks of the accounts app (scheduled by Celery beat, ``CELERY_BEAT_SCHEDULE`` in settings)."""

from celery import shared_task

from accounts.guests import guests_cleanup


@shared_task
def cleanup_guests() -> dict[str, int]:
    """Remove guest accounts abandoned for longer than ``TAPETE_GUEST_TTL_SECONDS``."""
    return guests_cleanup()
