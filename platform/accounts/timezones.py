"""Each person's own time zone: the browser reports it (``static/js/timezone.js`` sets a cookie, URL-encoded as
``Europe%2FParis`` like any cookie value a script writes), a logged-in account stores it (``User.time_zone``), and
this middleware activates it for the request, so every date a page or Django admin shows is in the reader's time."""

from __future__ import annotations

from urllib.parse import unquote
from zoneinfo import ZoneInfo

from django.contrib.auth import get_user_model
from django.utils import timezone

COOKIE_NAME = "tapete_tz"


def zone_named(name: str | None) -> ZoneInfo | None:
    """The IANA zone called ``name``, or None if there is none such."""
    if not name or len(name) > 64:
        return None
    try:
        return ZoneInfo(name)
    except (ValueError, KeyError, OSError):  # ZoneInfoNotFoundError is a KeyError
        return None


class TimeZoneMiddleware:
    """After ``AuthenticationMiddleware``: store a newly detected zone on the account, activate the reader's zone."""

    def __init__(self, get_response):
        self.get_response = get_response

    def __call__(self, request):
        detected = zone_named(unquote(request.COOKIES.get(COOKIE_NAME, "")))
        user = request.user
        zone = detected
        if user.is_authenticated:
            if detected is not None and detected.key != user.time_zone:
                get_user_model().objects.filter(pk=user.pk).update(time_zone=detected.key)
                user.time_zone = detected.key
            zone = zone_named(user.time_zone) or detected
        if zone is None:
            timezone.deactivate()
        else:
            timezone.activate(zone)
        try:
            return self.get_response(request)
        finally:
            timezone.deactivate()
