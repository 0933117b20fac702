"""Every error the Bot API answers with: a stable code, its HTTP status and a readable, translated message.

The body of an error is always ``{"code": ..., "message": ...}`` (plus ``version`` when the table's version
matters, and ``rule`` for a move the game refused). docs/bot-api.md lists these codes; a test checks that the list
there and this table agree.
"""

from __future__ import annotations

from django.utils.translation import gettext_lazy as _
from tapete_sdk.plugin import CodedError

from lobby.errors import MESSAGES as LOBBY_MESSAGES
from turnengine.errors import MESSAGES as ENGINE_MESSAGES
from turnengine.errors import SEAT_MESSAGES

# code -> (HTTP status, message)
API_ERRORS: dict[str, tuple[int, object]] = {
    # authentication and limits
    "missing_token": (401, _("Send your API token in an Authorization: Bearer header.")),
    "invalid_token": (401, _("This API token is unknown or was revoked.")),
    "account_suspended": (
        403,
        _("Your account is suspended: its tokens do not work until the sanction ends."),
    ),
    "missing_scope": (403, _("This token lacks the scope this request needs.")),
    "rate_limited": (429, _("Too many requests with this token: slow down.")),
    "too_many_tables": (
        429,
        _("Too many tables were opened by this account or from this network lately: wait retry_after seconds."),
    ),
    "invalid_request": (422, _("The request's parameters or body are not valid.")),
    "not_found": (404, _("There is no such table, game or token.")),
    "method_not_allowed": (405, _("This address does not take this HTTP method: see the Allow header.")),
    "body_too_large": (413, _("The request's body is too large.")),
    # tokens and bot accounts (profile page, and the account endpoints)
    "invalid_token_name": (400, _("Give the token a name of at most 60 characters.")),
    "invalid_scopes": (400, _("Choose at least one scope among play and read.")),
    "too_many_tokens": (409, _("You have too many tokens: revoke one first.")),
    "already_bot": (409, _("This account is already a bot account.")),
    "staff_cannot_be_bot": (409, _("Staff accounts cannot become bot accounts.")),
    "account_has_games": (409, _("Only an account that never played can become a bot account.")),
    # moves over HTTP
    "illegal_action": (409, _("The game refused this action (see rule for the game's own reason).")),
    # post-game analysis
    "no_analysis": (404, _("This game has no post-game analysis.")),
    "match_not_finished": (409, _("A match is analysed only once it is over.")),
    "analysis_pending": (409, _("The analysis of this match is being computed: try again in a moment.")),
}
# The lobby's refusals, with their own messages ("suspended" cannot reach the API: the token is refused first).
LOBBY_CODES = {
    "unknown_game": 404,
    "not_creator": 403,
    "invalid_options": 400,
    "invalid_time_control": 400,
    "ranked_needs_clock": 400,
    "range_needs_ranked": 400,
    "invalid_range": 400,
    "unknown_bot_level": 400,
    "no_such_seat": 400,
    "table_full": 409,
    "already_seated": 409,
    "seat_taken": 409,
    "already_started": 409,
    "not_seated": 409,
    "not_enough_players": 409,
    "creator_cannot_leave": 409,
    "rating_out_of_range": 409,
    "guest_unranked": 403,
}
API_ERRORS.update({code: (status, LOBBY_MESSAGES[code]) for code, status in LOBBY_CODES.items()})
# The engine's refusals of a seat (turnengine.writer.seat_refusal); a playban's answer says until when in its message.
API_ERRORS.update(
    {
        "bots_not_admitted": (403, SEAT_MESSAGES["bots_not_admitted"]),
        "computer_unranked": (403, SEAT_MESSAGES["computer_unranked"]),
        "blocked_by_creator": (403, SEAT_MESSAGES["blocked_by_creator"]),
        "playban": (403, _("You abandoned too many ranked games: ranked tables are closed to you for a while.")),
    }
)
# The engine's refusals of a move ("not_seated" is the lobby's code too, with the same meaning).
API_ERRORS.update({code: (409, ENGINE_MESSAGES[code]) for code in ("not_active", "stale", "too_early")})


class ApiError(CodedError):
    """An answer of the Bot API that refuses: its code's HTTP status, and the body of every error."""

    def __init__(
        self,
        code: str,
        *,
        version: int | None = None,
        rule: str | None = None,
        detail=None,
        message: str | None = None,
    ) -> None:
        super().__init__(code, message_for(code) if message is None else message)
        self.status = API_ERRORS[code][0]
        self.version = version
        self.rule = rule
        self.detail = detail

    def body(self) -> dict:
        data = self.as_dict()
        if self.version is not None:
            data["version"] = self.version
        if self.rule is not None:
            data["rule"] = self.rule
        if self.detail is not None:
            data["detail"] = self.detail
        return data


def message_for(code: str) -> str:
    return str(API_ERRORS[code][1])


class BotApiRefusal(CodedError):
    """A refusal of the Bot API's services (a token, a bot account), with the code's message: the pages show the
    message, the API answers the code (:class:`ApiError`)."""

    def __init__(self, code: str) -> None:
        super().__init__(code, message_for(code))
