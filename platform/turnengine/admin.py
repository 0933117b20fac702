"""Read-only admin pages for matches (with the full reveal of hidden information, for moderators), their seats,
action log and chat; moderators abort matches, reverse their ratings and hide chat lines from here."""

import json

from django.contrib import admin, messages
from django.utils.html import format_html
from django.utils.translation import gettext_lazy as _

from moderation import services as moderation
from moderation.admin import action_reason
from moderation.forms import ModerationActionForm
from tapete.admin_base import ReadOnlyModelAdmin
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
    fields = ("index", "user", "joined_at", "connections", "abandoned", "ip_address")
    readonly_fields = fields


class ActionInline(ReadOnlyInline):
    model = MatchAction
    fields = ("step", "version", "seat", "action", "events", "created_at")
    readonly_fields = fields


class ChatInline(ReadOnlyInline):
    model = ChatMessage
    fields = ("created_at", "user", "channel", "text", "hidden")
    readonly_fields = fields


@admin.register(Match)
class MatchAdmin(ReadOnlyModelAdmin):
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
    inlines = [SeatInline, ActionInline, ChatInline]
    exclude = ("state", "seed")
    readonly_fields = [f.name for f in Match._meta.fields if f.name not in ("state", "seed")] + [
        "full_reveal"
    ]
    action_form = ModerationActionForm
    actions = ["abort", "reverse_ratings"]

    @admin.display(description=_("Full reveal (every hidden die and card, and the secret seed)"))
    def full_reveal(self, match):
        state = json.dumps(match.state, indent=1, sort_keys=True) if match.state else "—"
        return format_html(
            '<p>seed: <code>{}</code></p><pre style="max-height:30rem;overflow:auto">{}</pre>',
            match.seed,
            state,
        )

    @admin.action(description=_("Abort (no result, no rating change)"), permissions=["moderate"])
    def abort(self, request, queryset):
        reason = action_reason(request)
        if reason is None:
            self.message_user(request, _("Give a reason."), messages.ERROR)
            return
        for match in queryset.filter(status__in=[Match.Status.OPEN, Match.Status.ACTIVE]):
            moderation.moderation_abort_match(moderator=request.user, match=match, reason=reason)

    @admin.action(description=_("Reverse the ratings"), permissions=["moderate"])
    def reverse_ratings(self, request, queryset):
        reason = action_reason(request)
        if reason is None:
            self.message_user(request, _("Give a reason."), messages.ERROR)
            return
        for match in queryset:
            moderation.moderation_reverse_ratings(moderator=request.user, match=match, reason=reason)

    def has_moderate_permission(self, request):
        return request.user.has_perm("moderation.add_sanction")


@admin.register(MatchAction)
class MatchActionAdmin(ReadOnlyModelAdmin):
    list_display = ("match", "step", "version", "seat", "action", "created_at")
    list_filter = ("match__game",)
    readonly_fields = [field.name for field in MatchAction._meta.fields]


@admin.register(ChatMessage)
class ChatMessageAdmin(ReadOnlyModelAdmin):
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
