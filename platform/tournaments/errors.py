"""Refusals of tournament requests: a code and a readable, translated message; nothing was changed."""

from __future__ import annotations

from django.utils.translation import gettext_lazy as _
from tapete_sdk.plugin import CodedError


class TournamentError(CodedError):
    def __init__(self, code: str, message: str | None = None) -> None:
        super().__init__(code, MESSAGES[code] if message is None else message)


MESSAGES = {
    "closed": _("This tournament no longer takes players."),
    "full": _("This tournament is full."),
    "already_joined": _("You have already joined this tournament."),
    "not_joined": _("You are not playing in this tournament."),
    "guest_unranked": _("Guests play friendly tournaments only: keep your account to play ranked ones."),
    "people_only": _("Ranked tournaments are for people only: no computer player or bot account."),
    "rating_too_low": _("Your rating is below this tournament's minimum."),
    "too_few_games": _("You have not played enough rated games of this game for this tournament."),
    "suspended": _("Your account is suspended: you cannot join tournaments."),
    "playban": _("You may not play ranked games for now."),
    "over": _("This tournament is over."),
    "not_in_tournament": _("This player is not in this tournament."),
    "already_disqualified": _("This player is already disqualified."),
    "no_players_may_create": _("Only staff create tournaments on this site."),
}
