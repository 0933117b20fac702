"""The Django project package of Tapete: settings, URLs, the ASGI entry point and the Celery app."""

from tapete.celery import app as celery_app

__all__ = ["celery_app"]
