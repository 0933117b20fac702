"""The Bot API's records: personal API tokens, bot accounts, tables that admit bot accounts, post-game analyses.

A token is shown once, when created: only its SHA-256 is stored (a token is 256 random bits, so a plain hash is
enough, as GitHub and Lichess do; a slow password hash would only slow every request). Its first characters are
kept in clear so the owner can tell tokens apart.
"""

from __future__ import annotations

import hashlib

from django.conf import settings
from django.db import models
from django.utils.translation import gettext_lazy as _

from turnengine.models import Match

SCOPE_PLAY = "play"
SCOPE_READ = "read"
SCOPES = {
    SCOPE_READ: _("Read: your account, tables, game states and the event stream"),
    SCOPE_PLAY: _("Play: open, join and start tables, and move"),
}
TOKEN_PREFIX = "tpt_"


def token_digest(raw: str) -> str:
    return hashlib.sha256(raw.encode()).hexdigest()


class ApiToken(models.Model):
    user = models.ForeignKey(
        settings.AUTH_USER_MODEL, on_delete=models.CASCADE, related_name="api_tokens", verbose_name=_("owner")
    )
    name = models.CharField(_("name"), max_length=60)
    digest = models.CharField(_("SHA-256 of the token"), max_length=64, unique=True, editable=False)
    hint = models.CharField(_("first characters"), max_length=12, editable=False)
    scopes = models.JSONField(_("scopes"), default=list)
    created_at = models.DateTimeField(_("created"), auto_now_add=True)
    last_used_at = models.DateTimeField(_("last used"), null=True, blank=True)
    revoked_at = models.DateTimeField(_("revoked"), null=True, blank=True)

    class Meta:
        verbose_name = _("API token")
        verbose_name_plural = _("API tokens")
        ordering = ["-created_at", "-pk"]

    def __str__(self) -> str:
        # ninja's AuthRateThrottle keys its counter on str(request.auth): one counter per token.
        return f"api-token-{self.pk}"

    def has_scope(self, scope: str) -> bool:
        return scope in self.scopes

    @property
    def socket_group(self) -> str:
        """The channel-layer group of every websocket opened with this token (``realtime.sockets`` joins it): a
        revocation closes them all, in every process."""
        return f"api-token.{self.pk}"

    def still_live(self) -> bool:
        """Read again from the database: the token is not revoked now (a socket asks once it has joined its group,
        so a revocation landing during its handshake still closes it)."""
        return type(self).objects.filter(pk=self.pk, revoked_at__isnull=True).exists()


class BotAccount(models.Model):
    """An account its owner turned into a bot account (for ever). The site's own computer players are bots too
    (``User.is_bot``) but have no row here: the engine plays them; a bot account is played by its owner's program."""

    user = models.OneToOneField(
        settings.AUTH_USER_MODEL,
        on_delete=models.CASCADE,
        primary_key=True,
        related_name="bot_account",
        verbose_name=_("account"),
    )
    converted_at = models.DateTimeField(_("became a bot"), auto_now_add=True)

    class Meta:
        verbose_name = _("bot account")
        verbose_name_plural = _("bot accounts")

    def __str__(self) -> str:
        return str(self.user)


class Analysis(models.Model):
    """The post-game analysis of a finished match, computed once from its published log and seed."""

    match = models.OneToOneField(
        Match, on_delete=models.CASCADE, primary_key=True, related_name="analysis", verbose_name=_("match")
    )
    data = models.JSONField(_("analysis"))
    computed_at = models.DateTimeField(_("computed"), auto_now=True)

    class Meta:
        verbose_name = _("post-game analysis")
        verbose_name_plural = _("post-game analyses")

    def __str__(self) -> str:
        return str(self.match)
