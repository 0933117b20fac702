"""A player's alert preferences, and the signed link that turns their turn e-mails off without logging in (the
page it opens asks first: ``alerts.views.unsubscribe``)."""

from __future__ import annotations

from datetime import timedelta

from django.contrib.auth import get_user_model
from django.core import signing

from alerts.models import AlertSettings

UNSUBSCRIBE_SALT = "alerts.unsubscribe"
# A link works for a year after its e-mail: long enough for any mail program, and an older one is refused (the
# player can still log in to change their settings).
UNSUBSCRIBE_MAX_AGE = timedelta(days=365)


class BadLink(Exception):
    """An unsubscribe link that is not accepted: ``reason`` is ``invalid`` (not signed by this site, changed, or its
    player is gone) or ``expired``."""

    def __init__(self, reason: str) -> None:
        super().__init__(reason)
        self.reason = reason


def settings_of(user) -> AlertSettings:
    """``user``'s settings (the defaults, unsaved, until they change one)."""
    return AlertSettings.objects.filter(user=user).first() or AlertSettings(user=user)


def unsubscribe_token(user) -> str:
    return signing.dumps(user.pk, salt=UNSUBSCRIBE_SALT, compress=True)


def link_user(token: str):
    """The player an unsubscribe link's ``token`` names; :class:`BadLink` if it is not one to act on."""
    try:
        user_id = signing.loads(token, salt=UNSUBSCRIBE_SALT, max_age=UNSUBSCRIBE_MAX_AGE)
    except signing.SignatureExpired:
        raise BadLink("expired") from None
    except signing.BadSignature:
        raise BadLink("invalid") from None
    user = get_user_model().objects.filter(pk=user_id).first() if isinstance(user_id, int) else None
    if user is None:
        raise BadLink("invalid")
    return user


def set_mail(user, mail: str) -> None:
    """Set ``user``'s turn e-mails to ``mail`` (an ``AlertSettings.Mail``)."""
    AlertSettings.objects.update_or_create(user=user, defaults={"mail": mail})


def remember_language(sender, request, user, **kwargs) -> None:
    """At log-in (``user_logged_in``): keep the language the player's pages are in, chosen by Django's
    ``LocaleMiddleware`` from their choice or their browser, for the e-mails they get later from a worker."""
    language = getattr(request, "LANGUAGE_CODE", "")
    if language:
        AlertSettings.objects.update_or_create(user=user, defaults={"language": language})


def language_of(user) -> str | None:
    """The language ``user``'s e-mails are written in (None: the site's)."""
    return AlertSettings.objects.filter(user=user).values_list("language", flat=True).first() or None
