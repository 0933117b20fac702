"""The turn engine's app: on start, its Celery tasks are registered in every process and the installed games with
the SDK's registry (``turnengine.game_app``)."""

from django.apps import AppConfig
from django.utils.translation import gettext_lazy as _


class TurnEngineConfig(AppConfig):
    name = "turnengine"
    verbose_name = _("Turn engine")

    def ready(self) -> None:
        from turnengine import game_app, tasks  # noqa: F401  (tasks: registered with Celery in every process)

        game_app.register_installed_games()
