"""A player's alert preferences (turn e-mails: off, as they come, or a daily digest) and when they were last
e-mailed, and their vacations (``alerts.vacation``)."""

from django.conf import settings
from django.db import models
from django.utils.translation import gettext_lazy as _


class AlertSettings(models.Model):
    class Mail(models.TextChoices):
        OFF = "off", _("No e-mail")
        IMMEDIATE = "immediate", _("An e-mail when a table waits for me")
        DIGEST = "digest", _("One e-mail a day, listing the tables waiting for me")

    user = models.OneToOneField(
        settings.AUTH_USER_MODEL,
        on_delete=models.CASCADE,
        primary_key=True,
        related_name="alert_settings",
        verbose_name=_("player"),
    )
    mail = models.CharField(_("turn e-mails"), max_length=16, choices=Mail, default=Mail.IMMEDIATE)
    last_mailed_at = models.DateTimeField(_("last e-mailed"), null=True, blank=True)
    # The language the player last logged in with (alerts.apps): their e-mails are written in it.
    language = models.CharField(_("language"), max_length=16, blank=True, default="")

    class Meta:
        verbose_name = _("alert settings")
        verbose_name_plural = _("alert settings")

    def __str__(self) -> str:
        return f"{self.user_id}: {self.mail}"


class Vacation(models.Model):
    """A player's vacation: their turn-based clocks do not run from ``starts_at`` to ``ends_at`` (moved to the
    moment they come back early)."""

    user = models.ForeignKey(
        settings.AUTH_USER_MODEL, on_delete=models.CASCADE, related_name="vacations", verbose_name=_("player")
    )
    starts_at = models.DateTimeField(_("starts"))
    ends_at = models.DateTimeField(_("ends"))

    class Meta:
        verbose_name = _("vacation")
        verbose_name_plural = _("vacations")
        ordering = ["user", "-starts_at"]

    def __str__(self) -> str:
        return f"{self.user_id}: {self.starts_at:%Y-%m-%d} to {self.ends_at:%Y-%m-%d}"
