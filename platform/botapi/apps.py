from django.apps import AppConfig
from django.utils.translation import gettext_lazy as _


class BotApiConfig(AppConfig):
    name = "botapi"
    verbose_name = _("Bot API")
    default_auto_field = "django.db.models.BigAutoField"

    def ready(self) -> None:
        from botapi.analysis.schedule import on_match_finished
        from turnengine.signals import match_finished

        match_finished.connect(on_match_finished, dispatch_uid="botapi.analysis")
