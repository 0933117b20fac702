"""The social app: on start, the engine's seats are given the block check (a table's creator who blocked a player
refuses them a seat, ``turnengine.seat_blocks``) and its chat whose lines each reader never receives (whom they
blocked, ``turnengine.chat``), its presence the social rows to forget with a dead server's life
(``social.presence``); moderators may read follows, friendships, blocks and invitations in admin."""

from django.apps import AppConfig
from django.db.models.signals import post_migrate
from django.utils.translation import gettext_lazy as _


class SocialConfig(AppConfig):
    name = "social"
    verbose_name = _("Friends and invitations")

    def ready(self) -> None:
        from social import admin  # noqa: F401  (it registers its pages)
        from social.blocks import blocked_ids, blocks
        from social.moderators import grant_moderators
        from social.presence import forget_dead_lives
        from turnengine import chat, presence, seat_blocks

        seat_blocks.install_block_check(blocks)
        chat.install_hidden_authors(blocked_ids)
        presence.install_lives_gone(forget_dead_lives)
        post_migrate.connect(grant_moderators, sender=self)
