"""Read-only admin pages for matches, their seats, action log and chat."""

from django.contrib import admin

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
    list_display = ("match", "user", "text", "created_at")
    search_fields = ("text", "user__username")
    readonly_fields = [field.name for field in ChatMessage._meta.fields]

    def has_add_permission(self, request):
        return False

    def has_change_permission(self, request, obj=None):
        return False
