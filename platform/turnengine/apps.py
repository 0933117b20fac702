"""The turn engine's app: on start, its Celery tasks are registered in every process."""

from django.apps import AppConfig
from django.utils.translation import gettext_lazy as _


class TurnEngineConfig(AppConfig):
    name = "turnengine"
    verbose_name = _("Turn engine")

    def ready(self) -> None:
        from turnengine import tasks  # noqa: F401  (registered with Celery in every process: turnengine.jobs)
