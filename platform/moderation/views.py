"""Players report other players from the table, a chat line or a profile, and acknowledge a moderator's warning."""

from django.contrib import messages
from django.contrib.auth.decorators import login_required
from django.http import Http404, HttpResponse
from django.shortcuts import get_object_or_404, redirect, render
from django.utils.http import url_has_allowed_host_and_scheme
from django.utils.translation import gettext as _
from django.views.decorators.http import require_http_methods

from accounts.models import User
from moderation.forms import ReportForm
from moderation.models import Report
from moderation.services import report_create, sanction_acknowledge
from turnengine.models import Match


@login_required
@require_http_methods(["GET", "POST"])
def report(request, username: str):
    reported = get_object_or_404(User, username=username)
    if reported == request.user:
        raise Http404
    initial = request.GET.dict()
    if initial.get("chat"):  # reported from a chat line: what is said in chat, unless the link says otherwise
        initial.setdefault("reason", Report.Reason.ABUSE)
    form = ReportForm(request.POST or None, initial=initial)
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


@login_required
@require_http_methods(["POST"])
def acknowledge(request, sanction_id: int):
    """The player has read a warning: it stops showing. A table page posts here with ``fetch`` (204)."""
    sanction_acknowledge(user=request.user, sanction_id=sanction_id)
    if request.headers.get("X-Requested-With") == "fetch":
        return HttpResponse(status=204)
    target = request.POST.get("next", "")
    # A path of this site only: ``redirect`` would take any other text for a view's name (NoReverseMatch, a 500).
    if not target.startswith("/") or not url_has_allowed_host_and_scheme(
        target, {request.get_host()}, request.is_secure()
    ):
        target = "/"
    return redirect(target)
