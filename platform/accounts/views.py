"""Sign-up and profile pages; log-in, log-out and password pages are Django's own (see urls.py)."""

from django.conf import settings
from django.contrib import messages
from django.contrib.auth import login
from django.shortcuts import get_object_or_404, redirect, render
from django.utils.translation import gettext as _
from django.views.decorators.http import require_http_methods

from accounts.forms import SignUpForm
from accounts.models import User
from accounts.selectors import user_current_matches, user_finished_matches
from ratings.charts import rating_chart_svg
from ratings.pools import POOL_LABELS
from ratings.selectors import user_history, user_ratings
from tapete import throttle
from turnengine import registry


@require_http_methods(["GET", "POST"])
def signup(request):
    if request.user.is_authenticated:
        return redirect("lobby:home")
    form = SignUpForm(request.POST or None)
    if request.method == "POST" and (wait := throttle.SIGNUPS_PER_ADDRESS.wait_seconds(request)):
        messages.error(request, throttle.SIGNUPS_PER_ADDRESS.message(wait))
        return render(request, "registration/signup.html", {"form": SignUpForm()}, status=429)
    if request.method == "POST" and form.is_valid():
        user = form.save()
        throttle.SIGNUPS_PER_ADDRESS.count(request)
        login(request, user, backend=settings.AUTHENTICATION_BACKENDS[0])
        messages.success(request, _("Welcome to Tapete, %(name)s!") % {"name": user.username})
        return redirect("lobby:home")
    return render(request, "registration/signup.html", {"form": form})


def profile(request, username: str):
    player = get_object_or_404(User, username=username)
    finished = user_finished_matches(user=player)
    ratings = [
        {
            "rating": rating,
            "label": f"{registry.get(rating.game).name} · {POOL_LABELS.get(rating.pool, rating.pool)}",
            "chart": rating_chart_svg(
                [change.before for change in history[:1]] + [change.after for change in history],
                f"chart-{rating.game}-{rating.pool}",
            ),
        }
        for rating in user_ratings(user=player)
        for history in [list(user_history(user=player, game=rating.game, pool=rating.pool))]
    ]
    return render(
        request,
        "accounts/profile.html",
        {
            "player": player,
            "current_matches": user_current_matches(user=player),
            "finished_matches": finished[:30],
            "games_played": finished.count(),
            "ratings": ratings,
        },
    )
