from django.apps import AppConfig
from django.utils.translation import gettext_lazy as _


class TurnEngineConfig(AppConfig):
    name = "turnengine"
    verbose_name = _("Turn engine")

    def ready(self) -> None:
        from turnengine import broadcast, outbox, tasks  # noqa: F401  (tasks: registered with Celery in every process)

        outbox.install_sender(broadcast.broadcast_sync)  # the engine's writers know no transport
