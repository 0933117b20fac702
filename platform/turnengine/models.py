"""Matches, their seats, the append-only action log with its visibility-tagged events, and table chat.

A ``Match`` is a table from the moment it is opened in the lobby until it ends: the lobby fills its seats, the
engine plays it. Its ``state`` is the game's plain-JSON state, its ``version`` counts committed transitions; a match
row changes only through the one writer, ``turnengine.writer``, under the row's lock (``tests/turnengine/test_writer.py``).
"""

import functools
import hashlib
import secrets as token_source

from django.conf import settings
from django.db import models
from django.utils.translation import gettext_lazy as _
from tapete_sdk import registry


def new_seed() -> str:
    return token_source.token_hex(32)


def new_invite_token() -> str:
    return token_source.token_urlsafe(12)


@functools.lru_cache(maxsize=4096)
def seed_digest(seed: str) -> str:
    """SHA-256 of a seed, in hex. Every frame of a new version carries its match's (``seat_frames.match_meta``): kept
    for the matches being played rather than hashed again on every move."""
    return hashlib.sha256(seed.encode()).hexdigest()


class Match(models.Model):
    class Status(models.TextChoices):
        OPEN = "open", _("Waiting for players")
        ACTIVE = "active", _("Playing")
        FINISHED = "finished", _("Finished")
        ABORTED = "aborted", _("Aborted")

    game = models.CharField(_("game"), max_length=32)  # indexed with status (Meta.indexes)
    options = models.JSONField(_("options"), default=dict)
    num_players = models.PositiveSmallIntegerField(_("players"))
    ranked = models.BooleanField(_("ranked"), default=False)
    min_rating = models.PositiveIntegerField(_("minimum rating"), null=True, blank=True)
    max_rating = models.PositiveIntegerField(_("maximum rating"), null=True, blank=True)
    created_by = models.ForeignKey(
        settings.AUTH_USER_MODEL,
        on_delete=models.PROTECT,
        related_name="created_matches",
        verbose_name=_("creator"),
    )
    status = models.CharField(_("status"), max_length=16, choices=Status, default=Status.OPEN, db_index=True)
    invite_token = models.CharField(
        _("invitation token"), max_length=32, default=new_invite_token, unique=True
    )
    state = models.JSONField(_("state"), null=True, blank=True)
    version = models.PositiveIntegerField(_("version"), default=0)
    steps = models.PositiveIntegerField(_("actions logged"), default=0)
    seed = models.CharField(_("secret seed"), max_length=64, default=new_seed)
    result = models.JSONField(_("result"), null=True, blank=True)
    time_control = models.JSONField(
        _("time control"), default=dict, help_text=_("The profile and its settings.")
    )
    clock = models.JSONField(
        _("clocks"), null=True, blank=True, help_text=_("Banks, running clocks, absences.")
    )
    # Not indexed: nearly every move changes it, and on PostgreSQL an update that changes an indexed column cannot
    # be a HOT update, so each move would write a new entry into every index of the table. The sweeper looks for
    # due deadlines among the active matches, which the status index finds. (Migration 0007 also keeps a fifth of
    # each page of the table free, where a HOT update puts the row's new version.)
    deadline_at = models.DateTimeField(_("next deadline"), null=True, blank=True)
    bot_seats = models.JSONField(_("bot seats"), default=list, blank=True)
    admits_bots = models.BooleanField(
        _("open to bot accounts"),
        default=False,
        help_text=_("Bot accounts may sit here; such a table is rated in the game's bot pool."),
    )
    created_at = models.DateTimeField(_("created"), auto_now_add=True)
    started_at = models.DateTimeField(_("started"), null=True, blank=True)
    last_action_at = models.DateTimeField(_("last action"), null=True, blank=True)
    finished_at = models.DateTimeField(_("finished"), null=True, blank=True)
    # "Play again": the table opened from this one's result screen (same players, options and computer players).
    rematch_of = models.OneToOneField(
        "self",
        on_delete=models.SET_NULL,
        null=True,
        blank=True,
        related_name="rematch",
        verbose_name=_("rematch of"),
    )
    # Open spectator sockets: a move builds and sends the spectators' frame only while someone watches. Derived:
    # the count of the match's spectator ``Connection`` rows, rewritten under the match's lock (turnengine.presence).
    spectator_connections = models.PositiveIntegerField(_("spectators connected"), default=0, editable=False)
    # Ranked tables only (the creation form): spectators see the table as of this many versions ago, so a watcher
    # cannot relay the game to a player (turnengine.spectating builds that view, once per version).
    spectator_delay = models.PositiveSmallIntegerField(
        _("spectator delay"), default=0, help_text=_("Spectators see the game this many moves late.")
    )
    # The creation form's "Allow spectators": off, nobody but the players (and moderators) watches the table while
    # it is played (turnengine.spectating.may_watch). Read when a page or a socket opens, never with a move.
    spectators_allowed = models.BooleanField(_("spectators allowed"), default=True)
    # A version whose frames could not be published (the channel layer was down): its deadlines wait until the
    # sockets have been brought up to date (realtime.delivery).
    undelivered_version = models.PositiveIntegerField(_("undelivered version"), null=True, blank=True, editable=False)
    undelivered_at = models.DateTimeField(_("delivery failed at"), null=True, blank=True, editable=False)

    class Meta:
        verbose_name = _("match")
        verbose_name_plural = _("matches")
        indexes = [models.Index(fields=["game", "status"])]

    def __str__(self) -> str:
        return f"{self.rules.name} #{self.pk}"

    @property
    def rules(self):
        return registry.get(self.game)

    @property
    def seed_hash(self) -> str:
        """SHA-256 of the secret seed: shown from the start, so the seed published at the end can be checked."""
        return seed_digest(self.seed)

    @property
    def seed_is_public(self) -> bool:
        return self.status in {self.Status.FINISHED, self.Status.ABORTED}

    def group_name(self, seat: int | None = None) -> str:
        """Channel-layer group of one seat, of spectators (``seat=None``), or (``seat='all'``) of everyone."""
        if seat == "all":
            return f"match.{self.pk}"
        return f"match.{self.pk}.spectators" if seat is None else f"match.{self.pk}.seat{seat}"


class Seat(models.Model):
    match = models.ForeignKey(Match, on_delete=models.CASCADE, related_name="seats", verbose_name=_("match"))
    index = models.PositiveSmallIntegerField(_("seat"))
    user = models.ForeignKey(
        settings.AUTH_USER_MODEL, on_delete=models.PROTECT, related_name="seats", verbose_name=_("player")
    )
    joined_at = models.DateTimeField(_("joined"), auto_now_add=True)
    # Derived: the count of the seat's ``Connection`` rows, rewritten under the match's lock (turnengine.presence).
    connections = models.PositiveIntegerField(_("open connections"), default=0)
    abandoned = models.BooleanField(
        _("abandoned"),
        default=False,
        help_text=_(
            "Abandoned a ranked game: left it, or was absent or disconnected past the grace at its end (ratings and "
            "the abandonment record count it)."
        ),
    )
    ip_address = models.GenericIPAddressField(_("IP address"), null=True, blank=True)

    class Meta:
        verbose_name = _("seat")
        verbose_name_plural = _("seats")
        ordering = ["match", "index"]
        constraints = [
            models.UniqueConstraint(fields=["match", "index"], name="seat_index_unique_per_match"),
            models.UniqueConstraint(fields=["match", "user"], name="one_seat_per_user_per_match"),
        ]

    def __str__(self) -> str:
        return f"{self.match} seat {self.index}: {self.user}"


class ServerProcess(models.Model):
    """One life of an ASGI server process that holds sockets: its ticker refreshes ``seen_at`` every few seconds,
    and the sweeper closes the connections of a life not seen for a while (``turnengine.presence``). ``name``
    (host and listening port) is the same for the next life of the same server, which closes the rows of the
    previous one when it starts."""

    id = models.CharField(_("process"), max_length=32, primary_key=True)
    name = models.CharField(_("server"), max_length=200, db_index=True)
    started_at = models.DateTimeField(_("started"))
    seen_at = models.DateTimeField(_("last seen"))

    class Meta:
        verbose_name = _("server process")
        verbose_name_plural = _("server processes")

    def __str__(self) -> str:
        return f"{self.name} ({self.id})"


class QueueProbe(models.Model):
    """When a Celery queue last ran its probe task (``turnengine.queue_health``): the deadline sweeper on the "play"
    queue, a probe beat sends every sweep on the "bulk" queue."""

    queue = models.CharField(_("queue"), max_length=16, primary_key=True)
    ran_at = models.DateTimeField(_("last run"))

    class Meta:
        verbose_name = _("queue probe")
        verbose_name_plural = _("queue probes")

    def __str__(self) -> str:
        return self.queue


class Connection(models.Model):
    """One open socket at a table: a seat's (``seat``) or a spectator's (``seat`` null), held by one server
    process. Presence is counted from these rows, never bumped up and down."""

    key = models.CharField(_("socket"), max_length=32, primary_key=True)
    process = models.ForeignKey(
        ServerProcess, on_delete=models.CASCADE, related_name="connections", verbose_name=_("server process")
    )
    match = models.ForeignKey(
        Match, on_delete=models.CASCADE, related_name="connections", verbose_name=_("match"), db_index=False
    )
    seat = models.PositiveSmallIntegerField(_("seat"), null=True, blank=True)
    # Whose socket it is (None: a visitor without an account): the table lists its logged-in spectators.
    user = models.ForeignKey(
        settings.AUTH_USER_MODEL,
        on_delete=models.CASCADE,
        null=True,
        blank=True,
        related_name="+",
        verbose_name=_("user"),
        db_index=False,
    )
    opened_at = models.DateTimeField(_("opened"), auto_now_add=True)

    class Meta:
        verbose_name = _("connection")
        verbose_name_plural = _("connections")
        indexes = [models.Index(fields=["match", "seat"], name="connection_match_seat")]

    def __str__(self) -> str:
        return f"{self.match_id} seat {self.seat}: {self.key}"


class PresenceNotice(models.Model):
    """A connection line of a table's log (a seat disconnected, reconnected, left, came back), kept so that the
    log a reloaded page rebuilds from the snapshot has it in its place: after every logged action of ``version``
    and before those of the next."""

    match = models.ForeignKey(
        Match, on_delete=models.CASCADE, related_name="presence_notices", verbose_name=_("match")
    )
    version = models.PositiveIntegerField(_("version"))
    notice = models.JSONField(_("notice"), help_text=_("As sent in the presence frame: type, seat, back."))
    created_at = models.DateTimeField(_("time"), auto_now_add=True)

    class Meta:
        verbose_name = _("connection notice")
        verbose_name_plural = _("connection notices")
        ordering = ["match", "pk"]

    def __str__(self) -> str:
        return f"{self.match_id} v{self.version}: {self.notice.get('type')} seat {self.notice.get('seat')}"


class AppendOnlyModel(models.Model):
    """A log row: written once, never updated or deleted through the ORM."""

    class Meta:
        abstract = True

    def save(self, *args, **kwargs):
        if not self._state.adding:
            raise PermissionError(f"{type(self).__name__} rows are append-only")
        super().save(*args, **kwargs)

    def delete(self, *args, **kwargs):
        raise PermissionError(f"{type(self).__name__} rows are append-only")


class MatchAction(AppendOnlyModel):
    """One applied action (chance steps included, seat -1), in order: the match replays from these alone."""

    # Looked up by match through the (match, step) constraint's index: a second index would only slow the append.
    match = models.ForeignKey(
        Match, on_delete=models.CASCADE, related_name="actions", verbose_name=_("match"), db_index=False
    )
    step = models.PositiveIntegerField(_("step"))
    version = models.PositiveIntegerField(_("version"))
    seat = models.SmallIntegerField(_("seat"))
    action = models.JSONField(_("action"))
    events = models.JSONField(_("events"), default=list, help_text=_("Each event carries its visible_to."))
    created_at = models.DateTimeField(_("time"), auto_now_add=True)

    class Meta:
        verbose_name = _("logged action")
        verbose_name_plural = _("action log")
        ordering = ["match", "step"]
        constraints = [models.UniqueConstraint(fields=["match", "step"], name="one_action_per_step")]

    def __str__(self) -> str:
        return f"{self.match_id} step {self.step}: seat {self.seat} {self.action.get('type')}"


class ChatMessage(models.Model):
    """A chat line, kept for moderation. Players and spectators chat separately; a moderator may hide a line."""

    class Channel(models.TextChoices):
        PLAYERS = "players", _("Players")
        SPECTATORS = "spectators", _("Spectators")

    match = models.ForeignKey(Match, on_delete=models.CASCADE, related_name="chat", verbose_name=_("match"))
    user = models.ForeignKey(settings.AUTH_USER_MODEL, on_delete=models.PROTECT, verbose_name=_("author"))
    channel = models.CharField(_("channel"), max_length=16, choices=Channel, default=Channel.PLAYERS)
    text = models.CharField(_("text"), max_length=500)
    # A quick phrase or reaction (turnengine.quick_chat): its key, which each reader sees in their own language;
    # ``text`` then holds its English words, for moderators.
    phrase = models.CharField(_("quick phrase"), max_length=16, blank=True, default="")
    hidden = models.BooleanField(_("hidden by a moderator"), default=False)
    created_at = models.DateTimeField(_("time"), auto_now_add=True, db_index=True)

    class Meta:
        verbose_name = _("chat message")
        verbose_name_plural = _("chat messages")
        ordering = ["match", "created_at", "pk"]

    def __str__(self) -> str:
        return f"{self.user}: {self.text[:40]}"


class RematchDecline(models.Model):
    """A player of a finished table said no to its "Play again" offer (``lobby.rematch``): the others see who."""

    match = models.ForeignKey(
        Match, on_delete=models.CASCADE, related_name="rematch_declines", verbose_name=_("match")
    )
    user = models.ForeignKey(settings.AUTH_USER_MODEL, on_delete=models.CASCADE, verbose_name=_("player"))
    created_at = models.DateTimeField(_("time"), auto_now_add=True)

    class Meta:
        verbose_name = _("declined rematch")
        verbose_name_plural = _("declined rematches")
        constraints = [models.UniqueConstraint(fields=["match", "user"], name="one_rematch_decline_per_player")]

    def __str__(self) -> str:
        return f"{self.match_id}: {self.user_id} declined"
class AwaitedTurn(models.Model):
    """A seat of a running turn-based (or untimed) table whose move the game awaits: a row while its player's clock
    runs. Written only by ``turnengine.awaiting`` from the match writer's commit, when whose turn it is changes; the
    "Your move" page and the turn e-mails read these rows, never the matches' clocks."""

    match = models.ForeignKey(Match, on_delete=models.CASCADE, related_name="awaited", verbose_name=_("match"))
    seat = models.PositiveSmallIntegerField(_("seat"))
    user = models.ForeignKey(
        settings.AUTH_USER_MODEL, on_delete=models.CASCADE, related_name="awaited_turns", verbose_name=_("player")
    )
    since = models.DateTimeField(_("awaited since"))
    deadline_at = models.DateTimeField(_("deadline"), null=True, blank=True)
    mailed = models.BooleanField(_("e-mailed"), default=False)
    reminded = models.BooleanField(_("reminded"), default=False)

    class Meta:
        verbose_name = _("awaited turn")
        verbose_name_plural = _("awaited turns")
        constraints = [models.UniqueConstraint(fields=["match", "seat"], name="one_awaited_turn_per_seat")]
        indexes = [models.Index(fields=["user", "since"], name="awaited_turn_user_since")]

    def __str__(self) -> str:
        return f"{self.match_id} seat {self.seat}: {self.user_id}"


class TurnsWaiting(models.Model):
    """How many tables await a player's move: the count of their ``AwaitedTurn`` rows, rewritten under this row's
    lock by ``turnengine.awaiting`` whenever it changes, so that no page or socket counts it again."""

    user = models.OneToOneField(
        settings.AUTH_USER_MODEL,
        on_delete=models.CASCADE,
        primary_key=True,
        related_name="turns_waiting",
        verbose_name=_("player"),
    )
    count = models.PositiveIntegerField(_("tables waiting"), default=0)

    class Meta:
        verbose_name = _("tables waiting")
        verbose_name_plural = _("tables waiting")

    def __str__(self) -> str:
        return f"{self.user_id}: {self.count}"
