"""Errors the transport reports to a client (``docs/protocol.md``): a frame it cannot read, a limit reached, a
refused handshake, a failure of the server. Each is an :class:`~turnengine.errors.EngineError` (a socket answers
every refusal alike: an ``error`` frame, the socket left open) with a code and message of the transport's own."""

from django.utils.translation import gettext_lazy as _

from turnengine.errors import EngineError

MESSAGES = {
    "malformed": _("That message could not be understood."),
    "unknown_frame": _("Unknown message kind."),
    "too_large": _("That message is too large."),
    "rate_limited": _("Too many messages: slow down."),
    "control_character": _("Text may not contain control characters."),
    "server_error": _("The server could not handle that message; nothing was changed."),
    "not_logged_in": _("Log in to play."),
    "suspended": _("Your account is suspended."),
    "no_spectators": _("This table does not allow spectators: only its players see it while it is played."),
    "too_many_sockets": _("Too many open connections: close another tab."),
    "sync_limited": _("Too many requests for the whole table: wait a moment."),
    "token_revoked": _("This API token was revoked: programs using it can no longer play."),
}


def transport_error(code: str) -> EngineError:
    return EngineError(code, MESSAGES[code])
