"""The Bot API in Django admin: moderators see bot accounts (and sanction them like any player, from the user's
own admin), the tokens of every player (never the tokens themselves: only their first characters) and may revoke
them, and the stored analyses."""

from django.contrib import admin
from django.utils import timezone
from django.utils.translation import gettext_lazy as _

from botapi.models import Analysis, ApiToken, BotAccount
from tapete.admin_base import ReadOnlyModelAdmin


@admin.register(ApiToken)
class ApiTokenAdmin(ReadOnlyModelAdmin):
    list_display = ["name", "user", "hint", "scopes", "created_at", "last_used_at", "revoked_at"]
    list_filter = ["revoked_at"]
    search_fields = ["user__username", "name"]
    actions = ["revoke"]

    @admin.action(description=_("Revoke the selected tokens"))
    def revoke(self, request, queryset):
        count = queryset.filter(revoked_at__isnull=True).update(revoked_at=timezone.now())
        self.message_user(request, _("%(count)s tokens revoked.") % {"count": count})


@admin.register(BotAccount)
class BotAccountAdmin(ReadOnlyModelAdmin):
    list_display = ["user", "converted_at"]
    search_fields = ["user__username"]


@admin.register(Analysis)
class AnalysisAdmin(ReadOnlyModelAdmin):
    list_display = ["match", "computed_at"]
