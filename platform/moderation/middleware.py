"""Ends the session of a player suspended or banned while logged in, at their next page."""

from django.contrib import messages
from django.contrib.auth import logout
from django.utils.translation import gettext as _

from moderation.services import is_locked_out


class SanctionMiddleware:
    def __init__(self, get_response):
        self.get_response = get_response

    def __call__(self, request):
        user = getattr(request, "user", None)
        if user is not None and user.is_authenticated and not user.is_staff and is_locked_out(user):
            logout(request)
            messages.error(request, _("Your account is suspended."))
        return self.get_response(request)
