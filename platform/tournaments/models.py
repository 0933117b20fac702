"""Tournaments: the event (:class:`Tournament`), who plays in it (:class:`Entry`), each pairing of players into
tables (:class:`Round`), the tables it started (:class:`TournamentTable`) and each player's place in a round
(:class:`Pairing`: a seat at one of its tables, or a bye).

The unique keys are what make a pairing happen once: a round's number is unique in its tournament, and a player
has one pairing per round and at most one table not scored yet, whatever process or duplicated task pairs it
(``tournaments.life_cycle``). The tables themselves are engine matches, started through the lobby's service.
"""

from django.conf import settings
from django.db import models
from django.db.models import Q
from django.utils.translation import gettext_lazy as _
from django.utils.translation import pgettext_lazy
from tapete_sdk import registry

from turnengine import clocks


def time_control_choices():
    return [(key, profile.label) for key, profile in clocks.PROFILES.items()]


class Tournament(models.Model):
    class Kind(models.TextChoices):
        SWISS = "swiss", _("Swiss")
        ARENA = "arena", _("Arena")

    class Status(models.TextChoices):
        UPCOMING = "upcoming", _("Upcoming")
        RUNNING = "running", _("Running")
        FINISHED = "finished", pgettext_lazy("a tournament", "Finished")
        CANCELLED = "cancelled", pgettext_lazy("a tournament", "Cancelled")

    name = models.CharField(_("name"), max_length=80)
    kind = models.CharField(_("format"), max_length=8, choices=Kind, default=Kind.SWISS)
    game = models.CharField(_("game"), max_length=32)
    options = models.JSONField(_("options"), default=dict, blank=True)
    table_size = models.PositiveSmallIntegerField(_("players per table"), default=2)
    time_control = models.CharField(
        _("time control"), max_length=16, choices=time_control_choices, default=clocks.DEFAULT_PROFILE
    )
    starts_at = models.DateTimeField(_("starts at"))
    rounds = models.PositiveSmallIntegerField(
        _("rounds"), default=3, help_text=_("Swiss: how many rounds are played.")
    )
    duration_minutes = models.PositiveSmallIntegerField(
        _("duration (minutes)"), default=30, help_text=_("Arena: how long new tables are started.")
    )
    streak_bonus = models.BooleanField(
        _("streak bonus"),
        default=False,
        help_text=_("Arena: after two first places in a row, a player's points count double until they do not win."),
    )
    ranked = models.BooleanField(_("ranked"), default=False)
    max_players = models.PositiveIntegerField(_("player cap"), default=64)
    min_rating = models.PositiveIntegerField(_("minimum rating"), null=True, blank=True)
    min_games = models.PositiveIntegerField(_("minimum rated games"), null=True, blank=True)
    status = models.CharField(_("status"), max_length=16, choices=Status, default=Status.UPCOMING, db_index=True)
    created_by = models.ForeignKey(
        settings.AUTH_USER_MODEL, on_delete=models.PROTECT, related_name="+", verbose_name=_("creator")
    )
    created_at = models.DateTimeField(_("created"), auto_now_add=True)
    started_at = models.DateTimeField(_("started"), null=True, blank=True)
    finished_at = models.DateTimeField(_("finished"), null=True, blank=True)
    # Counts the changes a page shows (a player joined, a round was paired, a table finished): the socket's frames
    # carry it, so a page that missed one knows.
    version = models.PositiveIntegerField(_("version"), default=0, editable=False)

    class Meta:
        verbose_name = _("tournament")
        verbose_name_plural = _("tournaments")
        ordering = ["-starts_at"]

    def __str__(self) -> str:
        return self.name

    @property
    def rules(self):
        return registry.get(self.game)

    @property
    def is_open_to_join(self) -> bool:
        return self.status == self.Status.UPCOMING or (
            self.status == self.Status.RUNNING and self.kind == self.Kind.ARENA
        )

    def group_name(self) -> str:
        return f"tournament.{self.pk}"


class Entry(models.Model):
    class Status(models.TextChoices):
        ACTIVE = "active", _("Playing")
        WITHDRAWN = "withdrawn", _("Withdrew")
        ABSENT = "absent", _("Absent twice: no longer paired")
        DISQUALIFIED = "disqualified", _("Disqualified")

    tournament = models.ForeignKey(
        Tournament, on_delete=models.CASCADE, related_name="entries", verbose_name=_("tournament")
    )
    user = models.ForeignKey(
        settings.AUTH_USER_MODEL, on_delete=models.PROTECT, related_name="tournament_entries",
        verbose_name=_("player"),
    )
    status = models.CharField(_("status"), max_length=16, choices=Status, default=Status.ACTIVE)
    # Derived from the scored pairings, rewritten under the tournament's lock when a table is scored.
    score = models.IntegerField(_("score"), default=0)
    absences = models.PositiveSmallIntegerField(_("absences"), default=0)
    streak = models.PositiveSmallIntegerField(_("first places in a row"), default=0)
    rating = models.IntegerField(_("rating at joining"), default=0)
    joined_at = models.DateTimeField(_("joined"), auto_now_add=True)
    # Arena: since when the player waits for a table (joined, the start, their last table scored).
    free_since = models.DateTimeField(_("waiting since"), null=True, blank=True)

    class Meta:
        verbose_name = _("entry")
        verbose_name_plural = _("entries")
        constraints = [models.UniqueConstraint(fields=["tournament", "user"], name="one_entry_per_player")]

    def __str__(self) -> str:
        return f"{self.tournament}: {self.user}"


class Round(models.Model):
    """One pairing of a tournament: a Swiss round, or one batch of an arena's waiting players."""

    tournament = models.ForeignKey(
        Tournament, on_delete=models.CASCADE, related_name="round_set", verbose_name=_("tournament")
    )
    number = models.PositiveIntegerField(_("round"))
    paired_at = models.DateTimeField(_("paired"), auto_now_add=True)

    class Meta:
        verbose_name = _("round")
        verbose_name_plural = _("rounds")
        ordering = ["tournament", "number"]
        constraints = [models.UniqueConstraint(fields=["tournament", "number"], name="round_paired_once")]

    def __str__(self) -> str:
        return f"{self.tournament} #{self.number}"


class TournamentTable(models.Model):
    round = models.ForeignKey(Round, on_delete=models.CASCADE, related_name="tables", verbose_name=_("round"))
    match = models.OneToOneField(
        "turnengine.Match", on_delete=models.PROTECT, related_name="tournament_table", verbose_name=_("match")
    )
    scored = models.BooleanField(_("scored"), default=False)

    class Meta:
        verbose_name = _("tournament table")
        verbose_name_plural = _("tournament tables")
        indexes = [models.Index(fields=["scored"], name="tournament_table_scored")]

    def __str__(self) -> str:
        return f"{self.round}: {self.match}"


class Pairing(models.Model):
    """A player's part in a round: a seat at one of its tables, or a bye (``table`` empty)."""

    round = models.ForeignKey(Round, on_delete=models.CASCADE, related_name="pairings", verbose_name=_("round"))
    entry = models.ForeignKey(Entry, on_delete=models.CASCADE, related_name="pairings", verbose_name=_("entry"))
    table = models.ForeignKey(
        TournamentTable, null=True, blank=True, on_delete=models.CASCADE, related_name="pairings",
        verbose_name=_("table"),
    )
    seat = models.PositiveSmallIntegerField(_("seat"), null=True, blank=True)
    scored = models.BooleanField(_("scored"), default=False)
    points = models.IntegerField(_("points"), default=0)
    place = models.PositiveSmallIntegerField(_("place"), null=True, blank=True)
    absent = models.BooleanField(_("absent"), default=False)
    void = models.BooleanField(_("void"), default=False, help_text=_("Disqualified: the points do not count."))

    class Meta:
        verbose_name = _("pairing")
        verbose_name_plural = _("pairings")
        constraints = [
            models.UniqueConstraint(fields=["round", "entry"], name="one_pairing_per_round"),
            models.UniqueConstraint(
                fields=["entry"], condition=Q(scored=False), name="one_unscored_table_per_entry"
            ),
        ]

    def __str__(self) -> str:
        return f"{self.round}: {self.entry.user}"
