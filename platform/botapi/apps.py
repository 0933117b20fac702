"""The Bot API's app: on start, it listens for finished matches (their post-game analysis), registers its system
check and tells the engine and the lobby which accounts are played by programs (its bot accounts)."""

from django.apps import AppConfig
from django.core import checks
from django.utils.translation import gettext_lazy as _


class BotApiConfig(AppConfig):
    name = "botapi"
    verbose_name = _("Bot API")
    default_auto_field = "django.db.models.BigAutoField"

    def ready(self) -> None:
        from botapi.accounts import is_bot_account
        from botapi.analysis.schedule import on_match_finished
        from botapi.checks import analysis_has_both_halves
        from turnengine.programs import install_program_check
        from turnengine.signals import match_finished

        match_finished.connect(on_match_finished, dispatch_uid="botapi.analysis")
        checks.register(analysis_has_both_halves)
        install_program_check(is_bot_account)
