"""The alerts' app: "Your move" (the tables awaiting a player), turn e-mails and their preferences, vacation."""

from django.apps import AppConfig
from django.utils.translation import gettext_lazy as _


class AlertsConfig(AppConfig):
    name = "alerts"
    verbose_name = _("Alerts")

    def ready(self) -> None:
        from django.contrib.auth.signals import user_logged_in

        from alerts.preferences import remember_language

        # A player's e-mails go out in the language they last logged in with.
        user_logged_in.connect(remember_language, dispatch_uid="alerts.remember_language")
