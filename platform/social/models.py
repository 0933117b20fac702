"""Who follows, befriends, blocks and invites whom. Every pair is one row held unique by the database, so two
simultaneous requests resolve there and never by luck: a friendship is one row per unordered pair (a request that
the other then accepts), a follow and a block one row per ordered pair, an invitation one row per table and player.
"""

from django.conf import settings
from django.db import models
from django.db.models import F, Q
from django.utils.translation import gettext_lazy as _

from turnengine.models import Match


class Follow(models.Model):
    """One player follows another (one way, as on Lichess): the other is not asked."""

    follower = models.ForeignKey(
        settings.AUTH_USER_MODEL,
        on_delete=models.CASCADE,
        related_name="following",
        verbose_name=_("follower"),
    )
    followed = models.ForeignKey(
        settings.AUTH_USER_MODEL,
        on_delete=models.CASCADE,
        related_name="followers",
        verbose_name=_("followed"),
    )
    created_at = models.DateTimeField(_("since"), auto_now_add=True)

    class Meta:
        verbose_name = _("follow")
        verbose_name_plural = _("follows")
        constraints = [
            models.UniqueConstraint(fields=["follower", "followed"], name="follow_once"),
            models.CheckConstraint(condition=~Q(follower=F("followed")), name="follow_not_self"),
        ]

    def __str__(self) -> str:
        return f"{self.follower} → {self.followed}"


class Friendship(models.Model):
    """Two players, the lower id first: a request while ``accepted_at`` is empty, a friendship once the other
    accepted. One row per pair, whoever asked: two requests crossing become one friendship."""

    low = models.ForeignKey(
        settings.AUTH_USER_MODEL, on_delete=models.CASCADE, related_name="+", verbose_name=_("player")
    )
    high = models.ForeignKey(
        settings.AUTH_USER_MODEL, on_delete=models.CASCADE, related_name="+", verbose_name=_("other player")
    )
    requested_by = models.ForeignKey(
        settings.AUTH_USER_MODEL, on_delete=models.CASCADE, related_name="+", verbose_name=_("asked by")
    )
    created_at = models.DateTimeField(_("asked"), auto_now_add=True)
    accepted_at = models.DateTimeField(_("accepted"), null=True, blank=True)

    class Meta:
        verbose_name = _("friendship")
        verbose_name_plural = _("friendships")
        constraints = [
            models.UniqueConstraint(fields=["low", "high"], name="friendship_once_per_pair"),
            models.CheckConstraint(condition=Q(low__lt=F("high")), name="friendship_ordered_pair"),
        ]
        indexes = [models.Index(fields=["high", "low"], name="friendship_by_high")]

    def __str__(self) -> str:
        return f"{self.low} – {self.high}"

    def other(self, user_id: int) -> int:
        return self.high_id if self.low_id == user_id else self.low_id


class Block(models.Model):
    """One player blocked another: the blocked one cannot invite, follow, befriend them or join their tables, and
    the blocker does not see their chat."""

    blocker = models.ForeignKey(
        settings.AUTH_USER_MODEL, on_delete=models.CASCADE, related_name="blocks", verbose_name=_("blocker")
    )
    blocked = models.ForeignKey(
        settings.AUTH_USER_MODEL, on_delete=models.CASCADE, related_name="+", verbose_name=_("blocked")
    )
    created_at = models.DateTimeField(_("since"), auto_now_add=True)

    class Meta:
        verbose_name = _("block")
        verbose_name_plural = _("blocks")
        constraints = [
            models.UniqueConstraint(fields=["blocker", "blocked"], name="block_once"),
            models.CheckConstraint(condition=~Q(blocker=F("blocked")), name="block_not_self"),
        ]

    def __str__(self) -> str:
        return f"{self.blocker} ⊘ {self.blocked}"


class Invitation(models.Model):
    """A player asked another to a waiting table. It is pending only while the table waits: once the table starts
    or is cancelled it has expired, which is read from the table's status (nothing is written when a table starts).
    """

    class Status(models.TextChoices):
        PENDING = "pending", _("pending")
        ACCEPTED = "accepted", _("accepted")
        DECLINED = "declined", _("declined")

    match = models.ForeignKey(Match, on_delete=models.CASCADE, related_name="+", verbose_name=_("table"))
    sender = models.ForeignKey(
        settings.AUTH_USER_MODEL, on_delete=models.CASCADE, related_name="+", verbose_name=_("from")
    )
    recipient = models.ForeignKey(
        settings.AUTH_USER_MODEL, on_delete=models.CASCADE, related_name="invitations", verbose_name=_("to")
    )
    status = models.CharField(_("status"), max_length=16, choices=Status, default=Status.PENDING)
    created_at = models.DateTimeField(_("sent"), auto_now_add=True)
    answered_at = models.DateTimeField(_("answered"), null=True, blank=True)

    class Meta:
        verbose_name = _("invitation")
        verbose_name_plural = _("invitations")
        constraints = [
            models.UniqueConstraint(fields=["match", "recipient"], name="invitation_once_per_table")
        ]
        indexes = [models.Index(fields=["recipient", "status"], name="invitation_inbox")]

    def __str__(self) -> str:
        return f"{self.sender} → {self.recipient} (#{self.match_id})"


class SiteSocket(models.Model):
    """One open lobby socket of a logged-in player (every page of the site opens one): a player is online while
    they hold one. Held by one life of a server process; the next life of the same server forgets the rows of the
    previous one (``social.presence``)."""

    key = models.CharField(_("socket"), max_length=32, primary_key=True)
    user = models.ForeignKey(
        settings.AUTH_USER_MODEL, on_delete=models.CASCADE, related_name="+", verbose_name=_("player")
    )
    server = models.CharField(_("server"), max_length=200)
    life = models.CharField(_("process"), max_length=32)
    opened_at = models.DateTimeField(_("opened"), auto_now_add=True)

    class Meta:
        verbose_name = _("site socket")
        verbose_name_plural = _("site sockets")
        indexes = [
            models.Index(fields=["user"], name="site_socket_user"),
            models.Index(fields=["server"], name="site_socket_server"),
        ]

    def __str__(self) -> str:
        return f"{self.user} @ {self.server}"
