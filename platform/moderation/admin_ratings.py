"""Ratings in Django admin (registered by ``ModerationConfig.ready``): every change visible, ratings read-only, and the reversal of a match's ratings through
the moderators' audited confirmation page (``moderation.admin_actions``)."""

from django.contrib import admin
from django.utils.translation import gettext_lazy as _

from moderation.admin import redirect_to_action
from ratings.models import Rating, RatingChange, RatingReversal
from web.admin_base import ReadOnlyModelAdmin


@admin.register(Rating)
class RatingAdmin(ReadOnlyModelAdmin):
    list_display = ("user", "game", "pool", "display", "games", "updated_at")
    list_filter = ("game", "pool")
    search_fields = ("user__username",)


@admin.register(RatingChange)
class RatingChangeAdmin(ReadOnlyModelAdmin):
    list_display = ("match", "user", "game", "pool", "before", "after", "delta", "abandoned", "reversed_at")
    list_filter = ("game", "pool", "abandoned", ("reversed_at", admin.EmptyFieldListFilter))
    search_fields = ("user__username", "match__id")
    actions = ["reverse_matches"]

    @admin.action(
        description=_("Reverse the ratings of the selected changes' matches…"), permissions=["reverse"]
    )
    def reverse_matches(self, request, queryset):
        match_ids = sorted(set(queryset.values_list("match_id", flat=True)))
        return redirect_to_action("reverse", request, ids=match_ids)

    def has_reverse_permission(self, request):
        return request.user.has_perm("ratings.add_ratingreversal")


@admin.register(RatingReversal)
class RatingReversalAdmin(ReadOnlyModelAdmin):
    list_display = ("match", "by", "reason", "created_at")
    search_fields = ("match__id", "by__username", "reason")
