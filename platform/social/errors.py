"""Refusals of the social pages' requests (follow, friends, blocks, invitations, search): a code and a readable,
translated message. Nothing was changed."""

from __future__ import annotations

from django.utils.translation import gettext_lazy as _
from tapete_sdk.plugin import CodedError


class SocialError(CodedError):
    def __init__(self, code: str) -> None:
        super().__init__(code, MESSAGES[code])


MESSAGES = {
    "no_such_player": _("There is no such player."),
    "yourself": _("You cannot do that with yourself."),
    "blocked": _("You cannot do that with this player."),
    "guest_social": _("Guests cannot follow or add friends: keep your account first."),
    "bot_social": _("Bot accounts and computer players cannot be followed, befriended or invited."),
    "already_friends": _("You are already friends."),
    "already_requested": _("You already asked this player to be friends."),
    "no_request": _("There is no such friend request."),
    "no_such_table": _("There is no such table."),
    "not_waiting": _("This table is no longer waiting for players."),
    "not_seated": _("Only a player at this table can invite someone to it."),
    "already_seated": _("This player already sits at this table."),
    "already_invited": _("This player is already invited to this table."),
    "too_many_invitations": _("You have sent too many invitations to this table."),
    "no_invitation": _("There is no such invitation, or it has expired."),
    "query_too_long": _("That search is too long."),
}
