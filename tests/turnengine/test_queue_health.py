"""Celery's queues: latency-critical tasks and bulk work are routed apart (docs/deploy-queues.md), and the health
check (``manage.py queue_health``, ``/internal/health/``) reports beat's last sweep and each queue's age."""

from __future__ import annotations

import json
from datetime import timedelta

import pytest
from django.core.management import call_command
from django.utils import timezone

from tapete.celery import app
from turnengine import tasks
from turnengine.models import QueueProbe

pytestmark = pytest.mark.django_db


@pytest.mark.parametrize(
    ("task", "queue"),
    [
        ("turnengine.tasks.match_deadline", "play"),
        ("turnengine.tasks.bot_move", "play"),
        ("turnengine.tasks.sweep_deadlines", "play"),
        ("botapi.tasks.analyse_match", "bulk"),
        ("accounts.tasks.cleanup_guests", "bulk"),
    ],
)
def test_deadlines_and_moves_go_to_the_play_queue_and_analyses_to_bulk(settings, task, queue):
    assert app.amqp.router.route({}, task)["queue"].name == settings.TAPETE_QUEUES[queue]


def test_beat_probes_the_bulk_queue_on_the_bulk_queue(settings):
    entry = settings.CELERY_BEAT_SCHEDULE["probe-bulk"]
    assert entry["options"]["queue"] == settings.TAPETE_QUEUES["bulk"]
    assert entry["schedule"] == settings.TAPETE_SWEEP_SECONDS


def _report(client) -> tuple[int, dict]:
    response = client.get("/internal/health/")
    return response.status_code, response.json()


def test_the_health_check_is_late_until_both_probes_ran_then_healthy(client, settings):
    status, report = _report(client)
    assert status == 503 and report["last_sweep_at"] is None
    assert {queue["queue"]: queue["late"] for queue in report["queues"]} == {"play": True, "bulk": True}
    tasks.sweep_deadlines()  # the sweeper records the play queue's probe (beat's last sweep)
    tasks.queue_probe("bulk")
    status, report = _report(client)
    assert status == 200 and report["healthy"] and report["last_sweep_at"] is not None
    assert all(queue["age_seconds"] < 5 for queue in report["queues"])


def test_a_queue_whose_probe_stopped_is_late_and_the_command_fails(client, settings, capsys):
    now = timezone.now()
    late = now - timedelta(seconds=4 * settings.TAPETE_SWEEP_SECONDS)
    QueueProbe.objects.create(queue="play", ran_at=now)
    QueueProbe.objects.create(queue="bulk", ran_at=late)  # analyses saturate the bulk workers, or they are gone
    status, report = _report(client)
    assert status == 503
    assert {queue["queue"]: queue["late"] for queue in report["queues"]} == {"play": False, "bulk": True}
    with pytest.raises(SystemExit) as exited:
        call_command("queue_health", "--json")
    assert exited.value.code == 1
    assert json.loads(capsys.readouterr().out)["healthy"] is False
