"""Tournament pages: the list (upcoming, running, finished), a tournament's page with its live part (standings,
rounds, the player's table) fetched again when its socket says it changed, the player's table in play as JSON (the
table page follows it to the next table), join and withdraw, and the creation form for players when the site
allows it."""

from __future__ import annotations

from django.conf import settings
from django.contrib import messages
from django.contrib.auth.decorators import login_required
from django.http import Http404, JsonResponse
from django.shortcuts import get_object_or_404, redirect, render
from django.urls import reverse
from django.views.decorators.http import require_POST

from tournaments import life_cycle, selectors
from tournaments.errors import TournamentError
from tournaments.forms import PlayerTournamentForm
from tournaments.models import Tournament
from tournaments.rules_text import rules_sentences


def may_create(user) -> bool:
    return user.is_authenticated and (user.is_staff or (
        settings.TAPETE_PLAYERS_CREATE_TOURNAMENTS and not user.is_guest and not user.is_bot
    ))


def tournament_list(request):
    return render(request, "tournaments/list.html", {**selectors.tournament_lists(),
                                                     "may_create": may_create(request.user)})


def _live_context(request, tournament: Tournament) -> dict:
    entry = None
    if request.user.is_authenticated:
        entry = tournament.entries.filter(user=request.user).first()
    return {
        "tournament": tournament,
        "standings": selectors.standings(tournament),
        "rounds": selectors.rounds(tournament),
        "entry": entry,
        "my_table": selectors.table_in_play(tournament, request.user),
        "ends_at": life_cycle.arena_ends_at(tournament) if tournament.kind == Tournament.Kind.ARENA else None,
    }


def tournament_page(request, tournament_id: int):
    tournament = get_object_or_404(Tournament, pk=tournament_id)
    context = _live_context(request, tournament)
    context["rules_sentences"] = rules_sentences(tournament)
    return render(request, "tournaments/page.html", context)


def tournament_live(request, tournament_id: int):
    """The page's live part alone, fetched again by its script when the socket says the tournament changed."""
    tournament = get_object_or_404(Tournament, pk=tournament_id)
    return render(request, "tournaments/_live.html", _live_context(request, tournament))


def my_table(request, tournament_id: int):
    """``{"match": id, "url": ..., "version": ..., "status": ...}``: the player's table in play (``null`` for none)
    and the tournament's version and status."""
    tournament = get_object_or_404(Tournament, pk=tournament_id)
    match_id = selectors.table_in_play(tournament, request.user)
    url = reverse("lobby:table", args=[match_id]) if match_id else None
    return JsonResponse({"match": match_id, "url": url, "version": tournament.version, "status": tournament.status})


def _act(request, call) -> None:
    try:
        call()
    except TournamentError as error:
        messages.error(request, error.message)


@login_required
@require_POST
def join(request, tournament_id: int):
    get_object_or_404(Tournament, pk=tournament_id)
    _act(request, lambda: life_cycle.tournament_join(user=request.user, tournament_id=tournament_id))
    return redirect("tournaments:page", tournament_id=tournament_id)


@login_required
@require_POST
def withdraw(request, tournament_id: int):
    get_object_or_404(Tournament, pk=tournament_id)
    _act(request, lambda: life_cycle.tournament_withdraw(user=request.user, tournament_id=tournament_id))
    return redirect("tournaments:page", tournament_id=tournament_id)


@login_required
def create(request):
    """Players create tournaments here when ``TAPETE_PLAYERS_CREATE_TOURNAMENTS`` allows (staff use admin too)."""
    if not may_create(request.user):
        raise Http404
    form = PlayerTournamentForm(request.POST or None)
    if request.method == "POST" and form.is_valid():
        tournament = form.save(commit=False)
        tournament.created_by = request.user
        tournament.save()
        return redirect("tournaments:page", tournament_id=tournament.pk)
    return render(request, "tournaments/create.html", {"form": form})


