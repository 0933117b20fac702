"""The header's "Your move" badge: the player's maintained count (``turnengine.awaiting``), read once per page and
only when a template shows it."""

from functools import cache

from turnengine.awaiting import count_of


def turns_waiting(request) -> dict:
    user = getattr(request, "user", None)

    @cache
    def count() -> int:
        return count_of(user)

    return {
        "turns_waiting": count
    }  # a template calls it where it shows the badge; the first call reads the row
