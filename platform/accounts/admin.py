"""Players in admin: superusers edit accounts; moderators see them (never their password) and sanction them."""

from django.contrib import admin
from django.contrib.auth.admin import UserAdmin as DjangoUserAdmin
from django.utils.translation import gettext_lazy as _

from accounts.models import User
from moderation.admin import SanctionActionsMixin


@admin.register(User)
class UserAdmin(SanctionActionsMixin, DjangoUserAdmin):
    list_display = ("username", "email", "is_bot", "is_guest", "is_staff", "is_active", "date_joined")
    list_filter = ("is_bot", "is_guest", "is_staff", "is_active")
    fieldsets = (*DjangoUserAdmin.fieldsets, (_("Tapete"), {"fields": ("is_bot", "is_guest")}))

    def sanction_targets(self, queryset):
        return list(queryset)

    def get_fieldsets(self, request, obj=None):
        fieldsets = super().get_fieldsets(request, obj)
        if obj is not None and not request.user.has_perm("accounts.change_user"):
            # Read-only viewers (moderators) never see the password field, not even its hash summary.
            return [
                (name, {**options, "fields": [f for f in options["fields"] if f != "password"]})
                for name, options in fieldsets
            ]
        return fieldsets
