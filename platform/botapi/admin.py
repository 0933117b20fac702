"""The Bot API in Django admin: moderators see bot accounts, the tokens of every player (never the tokens
themselves: only their first characters) and the stored analyses, all read-only. To stop a program, a moderator
sanctions its account like any player's (an audited action, with a reason): a suspended or banned account's tokens
stop working at once. Only the owner revokes a token, on their profile."""

from django.contrib import admin

from botapi.models import Analysis, ApiToken, BotAccount
from web.admin_base import ReadOnlyModelAdmin


@admin.register(ApiToken)
class ApiTokenAdmin(ReadOnlyModelAdmin):
    list_display = ["name", "user", "hint", "scopes", "created_at", "last_used_at", "revoked_at"]
    list_filter = ["revoked_at"]
    search_fields = ["user__username", "name"]


@admin.register(BotAccount)
class BotAccountAdmin(ReadOnlyModelAdmin):
    list_display = ["user", "converted_at"]
    search_fields = ["user__username"]


@admin.register(Analysis)
class AnalysisAdmin(ReadOnlyModelAdmin):
    list_display = ["match", "computed_at"]
