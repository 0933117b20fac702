"""The social app: on start, the engine's seats are given the block check (a table's creator who blocked a player
refuses them a seat, ``turnengine.seat_blocks``), and moderators may read follows, friendships, blocks and
invitations in admin."""

from django.apps import AppConfig
from django.db.models.signals import post_migrate
from django.utils.translation import gettext_lazy as _


class SocialConfig(AppConfig):
    name = "social"
    verbose_name = _("Friends and invitations")

    def ready(self) -> None:
        from social import admin  # noqa: F401  (it registers its pages)
        from social.blocks import blocks
        from social.moderators import grant_moderators
        from turnengine import seat_blocks

        seat_blocks.install_block_check(blocks)
        post_migrate.connect(grant_moderators, sender=self)
