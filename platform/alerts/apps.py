"""The alerts' app: "Your move" (the tables awaiting a player), turn e-mails and their preferences, vacation. On
start it gives the engine the look-up of who is on vacation at a table that starts (``turnengine.vacations``)."""

from django.apps import AppConfig
from django.utils.translation import gettext_lazy as _


class AlertsConfig(AppConfig):
    name = "alerts"
    verbose_name = _("Alerts")

    def ready(self) -> None:
        from django.contrib.auth.signals import user_logged_in

        from alerts.preferences import remember_language
        from alerts.vacation import away_at_table
        from turnengine import vacations

        # A player's e-mails go out in the language they last logged in with.
        user_logged_in.connect(remember_language, dispatch_uid="alerts.remember_language")
        # A turn-based table that starts while a seated player is on vacation starts with their clock paused.
        vacations.install_away_lookup(away_at_table)
