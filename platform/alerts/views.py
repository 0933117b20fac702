"""The "Your move" page (the tables awaiting the player, oldest first; its list is fetched again when the lobby
socket says the count changed), "next table waiting for me", the alert settings, and the e-mails' unsubscribe page
(its link asks before it acts; a mail program's one-click unsubscribe acts at once)."""

from django.contrib import messages
from django.contrib.auth.decorators import login_required
from django.db import IntegrityError
from django.http import HttpResponseBadRequest
from django.shortcuts import redirect, render
from django.utils.translation import gettext as _
from django.views.decorators.csrf import csrf_exempt, csrf_protect
from django.views.decorators.http import require_http_methods

from alerts import preferences, selectors, vacation
from alerts.forms import MailForm
from alerts.models import AlertSettings
from web.params import MAX_ID, BadParameter, int_param


@login_required
def your_move(request):
    return render(
        request,
        "alerts/your_move.html",
        {"turns": selectors.awaited_tables(request.user), "on_vacation": vacation.current(request.user)},
    )


@login_required
def your_move_list(request):
    """The live part of the page."""
    return render(request, "alerts/_your_move_list.html", {"turns": selectors.awaited_tables(request.user)})


@login_required
def next_table(request):
    """The table that has waited longest for the player (``?from=`` the one they leave), or the page if none."""
    try:
        after = int_param(request.GET, "from", minimum=1, maximum=MAX_ID)
    except BadParameter as error:
        return HttpResponseBadRequest(str(error.message))
    match_id = selectors.next_awaited(request.user, after=after)
    if match_id is None:
        messages.info(request, _("No other table is waiting for your move."))
        return redirect("alerts:your_move")
    return redirect("lobby:table", match_id=match_id)


@login_required
def alert_settings(request):
    current = preferences.settings_of(request.user)
    form = MailForm(
        request.POST if request.method == "POST" and "mail" in request.POST else None, instance=current
    )
    vacation_form = vacation.VacationForm(request.POST if "vacation_days" in request.POST else None)
    if request.method == "POST":
        if form.is_bound and form.is_valid():
            try:
                form.save()
            except (
                IntegrityError
            ):  # saved by another request meanwhile: this one's choice wins on the next try
                pass
            messages.success(request, _("Your alert settings are saved."))
            return redirect("alerts:settings")
        if vacation_form.is_bound and vacation_form.is_valid():
            if vacation.start(request.user, days=vacation_form.cleaned_data["vacation_days"]) is None:
                messages.error(
                    request, _("No vacation can start: one is running, or no day is left this year.")
                )
            else:
                messages.success(request, _("Your vacation has started: your turn-based clocks are paused."))
            return redirect("alerts:settings")
        if "end_vacation" in request.POST:
            vacation.end(request.user)
            messages.success(request, _("Welcome back: your turn-based clocks run again."))
            return redirect("alerts:settings")
    return render(
        request,
        "alerts/settings.html",
        {
            "form": form,
            "vacation_form": vacation_form,
            "on_vacation": vacation.current(request.user),
            "days_left": vacation.days_left(request.user),
            "has_email": bool(request.user.email),
        },
    )


@csrf_exempt  # only for RFC 8058's one-click POST: the page's own buttons are checked (_unsubscribe_form)
@require_http_methods(["GET", "POST"])
def unsubscribe(request, token: str):
    """The link in every turn e-mail, for anyone who has it (no log-in: the signed token names the player).

    GET only shows what would stop and a button: mail scanners and link previews open links, and must not
    unsubscribe anyone. The button posts back here (CSRF-checked); a mail program's one-click unsubscribe (RFC 8058:
    a POST whose body is ``List-Unsubscribe=One-Click``, without cookie or CSRF token) is the one exempt use."""
    try:
        user = preferences.link_user(token)
    except preferences.BadLink as refusal:
        return render(request, "alerts/unsubscribe.html", {"state": refusal.reason}, status=400)
    if request.method == "POST" and request.POST.get("List-Unsubscribe") == "One-Click":
        preferences.set_mail(user, AlertSettings.Mail.OFF)
        return render(request, "alerts/unsubscribe.html", {"state": "unsubscribed", "player": user})
    if request.method == "POST":
        return _unsubscribe_form(request, user)
    mail = preferences.settings_of(user).mail
    return render(
        request,
        "alerts/unsubscribe.html",
        {"state": "off" if mail == AlertSettings.Mail.OFF else "ask", "player": user, "previous": mail},
    )


@csrf_protect
def _unsubscribe_form(request, user):
    """The page's buttons: ``unsubscribe``, or ``resubscribe`` (back to the choice the player had, ``previous``)."""
    action = request.POST.get("action")
    if action == "unsubscribe":
        previous = preferences.settings_of(user).mail
        preferences.set_mail(user, AlertSettings.Mail.OFF)
        return render(
            request, "alerts/unsubscribe.html", {"state": "unsubscribed", "player": user, "previous": previous}
        )
    if action == "resubscribe":
        previous = request.POST.get("previous")
        if previous not in AlertSettings.Mail.values or previous == AlertSettings.Mail.OFF:
            previous = AlertSettings.Mail.IMMEDIATE
        preferences.set_mail(user, previous)
        return render(request, "alerts/unsubscribe.html", {"state": "resubscribed", "player": user})
    return HttpResponseBadRequest(_("Choose one of the page's buttons."))
