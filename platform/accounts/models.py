"""The site's user model: Django's user, ours from the first migration so it can grow (bots, guests, ratings,
sanctions)."""

from django.contrib.auth.models import AbstractUser
from django.db import models
from django.utils.translation import gettext_lazy as _


class User(AbstractUser):
    is_bot = models.BooleanField(
        _("bot"), default=False, help_text=_("A computer player: never counted as a human on leaderboards.")
    )
    is_guest = models.BooleanField(
        _("guest"),
        default=False,
        help_text=_(
            "An account made on the fly for a visitor who played without signing up: never rated, kept once "
            "they choose a name and password, removed when abandoned."
        ),
    )

    time_zone = models.CharField(
        _("time zone"),
        max_length=64,
        blank=True,
        help_text=_("An IANA zone such as Europe/Paris, detected from the browser; empty: the site's zone."),
    )

    class Meta(AbstractUser.Meta):
        swappable = "AUTH_USER_MODEL"
        verbose_name = _("user")
        verbose_name_plural = _("users")
