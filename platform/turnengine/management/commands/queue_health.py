"""``manage.py queue_health``: beat's last sweep and each Celery queue's age and waiting messages; exits 1 when
one is late (``turnengine.queue_health``), so that a monitor can run it."""

import json
import sys

from django.core.management.base import BaseCommand

from turnengine.queue_health import queue_report


class Command(BaseCommand):
    help = "Report Celery beat's last sweep and each queue's age; exit 1 if late."

    def add_arguments(self, parser):
        parser.add_argument("--json", action="store_true", help="print the report as JSON")

    def handle(self, *args, **options):
        report = queue_report()
        if options["json"]:
            self.stdout.write(json.dumps(report))
        else:
            self.stdout.write(f"last sweep: {report['last_sweep_at'] or 'never'}")
            for queue in report["queues"]:
                age = "never ran" if queue["age_seconds"] is None else f"{queue['age_seconds']:.0f} s ago"
                waiting = "unknown" if queue["waiting"] is None else queue["waiting"]
                flag = " LATE" if queue["late"] else ""
                self.stdout.write(f"queue {queue['queue']}: probe {age}, {waiting} waiting{flag}")
        if not report["healthy"]:
            sys.exit(1)
