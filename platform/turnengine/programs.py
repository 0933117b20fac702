"""Which accounts are played by a program: the Bot API's bot accounts, as opposed to the site's own computer players
(both are ``is_bot`` users). The engine and the lobby sit below the Bot API, so the Bot API installs the answer when
the site starts (``BotApiConfig.ready``); without the Bot API no account is a program's."""

from __future__ import annotations

from collections.abc import Callable

_check: Callable[[object], bool] | None = None


def install_program_check(check: Callable[[object], bool]) -> None:
    """Install the Bot API's answer to "is this account played by its owner's program?"."""
    global _check
    _check = check


def is_bot_account(user) -> bool:
    """A bot account played by its owner's program (not one of the site's computer players)."""
    return _check is not None and _check(user)
