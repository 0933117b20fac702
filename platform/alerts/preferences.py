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
