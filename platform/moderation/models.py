"""Reports from players, sanctions, the moderators' audit log, personal chat mutes and same-network notices."""

from django.conf import settings
from django.db import models
from django.utils import timezone
from django.utils.translation import gettext_lazy as _


class Report(models.Model):
    class Reason(models.TextChoices):
        CHEATING = "cheating", _("Cheating or collusion")
        ABUSE = "abuse", _("Abusive language")
        SPAM = "spam", _("Spam or advertising")
        STALLING = "stalling", _("Stalling or leaving on purpose")
        OTHER = "other", _("Something else")

    class Status(models.TextChoices):
        OPEN = "open", _("Open")
        RESOLVED = "resolved", _("Resolved")
        DISMISSED = "dismissed", _("Dismissed")

    reporter = models.ForeignKey(
        settings.AUTH_USER_MODEL,
        on_delete=models.PROTECT,
        related_name="reports_made",
        verbose_name=_("reporter"),
    )
    reported = models.ForeignKey(
        settings.AUTH_USER_MODEL,
        on_delete=models.PROTECT,
        related_name="reports_received",
        verbose_name=_("reported player"),
    )
    reason = models.CharField(_("reason"), max_length=16, choices=Reason)
    comment = models.TextField(_("comment"), blank=True, max_length=2000)
    match = models.ForeignKey(
        "turnengine.Match", null=True, blank=True, on_delete=models.SET_NULL, verbose_name=_("match")
    )
    move = models.PositiveIntegerField(_("move (version)"), null=True, blank=True)
    chat_messages = models.ManyToManyField("turnengine.ChatMessage", blank=True, verbose_name=_("chat lines"))
    status = models.CharField(_("status"), max_length=16, choices=Status, default=Status.OPEN, db_index=True)
    created_at = models.DateTimeField(_("reported"), auto_now_add=True, db_index=True)
    handled_by = models.ForeignKey(
        settings.AUTH_USER_MODEL,
        null=True,
        blank=True,
        on_delete=models.PROTECT,
        related_name="reports_handled",
        verbose_name=_("handled by"),
    )
    handled_at = models.DateTimeField(_("handled"), null=True, blank=True)

    class Meta:
        verbose_name = _("report")
        verbose_name_plural = _("reports")
        ordering = ["-created_at"]

    def __str__(self) -> str:
        return f"{self.reported} ({self.get_reason_display()}) by {self.reporter}"


class PresetReason(models.TextChoices):
    """The reasons a moderator picks from a list. A sanction stores the key, so that each player reads it in their
    own language (``Sanction.told_reason``), whatever the moderator's."""

    ABUSE = "abuse", _("Abusive or insulting language in chat.")
    CHEATING = "cheating", _("Cheating or collusion with another player.")
    SPAM = "spam", _("Spam or advertising in chat.")
    STALLING = "stalling", _("Stalling or leaving games on purpose.")
    NAME = "name", _("An offensive user name.")


class Sanction(models.Model):
    class Kind(models.TextChoices):
        WARNING = "warning", _("Warning")
        MUTE = "mute", _("Muted in chat")
        SUSPENSION = "suspension", _("Suspended")
        BAN = "ban", _("Banned")

    user = models.ForeignKey(
        settings.AUTH_USER_MODEL, on_delete=models.PROTECT, related_name="sanctions", verbose_name=_("player")
    )
    kind = models.CharField(_("kind"), max_length=16, choices=Kind)
    reason = models.TextField(_("reason"), help_text=_("The moderators' reason, kept in the audit log."))
    preset = models.CharField(
        _("preset reason"), max_length=16, choices=PresetReason, blank=True,
        help_text=_("Shown to the player in their own language."),
    )
    public_reason = models.TextField(
        _("free text shown to the player"), blank=True, help_text=_("Shown after the preset reason, as written."),
    )
    report = models.ForeignKey(
        Report,
        null=True,
        blank=True,
        on_delete=models.SET_NULL,
        related_name="sanctions",
        verbose_name=_("report"),
    )
    acknowledged_at = models.DateTimeField(
        _("acknowledged"), null=True, blank=True, help_text=_("When the player confirmed reading a warning.")
    )
    starts_at = models.DateTimeField(_("from"), default=timezone.now)
    ends_at = models.DateTimeField(_("until"), null=True, blank=True, help_text=_("Empty: no end (bans)."))
    by = models.ForeignKey(
        settings.AUTH_USER_MODEL,
        on_delete=models.PROTECT,
        related_name="sanctions_given",
        verbose_name=_("by"),
    )
    lifted_at = models.DateTimeField(_("lifted"), null=True, blank=True)

    class Meta:
        verbose_name = _("sanction")
        verbose_name_plural = _("sanctions")
        ordering = ["-starts_at"]

    def __str__(self) -> str:
        return f"{self.get_kind_display()}: {self.user}"

    def told_reason(self) -> str:
        """What the player is told of the reason, in the active language (empty: no reason is told)."""
        return " ".join(part for part in (self.get_preset_display() if self.preset else "", self.public_reason)
                        if part)


class AuditEntry(models.Model):
    """Who did what to whom, when and why. Written by the moderation services only; nobody edits it."""

    class Action(models.TextChoices):
        WARNING = "warning", _("Warned")
        MUTE = "mute", _("Muted in chat")
        SUSPENSION = "suspension", _("Suspended")
        BAN = "ban", _("Banned")
        LIFT = "lift", _("Lifted a sanction")
        HIDE_MESSAGE = "hide_message", _("Hid a chat line")
        ABORT_MATCH = "abort_match", _("Aborted a match")
        REVERSE_RATINGS = "reverse_ratings", _("Reversed a match's ratings")
        REPORT_RESOLVED = "report_resolved", _("Resolved a report")
        REPORT_DISMISSED = "report_dismissed", _("Dismissed a report")
        NOTE = "note", _("Wrote a note")
        DISQUALIFY = "disqualify", _("Disqualified a player from a tournament")
        CANCEL_TOURNAMENT = "cancel_tournament", _("Cancelled a tournament")

    moderator = models.ForeignKey(
        settings.AUTH_USER_MODEL, on_delete=models.PROTECT, related_name="+", verbose_name=_("moderator")
    )
    action = models.CharField(_("action"), max_length=32, choices=Action)
    target_user = models.ForeignKey(
        settings.AUTH_USER_MODEL,
        null=True,
        blank=True,
        on_delete=models.PROTECT,
        related_name="+",
        verbose_name=_("player"),
    )
    match = models.ForeignKey(
        "turnengine.Match",
        null=True,
        blank=True,
        on_delete=models.PROTECT,
        related_name="+",
        verbose_name=_("match"),
    )
    detail = models.JSONField(_("detail"), default=dict)
    reason = models.TextField(_("reason"))
    created_at = models.DateTimeField(_("time"), auto_now_add=True, db_index=True)

    class Meta:
        verbose_name = _("audit entry")
        verbose_name_plural = _("audit log")
        ordering = ["-created_at"]

    def __str__(self) -> str:
        return f"{self.created_at:%Y-%m-%d %H:%M} {self.moderator}: {self.action}"

    def save(self, *args, **kwargs):
        if not self._state.adding:
            raise PermissionError("the audit log is append-only")
        super().save(*args, **kwargs)

    def delete(self, *args, **kwargs):
        raise PermissionError("the audit log is append-only")


class ModeratorNote(models.Model):
    """A note about a player, for moderators only (never shown to the player); adding one is audited."""

    user = models.ForeignKey(
        settings.AUTH_USER_MODEL,
        on_delete=models.PROTECT,
        related_name="moderator_notes",
        verbose_name=_("player"),
    )
    by = models.ForeignKey(
        settings.AUTH_USER_MODEL, on_delete=models.PROTECT, related_name="+", verbose_name=_("by")
    )
    text = models.TextField(_("note"), max_length=2000)
    created_at = models.DateTimeField(_("written"), auto_now_add=True)

    class Meta:
        verbose_name = _("moderator note")
        verbose_name_plural = _("moderator notes")
        ordering = ["-created_at"]

    def __str__(self) -> str:
        return f"{self.user}: {self.text[:40]}"


class ChatMute(models.Model):
    """A player's personal choice not to see another player's chat."""

    user = models.ForeignKey(settings.AUTH_USER_MODEL, on_delete=models.CASCADE, related_name="chat_mutes")
    muted = models.ForeignKey(settings.AUTH_USER_MODEL, on_delete=models.CASCADE, related_name="+")

    class Meta:
        constraints = [models.UniqueConstraint(fields=["user", "muted"], name="mute_once")]

    def __str__(self) -> str:
        return f"{self.user} mutes {self.muted}"


class NetworkNotice(models.Model):
    """Accounts that sat at the same ranked table from the same IP address: a hint of collusion for moderators."""

    match = models.ForeignKey(
        "turnengine.Match", on_delete=models.CASCADE, related_name="network_notices", verbose_name=_("match")
    )
    ip_address = models.GenericIPAddressField(_("IP address"))
    usernames = models.JSONField(_("players"), default=list)
    created_at = models.DateTimeField(_("seen"), auto_now_add=True)

    class Meta:
        verbose_name = _("same-network notice")
        verbose_name_plural = _("same-network notices")
        constraints = [models.UniqueConstraint(fields=["match", "ip_address"], name="one_notice_per_ip")]

    def __str__(self) -> str:
        return f"{self.match}: {', '.join(self.usernames)} from {self.ip_address}"
