"""Tournaments in Django admin: staff create and edit them (before the start) with the game's checks; moderators
see them, their entries and rounds, and reach the confirmation page to cancel one or disqualify a player."""

from django.contrib import admin
from django.utils.translation import gettext_lazy as _

from moderation.admin import redirect_to_action
from tournaments.forms import TournamentForm
from tournaments.models import Entry, Round, Tournament
from web.admin_base import ReadOnlyModelAdmin


class EntryInline(admin.TabularInline):
    model = Entry
    fields = ("user", "status", "score", "absences", "rating", "joined_at")
    readonly_fields = fields
    extra = 0
    can_delete = False
    show_change_link = True

    def has_add_permission(self, request, obj=None):
        return False


@admin.register(Tournament)
class TournamentAdmin(admin.ModelAdmin):
    form = TournamentForm
    list_display = ("name", "kind", "game", "table_size", "starts_at", "status", "ranked")
    list_filter = ("status", "kind", "game", "ranked")
    search_fields = ("name",)
    inlines = [EntryInline]
    actions = ["cancel_tournament"]
    readonly_fields = ("status", "created_by", "started_at", "finished_at")

    def get_readonly_fields(self, request, obj=None):
        if obj is not None and obj.status != Tournament.Status.UPCOMING:  # its rules are set once it starts
            return [*TournamentForm.Meta.fields, *self.readonly_fields]
        return self.readonly_fields

    def save_model(self, request, obj, form, change):
        if not change:
            obj.created_by = request.user
        super().save_model(request, obj, form, change)

    @admin.action(description=_("Cancel the tournament…"), permissions=["moderate"])
    def cancel_tournament(self, request, queryset):
        return redirect_to_action("cancel_tournament", request, ids=list(queryset.values_list("pk", flat=True)))

    def has_moderate_permission(self, request):
        return request.user.has_perm("moderation.add_sanction")


@admin.register(Entry)
class EntryAdmin(ReadOnlyModelAdmin):
    list_display = ("user", "tournament", "status", "score", "absences")
    list_filter = ("status",)
    search_fields = ("user__username", "tournament__name")
    actions = ["disqualify"]

    @admin.action(description=_("Disqualify from the tournament…"), permissions=["moderate"])
    def disqualify(self, request, queryset):
        return redirect_to_action("disqualify", request, ids=list(queryset.values_list("pk", flat=True)))

    def has_moderate_permission(self, request):
        return request.user.has_perm("moderation.add_sanction")


@admin.register(Round)
class RoundAdmin(ReadOnlyModelAdmin):
    list_display = ("tournament", "number", "paired_at")
