"""The tournaments app: on start, it listens for finished tables (``tournaments.schedule``), gives the Moderators
group the right to see tournaments after each migration, adds its moderator actions (disqualify, cancel) to the
moderators' confirmation page (``tournaments.moderation``), and tells the guest clean-up to keep tournament tables
(the standings are made of them; a guest who played one is deactivated instead of deleted)."""

from django.apps import AppConfig
from django.db.models.signals import post_migrate
from django.utils.translation import gettext_lazy as _


class TournamentsConfig(AppConfig):
    name = "tournaments"
    verbose_name = _("Tournaments")
    default_auto_field = "django.db.models.BigAutoField"

    def ready(self) -> None:
        from django.db.models import Q

        from accounts import guests
        from tournaments.moderation import grant_moderators, register_actions
        from tournaments.schedule import on_match_finished
        from turnengine.signals import match_finished

        match_finished.connect(on_match_finished, dispatch_uid="tournaments.finish")
        post_migrate.connect(grant_moderators, sender=self)
        register_actions()
        guests.install_evidence(lambda: Q(tournament_table__isnull=False))
