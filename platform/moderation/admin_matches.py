"""Read-only admin pages for matches, their action log and chat (registered by ``ModerationConfig.ready``). A
match's page is written for moderators: the log as sentences (the players' own log text, with every seat's secrets
revealed, the connection lines, and the moves the computer played for an absent player marked as such), the chat
with hide buttons, the seats with their IP addresses and abandonments, the match's rating changes, and the raw state
and seed folded below.
Abort, reverse and hide go through the moderators' confirmation page (``moderation.admin_actions``)."""

import json

from django.contrib import admin
from django.urls import reverse
from django.utils.translation import gettext_lazy as _

from moderation.admin import player_page_url, redirect_to_action
from moderation.admin_actions import action_url
from moderation.models import NetworkNotice, Report
from moderation.services import abort_refusal, reverse_refusal
from ratings.models import RatingChange
from turnengine.models import ChatMessage, Match, MatchAction
from turnengine.played_for import computer_played_steps
from turnengine.views import board_templates
from web.admin_base import ReadOnlyModelAdmin


def revealed_log(match: Match) -> list[dict]:
    """Every logged step with all its events, whoever could see them (moderators see every seat's secrets), and
    the connection lines (a seat disconnected, reconnected, left, came back) after the steps of their version.
    A step the computer played for a seat is marked ``computer``: the seat had left or was marked absent (a
    suspension or a ban makes the player leave), or ran out of time or of the grace while away."""
    notices = list(match.presence_notices.order_by("pk"))
    played_for = computer_played_steps(match)
    rows: list[dict] = []

    def add_notices(before_version: int | None) -> None:
        while notices and (before_version is None or notices[0].version < before_version):
            item = notices.pop(0)
            rows.append({"step": None, "seat": item.notice.get("seat"), "at": item.created_at.isoformat(),
                         "notice": True, "computer": False, "events": [item.notice]})

    for row in match.actions.order_by("step"):
        add_notices(row.version)
        computer = row.step in played_for
        rows.append({
            "step": row.step,
            "seat": row.seat,
            "at": row.created_at.isoformat(),
            "notice": False,
            "computer": computer,
            "events": [{key: value for key, value in event.items() if key != "visible_to"} for event in row.events],
        })
    add_notices(None)
    return rows


@admin.register(Match)
class MatchAdmin(ReadOnlyModelAdmin):
    list_display = ("id", "game", "status", "num_players", "ranked", "created_by", "created_at", "finished_at")
    list_filter = ("game", "status", "ranked")
    search_fields = ("id", "seats__user__username")
    exclude = ("state", "seed")
    readonly_fields = [f.name for f in Match._meta.fields if f.name not in ("state", "seed")]
    actions = ["abort", "reverse_ratings"]
    change_form_template = "admin/turnengine/match/change_form.html"

    @admin.action(description=_("Abort (no result, no rating change)…"), permissions=["moderate"])
    def abort(self, request, queryset):
        return redirect_to_action("abort", request, ids=list(queryset.values_list("pk", flat=True)))

    @admin.action(description=_("Reverse the ratings…"), permissions=["reverse"])
    def reverse_ratings(self, request, queryset):
        return redirect_to_action("reverse", request, ids=list(queryset.values_list("pk", flat=True)))

    def has_moderate_permission(self, request):
        return request.user.has_perm("moderation.add_sanction")

    def has_reverse_permission(self, request):
        return request.user.has_perm("ratings.add_ratingreversal")

    def change_view(self, request, object_id, form_url="", extra_context=None):
        match = self.get_object(request, object_id)
        if match is None:
            return super().change_view(request, object_id, form_url, extra_context)
        return super().change_view(request, object_id, form_url, {**self.moderation_context(request, match),
                                                                 **(extra_context or {})})

    def moderation_context(self, request, match: Match) -> dict:
        here = request.get_full_path()
        absent = (match.clock or {}).get("absent") or [False] * match.num_players
        changes = {change.user_id: change for change in RatingChange.objects.filter(match=match)}
        seats = [
            {
                "seat": seat,
                "player_url": player_page_url(seat.user),
                "absent": absent[seat.index] if seat.index < len(absent) else False,
                "change": changes.get(seat.user_id),
            }
            for seat in match.seats.select_related("user").order_by("index")
        ]
        chat = [
            {"line": line, "hide_url": None if line.hidden else action_url("hide", next_url=here, ids=[line.pk])}
            for line in match.chat.select_related("user").order_by("created_at", "pk")
        ]
        buttons = []
        if request.user.has_perm("moderation.add_sanction") and abort_refusal(match=match) is None:
            buttons.append((_("Abort the match…"), action_url("abort", next_url=here, ids=[match.pk]), "danger"))
        if request.user.has_perm("ratings.add_ratingreversal") and reverse_refusal(match=match) is None:
            buttons.append((_("Reverse the ratings…"), action_url("reverse", next_url=here, ids=[match.pk]), ""))
        return {
            "buttons": buttons,
            "seats": seats,
            "rating_changes": list(changes.values()),
            "chat": chat,
            "reports": Report.objects.filter(match=match).select_related("reported", "reporter"),
            "network_notices": NetworkNotice.objects.filter(match=match),
            "log": revealed_log(match),
            "log_players": [{"seat": row["seat"].index, "username": row["seat"].user.username} for row in seats],
            "raw_state": json.dumps(match.state, indent=1, sort_keys=True) if match.state else "—",
            "seed": match.seed,
            "report_url": reverse("admin:moderation_report_changelist"),
            **board_templates(match.game),
        }


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
    actions = ["hide"]
    change_form_template = "admin/moderation/buttons_change_form.html"

    @admin.action(description=_("Hide the selected lines…"), permissions=["moderate"])
    def hide(self, request, queryset):
        return redirect_to_action("hide", request, ids=list(queryset.values_list("pk", flat=True)))

    def has_moderate_permission(self, request):
        return request.user.has_perm("moderation.add_sanction")

    def change_view(self, request, object_id, form_url="", extra_context=None):
        line = self.get_object(request, object_id)
        buttons = []
        if line is not None:
            buttons.append((_("Player's moderation page"), player_page_url(line.user), "quiet"))
            if not line.hidden and self.has_moderate_permission(request):
                buttons.append((_("Hide this line…"), action_url("hide", next_url=request.get_full_path(),
                                                                 ids=[line.pk]), "danger"))
        return super().change_view(request, object_id, form_url, {"buttons": buttons, **(extra_context or {})})
