"""What moderators do to tournaments, on the same confirmation page as every other moderator action
(``moderation.admin_actions``): disqualify a player (paired no more, their results void) and cancel a tournament
(no more pairing). Both are audited (``moderation.services.record_action``) in the action's own transaction. The
Moderators group may see tournaments, entries and rounds (:func:`grant_moderators`)."""

from __future__ import annotations

from datetime import timedelta

from django.contrib.auth.models import Group, Permission
from django.db import transaction
from django.utils.translation import gettext as _
from django.utils.translation import gettext_lazy

from moderation.admin_actions import ModeratorAction, Target, register_action
from moderation.groups import MODERATORS
from moderation.services import Refused, record_action, require_reason
from tournaments import life_cycle
from tournaments.errors import TournamentError
from tournaments.models import Entry, Tournament

VIEW_PERMISSIONS = ["view_tournament", "view_entry", "view_round", "view_tournamenttable", "view_pairing"]
PERMISSION = "moderation.add_sanction"


def grant_moderators(**kwargs) -> None:
    """After each migration: moderators see the tournaments' pages in admin."""
    group, _created = Group.objects.get_or_create(name=MODERATORS)
    group.permissions.add(
        *Permission.objects.filter(content_type__app_label="tournaments", codename__in=VIEW_PERMISSIONS)
    )


def disqualify_refusal(*, entry: Entry) -> Refused | None:
    if entry.status == Entry.Status.DISQUALIFIED:
        return Refused("already_disqualified", _("This player is already disqualified."))
    return None


def cancel_refusal(*, tournament: Tournament) -> Refused | None:
    if tournament.status in (Tournament.Status.FINISHED, Tournament.Status.CANCELLED):
        return Refused("over", _("This tournament is over."))
    return None


def moderation_disqualify(*, moderator, entry: Entry, reason: str) -> None:
    reason = require_reason(reason)
    with transaction.atomic():
        try:
            done = life_cycle.disqualify(entry_id=entry.pk)
        except TournamentError as error:
            raise Refused(error.code, error.message) from None
        record_action(moderator=moderator, action="disqualify", reason=reason, target_user=done.user,
                      tournament=done.tournament_id, score_before=entry.score)


def moderation_cancel(*, moderator, tournament: Tournament, reason: str) -> None:
    reason = require_reason(reason)
    with transaction.atomic():
        try:
            life_cycle.cancel(tournament_id=tournament.pk)
        except TournamentError as error:
            raise Refused(error.code, error.message) from None
        record_action(moderator=moderator, action="cancel_tournament", reason=reason, tournament=tournament.pk,
                      status_before=tournament.status)


def _describe_disqualify(target: Target, _duration: timedelta | None) -> list[str]:
    entry = target.obj
    return [_("%(name)s is disqualified from %(tournament)s: paired no more, their %(score)s points void (their "
              "opponents keep theirs).") % {"name": entry.user.username, "tournament": entry.tournament,
                                            "score": entry.score}]


def _describe_cancel(target: Target, _duration: timedelta | None) -> list[str]:
    tournament = target.obj
    return [_("%(tournament)s (%(status)s) is cancelled: no more rounds; tables already playing play on as "
              "ordinary games.") % {"tournament": tournament, "status": tournament.get_status_display().lower()}]


def register_actions() -> None:
    register_action(ModeratorAction(
        key="disqualify",
        label=gettext_lazy("Disqualify from the tournament"),
        permission=PERMISSION,
        model=Entry,
        describe=_describe_disqualify,
        refusal=lambda target, _duration: disqualify_refusal(entry=target.obj),
        perform=lambda moderator, target, form: moderation_disqualify(
            moderator=moderator, entry=target.obj, reason=form.audit_reason()
        ),
    ))
    register_action(ModeratorAction(
        key="cancel_tournament",
        label=gettext_lazy("Cancel the tournament"),
        permission=PERMISSION,
        model=Tournament,
        describe=_describe_cancel,
        refusal=lambda target, _duration: cancel_refusal(tournament=target.obj),
        perform=lambda moderator, target, form: moderation_cancel(
            moderator=moderator, tournament=target.obj, reason=form.audit_reason()
        ),
    ))
