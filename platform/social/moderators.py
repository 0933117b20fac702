"""What the Moderators group may read of this app in admin (moderation keeps the group, ``moderation.groups``; the
social app comes after it in ``INSTALLED_APPS``, so its own permissions are added once they exist)."""

from django.contrib.auth.models import Group, Permission

from moderation.groups import MODERATORS

PERMISSIONS = ("view_follow", "view_friendship", "view_block", "view_invitation")


def grant_moderators(**kwargs) -> None:
    group, _ = Group.objects.get_or_create(name=MODERATORS)
    group.permissions.add(
        *Permission.objects.filter(content_type__app_label="social", codename__in=PERMISSIONS)
    )
