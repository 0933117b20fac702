"""The turn engine's app: on start, its Celery tasks are registered in every process and the installed games with
the SDK's registry (``turnengine.game_app``), and a Celery worker that serves the "play" queue starts its watch on
beat (``turnengine.beat_watch``)."""

from django.apps import AppConfig
from django.utils.translation import gettext_lazy as _


class TurnEngineConfig(AppConfig):
    name = "turnengine"
    verbose_name = _("Turn engine")

    def ready(self) -> None:
        from celery.signals import worker_ready, worker_shutdown

        from turnengine import game_app, tasks  # noqa: F401  (tasks: registered with Celery in every process)
        from turnengine.beat_watch import start_watch, stop_watch

        game_app.register_installed_games()
        worker_ready.connect(start_watch, weak=False)
        worker_shutdown.connect(stop_watch, weak=False)
