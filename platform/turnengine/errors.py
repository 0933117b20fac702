"""Errors the turn engine reports to a client: a stable code (the UI translates it) and a readable message. The
transport's own codes (a frame it cannot read, its limits, a refused handshake) are ``realtime.errors``'."""

from collections.abc import Iterator
from contextlib import contextmanager

from django.utils.translation import gettext_lazy as _
from tapete_sdk.plugin import CodedError, RulesError


class EngineError(CodedError):
    """Refusal of a request; nothing was changed. ``version`` is the match's current version when it matters."""

    def __init__(self, code: str, message: str, *, version: int | None = None) -> None:
        super().__init__(code, message)
        self.version = version

    def as_frame_data(self) -> dict:
        data = self.as_dict()
        if self.version is not None:
            data["version"] = self.version
        return data


MESSAGES = {
    "not_found": _("There is no such table."),
    "not_active": _("This table is not being played."),
    "not_seated": _("You do not sit at this table."),
    "stale": _("The table moved on before your action arrived; here is the current state."),
    "too_early": _("Wait a moment: the others may still challenge the last card."),
    "others_present": _("You can end the table only when everyone else is absent."),
    "chat_empty": _("Say something first."),
    "chat_rate_limited": _("You are chatting too fast: wait a moment."),
    "chat_too_long": _("That chat message is too long."),
    "unknown_phrase": _("There is no such quick phrase."),
    "login_required": _("Log in to chat: visitors may only watch."),
    "intent_budget": _("You have left this game too often: wait a few minutes."),
    "not_legal": _("That action is not one of your legal actions now."),
    "claim_not_allowed": _(
        "You can claim the win only in a two-player ranked game whose opponent left or has been disconnected for "
        "longer than the grace."
    ),
}


# Why a player may not take a seat (``turnengine.writer.seat_refusal``): the lobby and the Bot API answer these, not
# the match socket. A playban's message is built with its end time (``turnengine.fair_play.playban_message``).
SEAT_MESSAGES = {
    "computer_unranked": _("The computer players play friendly tables only: a ranked table seats people."),
    "bots_not_admitted": _("This table does not admit bot accounts."),
    "blocked_by_creator": _("You cannot join this table: its creator blocked you."),
}


def engine_error(code: str, *, version: int | None = None) -> EngineError:
    return EngineError(code, MESSAGES[code], version=version)


def seat_error(code: str) -> EngineError:
    return EngineError(code, SEAT_MESSAGES[code])


@contextmanager
def rule_errors_coded(version: int) -> Iterator[None]:
    """Calls into a game's rules inside this block: a refusal of the rules (``IllegalAction``, ``MalformedAction``)
    reaches the client as an :class:`EngineError` with the rules' own code and the match's ``version``."""
    try:
        yield
    except RulesError as error:
        raise EngineError(error.code, error.message, version=version) from None
