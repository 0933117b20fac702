"""The "Moderators" group: exactly the permissions moderating needs. Moderators see matches (with the full
reveal), chat, players and ratings; they handle reports and sanctions, reverse a match's ratings and refund a
cheater's opponents; they cannot edit ratings, accounts or the audit log, and never see passwords."""

from django.contrib.auth.models import Group, Permission

MODERATORS = "Moderators"
PERMISSIONS = [
    ("turnengine", "view_match"),
    ("turnengine", "view_seat"),
    ("turnengine", "view_matchaction"),
    ("turnengine", "view_chatmessage"),
    ("accounts", "view_user"),
    ("ratings", "view_rating"),
    ("ratings", "view_ratingchange"),
    ("ratings", "view_ratingreversal"),
    ("ratings", "add_ratingreversal"),
    ("moderation", "view_report"),
    ("moderation", "change_report"),
    ("moderation", "view_sanction"),
    ("moderation", "add_sanction"),
    ("moderation", "change_sanction"),
    ("moderation", "view_auditentry"),
    ("moderation", "view_networknotice"),
    ("moderation", "view_moderatornote"),
]


def ensure_moderators_group(**kwargs) -> Group:
    """Create or update the group (runs after every migrate)."""
    group, _ = Group.objects.get_or_create(name=MODERATORS)
    permissions = [
        Permission.objects.get(content_type__app_label=app, codename=codename)
        for app, codename in PERMISSIONS
    ]
    group.permissions.set(permissions)
    return group
