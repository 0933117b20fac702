"""Players report other players from the table, a chat line or a profile."""

from django.contrib import messages
from django.contrib.auth.decorators import login_required
from django.http import Http404
from django.shortcuts import get_object_or_404, redirect, render
from django.utils.translation import gettext as _
from django.views.decorators.http import require_http_methods

from accounts.models import User
from moderation.forms import ReportForm
from moderation.services import report_create
from turnengine.models import Match


@login_required
@require_http_methods(["GET", "POST"])
def report(request, username: str):
    reported = get_object_or_404(User, username=username)
    if reported == request.user:
        raise Http404
    form = ReportForm(request.POST or None, initial=request.GET.dict())
    if request.method == "POST" and form.is_valid():
        data = form.cleaned_data
        match = Match.objects.filter(pk=data["match"]).first() if data["match"] else None
        report_create(
            reporter=request.user,
            reported=reported,
            reason=data["reason"],
            comment=data["comment"],
            match=match,
            move=data["move"],
            chat_message_ids=[data["chat"]] if data["chat"] else [],
        )
        messages.success(request, _("Thank you: a moderator will look at your report."))
        return redirect("lobby:table", match_id=match.pk) if match else redirect("profile", username=username)
    return render(request, "moderation/report.html", {"form": form, "reported": reported})
