"""The site's user model: Django's user, ours from the first migration so it can grow (bots, guests, ratings,
sanctions), with each name's look-alike skeleton kept unique (``accounts.names``)."""

from django.contrib.auth.models import AbstractUser
from django.core.exceptions import ValidationError
from django.db import models
from django.db.models import Q
from django.utils.translation import gettext_lazy as _

from accounts.names import looks_reserved, name_skeleton


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

    username_skeleton = models.CharField(
        _("name as it looks"),
        max_length=600,
        unique=True,
        editable=False,
        help_text=_("The name's confusable skeleton: no two accounts have names that look alike."),
    )

    class Meta(AbstractUser.Meta):
        swappable = "AUTH_USER_MODEL"
        verbose_name = _("user")
        verbose_name_plural = _("users")

    def save(self, *args, **kwargs):
        self.username_skeleton = stored_skeleton(self.username, self.username_skeleton)
        update_fields = kwargs.get("update_fields")
        if update_fields is not None and "username" in update_fields:
            kwargs["update_fields"] = {*update_fields, "username_skeleton"}
        super().save(*args, **kwargs)

    def clean(self):
        """A name chosen by a person (sign-up, keeping a guest account, a rename in admin) may not start like the
        names the site gives, nor look like another account's name."""
        super().clean()
        if not self.username:
            return  # refused already (empty, or taken: Django's form then leaves no name to check)
        if self.pk is not None and type(self).objects.filter(pk=self.pk, username=self.username).exists():
            return  # the name is not being changed (a staff member editing a computer player, say)
        if looks_reserved(self.username):
            raise ValidationError(
                {"username": _("Names that look like “guest-…” or “bot-…” are kept for the site's own accounts.")},
                code="reserved_name",
            )
        look_alike = Q(username_skeleton=name_skeleton(self.username)) | Q(username__iexact=self.username)
        other = type(self).objects.filter(look_alike).exclude(pk=self.pk).first()
        if other is not None and other.username != self.username:  # the very same name: Django's own message
            message = _("This name looks too much like “%(other)s”: choose another.") % {"other": other.username}
            raise ValidationError({"username": message}, code="look_alike_name")


def stored_skeleton(username: str, stored: str) -> str:
    """The skeleton to store for ``username``: its own, unless the stored one already is it with a ``#`` mark.
    Names that already looked alike when skeletons came (migration ``0004``) keep their accounts, each marked
    apart with its id; a name cannot hold ``#``, so no new name takes theirs."""
    fresh = name_skeleton(username)
    return stored if stored and stored.split("#", 1)[0] == fresh else fresh
