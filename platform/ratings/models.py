"""Ratings per user, game and pool; one history row per rated player and match; audited reversals; playbans."""

from django.conf import settings
from django.db import models
from django.utils.translation import gettext_lazy as _

from ratings.elo import INITIAL_RATING, PROVISIONAL_GAMES


class Rating(models.Model):
    user = models.ForeignKey(
        settings.AUTH_USER_MODEL, on_delete=models.CASCADE, related_name="ratings", verbose_name=_("player")
    )
    game = models.CharField(_("game"), max_length=32)
    pool = models.CharField(_("pool"), max_length=32)
    rating = models.FloatField(_("rating"), default=INITIAL_RATING)
    games = models.PositiveIntegerField(_("rated games"), default=0)
    updated_at = models.DateTimeField(_("updated"), auto_now=True)

    class Meta:
        verbose_name = _("rating")
        verbose_name_plural = _("ratings")
        constraints = [models.UniqueConstraint(fields=["user", "game", "pool"], name="one_rating_per_pool")]
        indexes = [models.Index(fields=["game", "pool", "-rating"])]

    def __str__(self) -> str:
        return f"{self.user} {self.game}/{self.pool}: {self.display}"

    @property
    def provisional(self) -> bool:
        return self.games < PROVISIONAL_GAMES

    @property
    def display(self) -> int:
        return round(self.rating)


class RatingChange(models.Model):
    """The audit trail: what a match did to one player's rating. Never edited; a reversal marks it."""

    match = models.ForeignKey(
        "turnengine.Match", on_delete=models.PROTECT, related_name="rating_changes", verbose_name=_("match")
    )
    user = models.ForeignKey(settings.AUTH_USER_MODEL, on_delete=models.PROTECT, verbose_name=_("player"))
    game = models.CharField(_("game"), max_length=32)
    pool = models.CharField(_("pool"), max_length=32)
    before = models.FloatField(_("before"))
    after = models.FloatField(_("after"))
    delta = models.FloatField(_("change"))
    opponents = models.JSONField(
        _("opponents"), default=list, help_text=_("Each opponent's name and rating.")
    )
    abandoned = models.BooleanField(_("abandoned"), default=False)
    counted_game = models.BooleanField(
        _("counted as a rated game"),
        default=True,
        help_text=_("Whether the match added one to the player's rated games (not for an unrated seat)."),
    )
    created_at = models.DateTimeField(_("time"), auto_now_add=True, db_index=True)
    reversed_at = models.DateTimeField(_("reversed"), null=True, blank=True)

    class Meta:
        verbose_name = _("rating change")
        verbose_name_plural = _("rating changes")
        ordering = ["-created_at", "pk"]
        constraints = [models.UniqueConstraint(fields=["match", "user"], name="rated_once_per_match")]

    def __str__(self) -> str:
        return f"{self.user} {self.delta:+.1f} ({self.match})"


class RatingReversal(models.Model):
    """Who reversed the ratings of which match, and why (collusion, cheating): the first reversal or refund that
    touched it (each one is in the moderators' audit log too)."""

    match = models.OneToOneField(
        "turnengine.Match", on_delete=models.PROTECT, related_name="rating_reversal", verbose_name=_("match")
    )
    by = models.ForeignKey(settings.AUTH_USER_MODEL, on_delete=models.PROTECT, verbose_name=_("by"))
    reason = models.TextField(_("reason"))
    created_at = models.DateTimeField(_("time"), auto_now_add=True)

    class Meta:
        verbose_name = _("rating reversal")
        verbose_name_plural = _("rating reversals")

    def __str__(self) -> str:
        return f"{self.match} reversed by {self.by}"


class Playban(models.Model):
    """A bar from ranked tables for abandoning too many ranked games (``turnengine.fair_play``): issued by the engine
    when a ranked game ends, never by hand; in force from ``starts_at`` until ``ends_at``."""

    user = models.ForeignKey(
        settings.AUTH_USER_MODEL, on_delete=models.CASCADE, related_name="playbans", verbose_name=_("player")
    )
    match = models.ForeignKey(
        "turnengine.Match",
        on_delete=models.SET_NULL,
        null=True,
        blank=True,
        related_name="playbans",
        verbose_name=_("game that triggered it"),
    )
    starts_at = models.DateTimeField(_("from"))
    ends_at = models.DateTimeField(_("until"), db_index=True)
    abandoned = models.PositiveIntegerField(_("games abandoned"))
    games = models.PositiveIntegerField(_("ranked games counted"))

    class Meta:
        verbose_name = _("playban")
        verbose_name_plural = _("playbans")
        ordering = ["-starts_at"]

    def __str__(self) -> str:
        return f"{self.user} until {self.ends_at:%Y-%m-%d %H:%M}"
