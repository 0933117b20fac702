"""The alerts' app: "Your move" (the tables awaiting a player), turn e-mails and their preferences, vacation."""

from django.apps import AppConfig
from django.utils.translation import gettext_lazy as _


class AlertsConfig(AppConfig):
    name = "alerts"
    verbose_name = _("Alerts")
