from django.apps import AppConfig
from django.utils.translation import gettext_lazy as _


class BotApiConfig(AppConfig):
    name = "botapi"
    verbose_name = _("Bot API")
    default_auto_field = "django.db.models.BigAutoField"
