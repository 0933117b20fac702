"""The moderation app: on start, the moderators' group is kept up to date after each migration, the engine's chat
is given the mute check, the log-in form the reason a suspended or banned player is refused, the guest clean-up
the matches moderation keeps as evidence, and the admin its moderators' pages of the other apps' models: accounts
(``admin_users``), ratings (``admin_ratings``) and matches (``admin_matches``), each with the actions of
``moderation.admin_actions``."""

from django.apps import AppConfig
from django.db.models.signals import post_migrate
from django.utils.translation import gettext_lazy as _


class ModerationConfig(AppConfig):
    name = "moderation"
    verbose_name = _("Moderation")

    def ready(self) -> None:
        from accounts import guests, login
        from moderation import admin_matches, admin_ratings, admin_users  # noqa: F401  (they register their pages)
        from moderation.evidence import evidence_of_matches
        from moderation.groups import ensure_moderators_group
        from moderation.notices import lockout_reason, mute_reason
        from turnengine import chat

        post_migrate.connect(ensure_moderators_group, sender=self)
        chat.install_mute_check(mute_reason)  # the engine's table chat refuses muted players
        login.install_refusal_reason(lockout_reason)  # the log-in page says why a sanctioned player is refused
        guests.install_evidence(evidence_of_matches)  # the guest clean-up keeps what reports and the audit log need
