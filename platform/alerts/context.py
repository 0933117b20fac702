"""The header's "Your move" badge: the player's maintained count (``turnengine.awaiting``), read only when a
template shows it."""

from turnengine.awaiting import count_of


def turns_waiting(request) -> dict:
    user = getattr(request, "user", None)
    return {"turns_waiting": lambda: count_of(user)}  # a template calls it, once, where it shows the badge
