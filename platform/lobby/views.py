"""Lobby pages: the games, each game's open tables and creation form, a table's page, and the table actions."""

from __future__ import annotations

from django.contrib import messages
from django.contrib.auth.decorators import login_required
from django.http import Http404
from django.shortcuts import get_object_or_404, redirect, render
from django.urls import reverse
from django.views.decorators.http import require_POST

from lobby import selectors, services
from lobby.errors import LobbyError
from lobby.forms import TableForm
from lobby.notify import lobby_changed
from turnengine import bots, registry
from turnengine.broadcast import broadcast_sync
from turnengine.models import Match
from turnengine.views import board_templates


def _rules_or_404(game: str):
    try:
        return registry.get(game)
    except KeyError:
        raise Http404 from None


def home(request):
    games = [
        {"rules": rules, "open": selectors.open_tables(game=rules.key).count()}
        for rules in registry.all_games()
    ]
    return render(request, "lobby/home.html", {"games": games})


def game_lobby(request, game: str):
    rules = _rules_or_404(game)
    form = TableForm(rules)
    return render(request, "lobby/game.html", {"rules": rules, "form": form, **_table_lists(rules)})


def table_list(request, game: str):
    """The live part of a game's lobby page, fetched again when the lobby socket says a table changed."""
    rules = _rules_or_404(game)
    return render(request, "lobby/_tables.html", {"rules": rules, **_table_lists(rules)})


def _table_lists(rules) -> dict:
    return {
        "open_tables": selectors.with_ratings(selectors.open_tables(game=rules.key)),
        "running_tables": selectors.with_ratings(selectors.running_tables(game=rules.key)),
    }


@login_required
@require_POST
def table_create(request, game: str):
    rules = _rules_or_404(game)
    form = TableForm(rules, request.POST)
    if not form.is_valid():
        return render(
            request, "lobby/game.html", {"rules": rules, "form": form, **_table_lists(rules)}, status=400
        )
    try:
        match = services.table_create(
            user=request.user,
            game=rules.key,
            num_players=form.cleaned_data["num_players"],
            options=form.cleaned_data["options"],
            ranked=form.cleaned_data["ranked"],
            time_control=form.cleaned_data["time_control"],
            min_rating=form.cleaned_data["min_rating"],
            max_rating=form.cleaned_data["max_rating"],
            allow_bots=form.cleaned_data["allow_bots"],
            ip_address=request.META.get("REMOTE_ADDR"),
        )
    except LobbyError as error:
        messages.error(request, error.message)
        return redirect("lobby:game", game=rules.key)
    lobby_changed(match)
    return redirect("lobby:table", match_id=match.pk)


def table(request, match_id: int):
    match = get_object_or_404(Match.objects.select_related("created_by"), pk=match_id)
    seats = list(match.seats.select_related("user").order_by("index"))
    my_seat = next((seat.index for seat in seats if seat.user_id == request.user.pk), None)
    context = {
        "match": match,
        "rules": match.rules,
        "seats": seats,
        "free_seats": [i for i in range(match.num_players) if i not in {seat.index for seat in seats}],
        "my_seat": my_seat,
        "invite_url": request.build_absolute_uri(reverse("lobby:invite", args=[match.invite_token])),
        "bot_levels": list(bots.levels(match.game)),
        **board_templates(match.game),
    }
    template = "lobby/waiting.html" if match.status == Match.Status.OPEN else "turnengine/table.html"
    return render(request, template, context)


def invite(request, token: str):
    match = get_object_or_404(Match, invite_token=token)
    return redirect("lobby:table", match_id=match.pk)


def _run(request, match_id: int, action) -> tuple[bool, object]:
    """Run a lobby service; on refusal show its message. Returns (succeeded, result)."""
    try:
        result = action()
    except LobbyError as error:
        messages.error(request, error.message)
        return False, None
    except Match.DoesNotExist:
        raise Http404 from None
    lobby_changed(Match.objects.get(pk=match_id))
    return True, result


@login_required
@require_POST
def table_join(request, match_id: int):
    raw_seat = request.POST.get("seat", "")
    seat = int(raw_seat) if raw_seat.isdigit() else None
    ip_address = request.META.get("REMOTE_ADDR")
    _run(
        request,
        match_id,
        lambda: services.table_join(user=request.user, match_id=match_id, seat=seat, ip_address=ip_address),
    )
    return redirect("lobby:table", match_id=match_id)


@login_required
@require_POST
def table_add_bot(request, match_id: int):
    raw_seat = request.POST.get("seat", "")
    seat = int(raw_seat) if raw_seat.isdigit() else None
    level = request.POST.get("level", "")
    _run(
        request,
        match_id,
        lambda: services.table_add_bot(user=request.user, match_id=match_id, level=level, seat=seat),
    )
    return redirect("lobby:table", match_id=match_id)


@login_required
@require_POST
def table_leave(request, match_id: int):
    match = get_object_or_404(Match, pk=match_id)
    left, _ = _run(request, match_id, lambda: services.table_leave(user=request.user, match_id=match_id))
    return redirect("lobby:game", game=match.game) if left else redirect("lobby:table", match_id=match_id)


@login_required
@require_POST
def table_cancel(request, match_id: int):
    match = get_object_or_404(Match, pk=match_id)
    cancelled, _ = _run(
        request, match_id, lambda: services.table_cancel(user=request.user, match_id=match_id)
    )
    return (
        redirect("lobby:game", game=match.game) if cancelled else redirect("lobby:table", match_id=match_id)
    )


@login_required
@require_POST
def table_start(request, match_id: int):
    started, update = _run(
        request, match_id, lambda: services.table_start(user=request.user, match_id=match_id)
    )
    if started:
        broadcast_sync(update)
    return redirect("lobby:table", match_id=match_id)
