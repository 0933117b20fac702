"""The Celery application: configured from Django settings (``CELERY_*``), tasks found in the installed apps."""

import os

from celery import Celery

os.environ.setdefault("DJANGO_SETTINGS_MODULE", "tapete.settings")

app = Celery("tapete")
app.config_from_object("django.conf:settings", namespace="CELERY")
app.autodiscover_tasks()
