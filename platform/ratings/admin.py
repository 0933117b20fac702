"""Ratings in Django admin: every change visible, ratings read-only, and an audited reversal of a match."""

from django.contrib import admin, messages
from django.utils.translation import gettext_lazy as _

from ratings.models import Rating, RatingChange, RatingReversal
from ratings.services import rating_reverse_match
from tapete.admin_base import ReadOnlyModelAdmin


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
        description=_("Reverse the ratings of the selected changes' matches"), permissions=["reverse"]
    )
    def reverse_matches(self, request, queryset):
        reason = request.POST.get("reason") or _("Reversed by a moderator from the rating changes list.")
        reversed_total = 0
        for match in {change.match for change in queryset.select_related("match")}:
            reversed_total += rating_reverse_match(match=match, by=request.user, reason=str(reason))
        self.message_user(
            request, _("%(count)d rating changes reversed.") % {"count": reversed_total}, messages.SUCCESS
        )

    def has_reverse_permission(self, request):
        return request.user.has_perm("ratings.add_ratingreversal")


@admin.register(RatingReversal)
class RatingReversalAdmin(ReadOnlyModelAdmin):
    list_display = ("match", "by", "reason", "created_at")
    search_fields = ("match__id", "by__username", "reason")
