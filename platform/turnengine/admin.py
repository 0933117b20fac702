"""Read-only admin pages for matches (with the full reveal of hidden information, for moderators), their seats,
action log and chat; moderators abort matches, reverse their ratings and hide chat lines from here."""

from django.contrib import admin
from django.utils.translation import gettext_lazy as _

from moderation import services as moderation
from moderation.admin import action_reason
from moderation.forms import ModerationActionForm
from turnengine.models import ChatMessage, Match, MatchAction, Seat


class ReadOnlyInline(admin.TabularInline):
    extra = 0
    can_delete = False

    def has_add_permission(self, request, obj=None):
        return False

    def has_change_permission(self, request, obj=None):
        return False


class SeatInline(ReadOnlyInline):
    model = Seat
    fields = ("index", "user", "joined_at", "connections")
    readonly_fields = fields


@admin.register(Match)
class MatchAdmin(admin.ModelAdmin):
    list_display = (
        "id",
        "game",
        "status",
        "num_players",
        "ranked",
        "created_by",
        "created_at",
        "finished_at",
    )
    list_filter = ("game", "status", "ranked")
    search_fields = ("id", "seats__user__username")
    inlines = [SeatInline]
    readonly_fields = [field.name for field in Match._meta.fields]

    def has_add_permission(self, request):
        return False


@admin.register(MatchAction)
class MatchActionAdmin(admin.ModelAdmin):
    list_display = ("match", "step", "version", "seat", "action", "created_at")
    list_filter = ("match__game",)
    readonly_fields = [field.name for field in MatchAction._meta.fields]

    def has_add_permission(self, request):
        return False

    def has_change_permission(self, request, obj=None):
        return False

    def has_delete_permission(self, request, obj=None):
        return False


@admin.register(ChatMessage)
class ChatMessageAdmin(admin.ModelAdmin):
    list_display = ("created_at", "match", "user", "channel", "text", "hidden")
    list_filter = ("channel", "hidden")
    search_fields = ("text", "user__username")
    readonly_fields = [field.name for field in ChatMessage._meta.fields]
    action_form = ModerationActionForm
    actions = ["hide"]

    @admin.action(description=_("Hide the selected lines"), permissions=["moderate"])
    def hide(self, request, queryset):
        reason = action_reason(request) or str(_("Hidden by a moderator."))
        for message in queryset.filter(hidden=False):
            moderation.moderation_hide_message(moderator=request.user, message=message, reason=reason)

    def has_moderate_permission(self, request):
        return request.user.has_perm("moderation.add_sanction")

    def has_add_permission(self, request):
        return False

    def has_change_permission(self, request, obj=None):
        return False

    def has_delete_permission(self, request, obj=None):
        return False
