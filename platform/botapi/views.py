"""Profile pages of the Bot API: create, list and revoke personal API tokens, and turn a fresh account into a bot
account. The raw token is shown once, on the page answering its creation, and never again."""

from __future__ import annotations

from django.contrib import messages
from django.contrib.auth.decorators import login_required
from django.shortcuts import redirect, render
from django.utils.translation import gettext as _
from django.views.decorators.cache import never_cache
from django.views.decorators.http import require_POST

from botapi import tokens
from botapi.accounts import BotAccountError, bot_account_convert
from botapi.errors import message_for


@never_cache  # the page shows the raw token: no cache may keep it (Cache-Control: no-store)
@login_required
@require_POST
def token_create(request):
    try:
        token, raw = tokens.token_create(
            user=request.user, name=request.POST.get("name", ""), scopes=request.POST.getlist("scopes")
        )
    except tokens.TokenError as error:
        messages.error(request, error.message)
        return redirect("profile", username=request.user.username)
    return render(request, "botapi/token_created.html", {"token": token, "raw": raw})


@login_required
@require_POST
def token_revoke(request, token_id: int):
    if tokens.token_revoke(user=request.user, token_id=token_id):
        messages.success(request, _("The token was revoked: programs using it can no longer play."))
    else:
        messages.error(request, message_for("not_found"))
    return redirect("profile", username=request.user.username)


@login_required
@require_POST
def become_bot(request):
    if request.POST.get("confirm") != "yes":
        messages.error(request, _("Tick the box to confirm: this cannot be undone."))
        return redirect("profile", username=request.user.username)
    try:
        bot_account_convert(user=request.user)
    except BotAccountError as error:
        messages.error(request, error.message)
    else:
        messages.success(request, _("This account is now a bot account."))
    return redirect("profile", username=request.user.username)
