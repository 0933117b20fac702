"""Sign-up, a guest keeping their account, and profile pages; log-in, log-out and password pages are Django's own
(see urls.py)."""

from django.conf import settings
from django.contrib import messages
from django.contrib.auth import login, update_session_auth_hash
from django.contrib.auth.decorators import login_required
from django.shortcuts import get_object_or_404, redirect, render
from django.utils.translation import gettext as _
from django.views.decorators.http import require_http_methods
from tapete_sdk import registry

from accounts.forms import KeepAccountForm, SignUpForm
from accounts.models import User
from accounts.registration import TooManyAccounts, account_save
from accounts.selectors import finished_games, user_current_matches, user_finished_matches
from ratings.charts import rating_chart_svg
from ratings.pools import pool_label
from ratings.selectors import user_history, user_ratings
from turnengine.fair_play import abandonment_record, playban_notice
from web import throttle


@require_http_methods(["GET", "POST"])
def signup(request):
    if request.user.is_authenticated:
        return redirect("lobby:home")
    form = SignUpForm(request.POST or None)
    if request.method == "POST" and form.is_valid():
        try:
            user = account_save(form, address=throttle.client_address(request))
        except TooManyAccounts as refused:
            messages.error(request, refused.message)
            return render(request, "registration/signup.html", {"form": SignUpForm()}, status=429)
        if user is not None:
            login(request, user, backend=settings.AUTHENTICATION_BACKENDS[0])
            messages.success(request, _("Welcome to Tapete, %(name)s!") % {"name": user.username})
            return redirect("lobby:home")
    return render(request, "registration/signup.html", {"form": form})


@login_required
@require_http_methods(["GET", "POST"])
def keep_account(request):
    """A guest chooses a name and a password; the account, its games and its history stay theirs."""
    if not request.user.is_guest:
        return redirect("profile", request.user.username)
    # The guest's generated name is not offered: it is reserved for guests.
    form = KeepAccountForm(request.POST or None, instance=request.user, initial={"username": ""})
    if request.method == "POST" and form.is_valid():
        try:
            user = account_save(form, address=throttle.client_address(request))
        except TooManyAccounts as refused:
            request.user.refresh_from_db()  # the form changed it in memory; it is still the guest it was
            messages.error(request, refused.message)
            form = KeepAccountForm(instance=request.user, initial={"username": ""})
            return render(request, "registration/keep_account.html", {"form": form}, status=429)
        if user is not None:
            update_session_auth_hash(request, user)
            messages.success(request, _("Your account is yours to keep, %(name)s.") % {"name": user.username})
            return redirect("profile", user.username)
    return render(request, "registration/keep_account.html", {"form": form})


def profile(request, username: str):
    player = get_object_or_404(User, username=username)
    finished = user_finished_matches(user=player)
    ratings = []
    for rating in user_ratings(user=player):
        history = list(user_history(user=player, game=rating.game, pool=rating.pool))
        label = f"{_(registry.get(rating.game).name)} · {pool_label(game=rating.game, pool=rating.pool)}"
        points = [change.before for change in history[:1]] + [change.after for change in history]
        chart = rating_chart_svg(
            points, f"chart-{rating.game}-{rating.pool}", _("Rating history: %(pool)s") % {"pool": label}
        )
        ratings.append({"rating": rating, "label": label, "chart": chart})
    return render(
        request,
        "accounts/profile.html",
        {
            "player": player,
            "current_matches": user_current_matches(user=player),
            "finished_games": finished_games(user=player, matches=finished[:30]),
            "games_played": finished.count(),
            "ratings": ratings,
            "abandonments": abandonment_record(user=player),
            "playban_message": playban_notice(user=player) if request.user == player else None,
        },
    )
