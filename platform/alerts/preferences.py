"""A player's alert preferences, and the signed link that turns their turn e-mails off without logging in."""

from __future__ import annotations

from django.core import signing

from alerts.models import AlertSettings

UNSUBSCRIBE_SALT = "alerts.unsubscribe"


def settings_of(user) -> AlertSettings:
    """``user``'s settings (the defaults, unsaved, until they change one)."""
    return AlertSettings.objects.filter(user=user).first() or AlertSettings(user=user)


def unsubscribe_token(user) -> str:
    return signing.dumps(user.pk, salt=UNSUBSCRIBE_SALT, compress=True)


def unsubscribe(token: str) -> AlertSettings | None:
    """Turn off the e-mails of the player ``token`` names (None: the token is not one this site signed)."""
    try:
        user_id = signing.loads(token, salt=UNSUBSCRIBE_SALT)
    except signing.BadSignature:
        return None
    if not isinstance(user_id, int):
        return None
    AlertSettings.objects.update_or_create(user_id=user_id, defaults={"mail": AlertSettings.Mail.OFF})
    return AlertSettings.objects.filter(user_id=user_id).select_related("user").first()


def remember_language(sender, request, user, **kwargs) -> None:
    """At log-in (``user_logged_in``): keep the language the player's pages are in, chosen by Django's
    ``LocaleMiddleware`` from their choice or their browser, for the e-mails they get later from a worker."""
    language = getattr(request, "LANGUAGE_CODE", "")
    if language:
        AlertSettings.objects.update_or_create(user=user, defaults={"language": language})


def language_of(user) -> str | None:
    """The language ``user``'s e-mails are written in (None: the site's)."""
    return AlertSettings.objects.filter(user=user).values_list("language", flat=True).first() or None
