"""Tells a sanctioned player on every page. A suspended or banned player stays logged in, and every page they open
(but log-out, the language switch and the acknowledgement of a warning) is the page that says what happened, why
and until when; a warning shows as a banner on every page until they acknowledge it (``moderation/_notices.html``,
through :func:`notices_context`).

Order: after ``AuthenticationMiddleware`` (it reads ``request.user``; ``backends.SanctionAwareBackend`` keeps a
locked-out player's session user, it only refuses new log-ins) and ``accounts.timezones.TimeZoneMiddleware`` (the
dates are in the player's zone)."""

from django.shortcuts import render
from django.utils.functional import SimpleLazyObject

from moderation.notices import sanction_message
from moderation.sanctions import Restrictions, player_restrictions

ALLOWED_WHILE_LOCKED_OUT = {"logout", "set_language", "javascript-catalog", "moderation:acknowledge"}


class SanctionMiddleware:
    def __init__(self, get_response):
        self.get_response = get_response

    def __call__(self, request):
        user = request.user
        request.moderation = (
            SimpleLazyObject(lambda: player_restrictions(user=user)) if user.is_authenticated else Restrictions()
        )
        return self.get_response(request)

    def process_view(self, request, view_func, view_args, view_kwargs):
        lockout = request.moderation.lockout
        if lockout is None or request.resolver_match.view_name in ALLOWED_WHILE_LOCKED_OUT:
            return None
        return render(
            request,
            "moderation/restricted.html",
            {"sanction": lockout, "message": sanction_message(lockout)},
            status=403,
        )


def notices_context(request) -> dict:
    """Template context: the warnings the player has not acknowledged yet, with their text."""
    restrictions = getattr(request, "moderation", None)
    if restrictions is None:
        return {}
    return {
        "moderation_warnings": SimpleLazyObject(
            lambda: [(warning, sanction_message(warning)) for warning in restrictions.warnings]
        )
    }
