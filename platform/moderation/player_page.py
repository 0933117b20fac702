"""The per-player moderation page in Django admin (``admin/accounts/user/<id>/moderation/``): who the player is,
what is in force, signs of rating farming (``moderation.fair_play``), reports made and received (with the reported chat lines), sanctions, staff-only notes (adding one
is audited), the audit history about them, same-network notices, recent matches, and the quick sanctions with
preset durations. Linked from the report queue, reports, match pages and the user list."""

from __future__ import annotations

from django import forms
from django.contrib import messages
from django.core.exceptions import PermissionDenied
from django.shortcuts import get_object_or_404, redirect
from django.template.response import TemplateResponse
from django.utils.translation import gettext as _
from django.utils.translation import gettext_lazy

from accounts.models import User
from moderation import services
from moderation.admin import sanction_buttons
from moderation.admin_actions import action_url
from moderation.fair_play import NEW_ACCOUNT_AGE, farming_signals
from moderation.models import AuditEntry, Report
from moderation.sanctions import player_restrictions
from ratings.models import Playban, Rating
from turnengine.fair_play import abandonment_record
from turnengine.models import Match, Seat


class NoteForm(forms.Form):
    text = forms.CharField(
        label=gettext_lazy("Add a note (moderators only; the player never sees it)"),
        max_length=2000,
        widget=forms.Textarea(attrs={"rows": 3, "cols": 70}),
    )


def player_page(request, user_id: int, *, admin_site):
    if not request.user.has_perm("accounts.view_user"):
        raise PermissionDenied
    player = get_object_or_404(User, pk=user_id)
    can_sanction = request.user.has_perm("moderation.add_sanction")
    form = NoteForm(request.POST or None)
    if request.method == "POST":
        if not can_sanction:
            raise PermissionDenied
        if form.is_valid():
            services.moderation_add_note(moderator=request.user, user=player, text=form.cleaned_data["text"])
            messages.success(request, _("Note added."))
            return redirect(request.path)
    here = request.get_full_path()
    sanctions = [
        {"sanction": sanction,
         "lift_url": action_url("lift", next_url=here, ids=[sanction.pk])
         if services.lift_refusal(sanction=sanction) is None else None}
        for sanction in player.sanctions.select_related("by", "report")
    ]
    seats = Seat.objects.filter(user=player).select_related("match").order_by("-match__created_at")
    context = {
        **admin_site.each_context(request),
        "title": _("Moderation: %(name)s") % {"name": player.username},
        "player": player,
        "restrictions": player_restrictions(user=player),
        "games_finished": seats.filter(match__status=Match.Status.FINISHED).count(),
        "games_abandoned": seats.filter(abandoned=True).count(),
        "abandonments": abandonment_record(user=player),
        "playbans": Playban.objects.filter(user=player)[:10],
        "ratings": Rating.objects.filter(user=player).order_by("game", "pool"),
        "farming": farming_signals(user=player),
        "new_account_days": NEW_ACCOUNT_AGE.days,
        "refund_url": action_url("refund", next_url=here, users=[player.pk])
        if request.user.has_perm("ratings.add_ratingreversal") and services.refund_refusal(user=player) is None
        else None,
        "buttons": sanction_buttons(next_url=here, users=[player.pk]) if can_sanction else [],
        "sanctions": sanctions,
        "reports_received": Report.objects.filter(reported=player)
        .select_related("reporter", "match").prefetch_related("chat_messages__user")[:50],
        "reports_made": Report.objects.filter(reporter=player).select_related("reported", "match")[:50],
        "notes": player.moderator_notes.select_related("by"),
        "note_form": form if can_sanction else None,
        "audit": AuditEntry.objects.filter(target_user=player).select_related("moderator", "match")[:50],
        "network_notices": services.network_notices_about(user=player),
        "recent_seats": seats[:20],
    }
    return TemplateResponse(request, "admin/accounts/user/moderation.html", context)
