"""The moderation app: on start, the moderators' group is kept up to date after each migration and the engine's chat
is given the mute check."""

from django.apps import AppConfig
from django.db.models.signals import post_migrate
from django.utils.translation import gettext_lazy as _


class ModerationConfig(AppConfig):
    name = "moderation"
    verbose_name = _("Moderation")

    def ready(self) -> None:
        from moderation.groups import ensure_moderators_group
        from moderation.notices import mute_reason
        from turnengine import chat

        post_migrate.connect(ensure_moderators_group, sender=self)
        chat.install_mute_check(mute_reason)  # the engine's table chat refuses muted players
