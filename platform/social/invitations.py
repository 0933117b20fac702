"""Invitations to a waiting table, by name: a player seated at the table invites another, who sees it in their
header (a count and a list) and in an in-page notice, and accepts (which takes a seat through the lobby's join,
with every check a join makes) or declines (the inviter is told). An invitation is pending only while its table
waits: once the table starts or is cancelled it has expired, read from the table's status, so nothing is added to a
table's start."""

from __future__ import annotations

from django.db import IntegrityError, transaction
from django.db.models import Exists, OuterRef
from django.urls import reverse
from django.utils import timezone

from lobby import services as lobby_services
from social.blocks import blocked_either_way, blocks
from social.errors import SocialError
from social.frames import push
from social.models import Invitation
from turnengine.models import Match, Seat

MAX_INVITATIONS_PER_TABLE = (
    30  # by one sender, whatever their answers: no spamming a player list from a table
)
HEADER_LIMIT = 20  # the header's list shows the latest ones


def invite(*, user, match_id: int, other) -> Invitation:
    """``user``, seated at the waiting table ``match_id``, invites ``other``."""
    match = Match.objects.filter(pk=match_id).first()
    if match is None:
        raise SocialError("no_such_table")
    if match.status != Match.Status.OPEN:
        raise SocialError("not_waiting")
    if other.pk == user.pk:
        raise SocialError("yourself")
    if other.is_bot:
        raise SocialError("bot_social")
    seated = set(Seat.objects.filter(match=match).values_list("user_id", flat=True))
    if user.pk not in seated:
        raise SocialError("not_seated")
    if other.pk in seated:
        raise SocialError("already_seated")
    if blocked_either_way(user.pk, other.pk) or blocks(match.created_by_id, other.pk):
        raise SocialError("blocked")
    if Invitation.objects.filter(match=match, sender=user).count() >= MAX_INVITATIONS_PER_TABLE:
        raise SocialError("too_many_invitations")
    with transaction.atomic():
        try:
            with transaction.atomic():
                invitation = Invitation.objects.create(match=match, sender=user, recipient=other)
        except IntegrityError:
            invitation = Invitation.objects.select_for_update().get(match=match, recipient=other)
            if invitation.status == Invitation.Status.PENDING:
                raise SocialError("already_invited") from None
            # Declined (or accepted, then left) before: asked again, it is pending again.
            invitation.status, invitation.sender, invitation.answered_at = (
                Invitation.Status.PENDING,
                user,
                None,
            )
            invitation.created_at = timezone.now()
            invitation.save(update_fields=["status", "sender", "answered_at", "created_at"])
        push([other.pk], "invitation", invitation_payload(invitation, match=match, sender=user))
    return invitation


def invitation_payload(invitation: Invitation, *, match: Match, sender) -> dict:
    return {
        "id": invitation.pk,
        "from": sender.username,
        "game": match.game,
        "table": match.pk,
        "url": reverse("lobby:table", args=[match.pk]),
    }


def pending_for(user):
    """The invitations ``user`` may still answer: pending, to a table still waiting where they do not sit."""
    return (
        Invitation.objects.filter(
            recipient=user, status=Invitation.Status.PENDING, match__status=Match.Status.OPEN
        )
        .exclude(Exists(Seat.objects.filter(match=OuterRef("match"), user=user)))
        .select_related("sender", "match")
        .order_by("-created_at", "-pk")
    )


def sent_for(*, match_id: int):
    """The invitations to a table, for its waiting page: who was asked, and what they answered."""
    return (
        Invitation.objects.filter(match_id=match_id).select_related("recipient").order_by("created_at", "pk")
    )


def _answerable(user, invitation_id: int) -> Invitation:
    invitation = pending_for(user).select_for_update(of=("self",)).filter(pk=invitation_id).first()
    if invitation is None:
        raise SocialError("no_invitation")
    return invitation


def accept(*, user, invitation_id: int, ip_address: str | None = None) -> Invitation:
    """Take a seat at the invitation's table (the lobby's join: a full table, a block or a rating range refuse it
    with the lobby's own code, and the invitation stays pending)."""
    with transaction.atomic():
        invitation = _answerable(user, invitation_id)
        lobby_services.table_join(user=user, match_id=invitation.match_id, ip_address=ip_address)
        invitation.status, invitation.answered_at = Invitation.Status.ACCEPTED, timezone.now()
        invitation.save(update_fields=["status", "answered_at"])
        push(
            [invitation.sender_id],
            "invitation_answered",
            {"by": user.username, "answer": "accepted", "table": invitation.match_id},
        )
    return invitation


def decline(*, user, invitation_id: int) -> Invitation:
    with transaction.atomic():
        invitation = _answerable(user, invitation_id)
        invitation.status, invitation.answered_at = Invitation.Status.DECLINED, timezone.now()
        invitation.save(update_fields=["status", "answered_at"])
        push(
            [invitation.sender_id],
            "invitation_answered",
            {"by": user.username, "answer": "declined", "table": invitation.match_id},
        )
    return invitation
