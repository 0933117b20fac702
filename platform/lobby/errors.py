"""Refusals of lobby requests: a code and a readable, translated message."""

from __future__ import annotations

from django.utils.translation import gettext_lazy as _
from tapete_sdk.plugin import CodedError

from web.throttle import Limit


class LobbyError(CodedError):
    """Refusal of a lobby request; nothing was changed. The message is the code's, in the current language."""

    def __init__(self, code: str, message: str | None = None) -> None:
        super().__init__(code, MESSAGES[code] if message is None else message)

    @classmethod
    def from_seat_refusal(cls, refusal) -> LobbyError:
        """The lobby's refusal for the engine's refusal of a seat (``turnengine.writer.seat_refusal``): its code and
        its message (a playban's says until when)."""
        return cls(refusal.code, refusal.message)


class TooManyTables(LobbyError):
    """A new table over one of the limits on tables (per account, per address): its message says for how long, the
    pages answer HTTP 429 and the Bot API ``too_many_tables``."""

    def __init__(self, limit: Limit, wait_seconds: int) -> None:
        CodedError.__init__(self, "too_many_tables", limit.message(wait_seconds))
        self.wait_seconds = wait_seconds


MESSAGES = {
    "unknown_game": _("There is no such game."),
    "table_full": _("This table is full."),
    "already_seated": _("You already sit at this table."),
    "seat_taken": _("That seat is taken."),
    "no_such_seat": _("There is no such seat at this table."),
    "already_started": _("This table has already started."),
    "not_seated": _("You do not sit at this table."),
    "not_creator": _("Only the table's creator can start it."),
    "not_enough_players": _("Not every seat is taken yet."),
    "creator_cannot_leave": _("The creator cannot leave: cancel the table instead."),
    "invalid_options": _("These options are not valid."),
    "suspended": _("Your account is suspended: you cannot open or join tables."),
    "unknown_bot_level": _("There is no such computer player."),
    "invalid_time_control": _("There is no such time control."),
    "ranked_needs_clock": _("Ranked tables need a time limit."),
    "range_needs_ranked": _("Only ranked tables can be restricted to a rating range."),
    "invalid_range": _("The minimum rating is above the maximum."),
    "rating_out_of_range": _("Your rating is outside this table's range."),
    "not_finished": _("This game is not over yet."),
    "invalid_spectator_delay": _("A spectator delay is for ranked tables, up to 20 moves."),
    "already_accepted": _("You already accepted this rematch: leave its table instead."),
    "invalid_grace": _("The grace for a disconnected player must be between 1 and 600 seconds."),
    "guest_unranked": _("Guests play friendly tables only: keep your account to play ranked tables."),
}
# The engine's refusals of a seat (turnengine.writer.seat_refusal), each with its own message.
SEAT_REFUSALS = ("computer_unranked", "bots_not_admitted", "playban", "blocked_by_creator")
