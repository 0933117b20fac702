"""Lobby pages: the home page (Play now, Find opponents), each game's open tables and creation form, How to play,
a table's page, and the table actions. Anonymous clicks that start playing (Play now, join, open a table) play as a
guest (``accounts.guests.login_or_guest``)."""

from __future__ import annotations

from django.contrib import messages
from django.contrib.auth.decorators import login_required
from django.http import Http404
from django.shortcuts import get_object_or_404, redirect, render
from django.template.loader import select_template
from django.urls import reverse
from django.utils.translation import get_language, gettext
from django.views.decorators.http import require_POST
from tapete_sdk import registry
from tapete_sdk.plugin import play_now_players, presets_of

from accounts.guests import login_or_guest
from alerts import vacation
from lobby import featured, option_text, rematch, selectors, services
from lobby.errors import LobbyError, TooManyTables
from lobby.forms import TableForm
from turnengine import bot_seats, clocks
from turnengine.fair_play import playban_durations, playban_notice
from turnengine.models import Match
from turnengine.rematch_offers import rematch_state
from turnengine.views import MAX_SEATS, board_templates, watch_refused
from web.params import BadParameter, int_param


def _rules_or_404(game: str):
    try:
        return registry.get(game)
    except KeyError:
        raise Http404 from None


PLAY_LEVEL_SESSION_KEY = "play_now_level"  # the level last chosen for "Play now" (each game starts at its weakest)


def _too_many_tables(request, error: TooManyTables, page):
    """A table refused by the limits on tables: the page the player was on, with the reason, as HTTP 429."""
    messages.error(request, error.message)
    response = page()
    response.status_code = 429
    return response


def _may_rank(user) -> bool:
    return user.is_authenticated and not user.is_guest


def home(request):
    level = request.session.get(PLAY_LEVEL_SESSION_KEY)
    live = featured.featured_tables()
    games = [
        {
            "rules": rules,
            "open": selectors.open_tables(game=rules.key).count(),
            "levels": bot_seats.level_choices(rules.key),
            "players": play_now_players(rules),
            "picture": select_template([f"{rules.key}/picture.html", "pictures/none.html"]),
            "featured": live.get(rules.key),
        }
        for rules in registry.all_games()
    ]
    return render(request, "lobby/home.html", {"games": games, "level": level, **_all_open_tables(request.user)})


def open_tables(request):
    """The home page's "Find opponents" list, fetched again when the lobby socket says a table changed."""
    return render(request, "lobby/_open_tables.html", _all_open_tables(request.user))


def _all_open_tables(user) -> dict:
    """Every game's open tables with a free seat, oldest first, and why ``user`` may not join the ranked ones if a
    playban bars them (their Join buttons then give way to the reason)."""
    tables = []
    for rules in registry.all_games():
        tables += selectors.with_ratings(selectors.open_tables(game=rules.key))
    free = [match for match in tables if match.seated < match.num_players]
    barred = playban_notice(user=user) if any(match.ranked for match in free) else None
    return {"open_tables": sorted(free, key=lambda match: match.created_at), "playban_message": barred}


def game_lobby(request, game: str):
    rules = _rules_or_404(game)
    form = TableForm(rules, may_rank=_may_rank(request.user))
    return render(request, "lobby/game.html", {"rules": rules, "form": form, **_table_lists(rules)})


def howto(request, game: str):
    """How to play a game, written for players; the page in the reader's language (English if there is none)."""
    rules = _rules_or_404(game)
    language = (get_language() or "en").split("-")[0]
    body = select_template([f"{rules.key}/howto.{language}.html", f"{rules.key}/howto.en.html"])
    options = [
        {
            "option": option,
            "label": gettext(option.label),
            "help": gettext(option.help),
            "default": option_text.value_words(option, option.default),
            "choices": [gettext(label) for _value, label in option.choices]
            if len(option.choices) > 1
            else [],
        }
        for option in rules.options
    ]
    presets = [(gettext(preset.label), gettext(preset.help)) for preset in presets_of(rules)]
    return render(
        request,
        "howto/page.html",
        {
            "rules": rules,
            "body": body,
            "options": options,
            "presets": presets,
            "levels": bot_seats.level_choices(rules.key),
            "level": request.session.get(PLAY_LEVEL_SESSION_KEY),
        },
    )


@login_or_guest
@require_POST
def play_now(request, game: str):
    """One click: a started table of ``game`` against computer players of the chosen (then remembered) level."""
    rules = _rules_or_404(game)
    level = request.POST.get("level") or next(iter(bot_seats.levels(rules.key)), "")
    try:
        match, _update = services.table_play_now(
            user=request.user, game=rules.key, level=level, ip_address=request.META.get("REMOTE_ADDR")
        )
    except TooManyTables as error:
        return _too_many_tables(request, error, lambda: home(request))
    except LobbyError as error:
        messages.error(request, error.message)
        return redirect("lobby:home")
    request.session[PLAY_LEVEL_SESSION_KEY] = level
    return redirect("lobby:table", match_id=match.pk)


def table_list(request, game: str):
    """The live part of a game's lobby page, fetched again when the lobby socket says a table changed."""
    rules = _rules_or_404(game)
    return render(request, "lobby/_tables.html", {"rules": rules, **_table_lists(rules)})


def _table_lists(rules) -> dict:
    return {
        "open_tables": selectors.with_ratings(selectors.open_tables(game=rules.key)),
        "running_tables": selectors.with_ratings(selectors.running_tables(game=rules.key)),
    }


@login_or_guest
@require_POST
def table_create(request, game: str):
    rules = _rules_or_404(game)
    form = TableForm(rules, request.POST, may_rank=_may_rank(request.user))
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
            min_rating=form.cleaned_data.get("min_rating"),
            max_rating=form.cleaned_data.get("max_rating"),
            allow_bots=form.cleaned_data["allow_bots"],
            ip_address=request.META.get("REMOTE_ADDR"),
            grace_seconds=form.cleaned_data["disconnect_grace"],
            spectator_delay=form.cleaned_data.get("spectator_delay", 0),
            spectators_allowed=form.cleaned_data["spectators_allowed"],
        )
    except TooManyTables as error:
        page = {"rules": rules, "form": form, **_table_lists(rules)}
        return _too_many_tables(request, error, lambda: render(request, "lobby/game.html", page))
    except LobbyError as error:
        messages.error(request, error.message)
        return redirect("lobby:game", game=rules.key)
    return redirect("lobby:table", match_id=match.pk)


def table(request, match_id: int):
    match = get_object_or_404(Match.objects.select_related("created_by"), pk=match_id)
    seats = list(match.seats.select_related("user").order_by("index"))
    my_seat = next((seat.index for seat in seats if seat.user_id == request.user.pk), None)
    refused = watch_refused(request, match, my_seat)
    if refused is not None:
        return refused
    context = {
        "match": match,
        "rules": match.rules,
        "seats": seats,
        "free_seats": [i for i in range(match.num_players) if i not in {seat.index for seat in seats}],
        "my_seat": my_seat,
        "invite_url": request.build_absolute_uri(reverse("lobby:invite", args=[match.invite_token])),
        "bot_levels": bot_seats.level_choices(match.game),
        "bot_level": bot_seats.middle_level(match.game),
        "grace_seconds": clocks.of_match(match).grace_ms // clocks.SECOND if match.time_control else 0,
        "playban_durations": playban_durations() if match.ranked else "",
        "playban_message": playban_notice(user=request.user) if match.ranked and my_seat is None else None,
        "away": _away(match, seats),
        **board_templates(match.game),
    }
    if match.status == Match.Status.OPEN and match.rematch_of_id is not None:  # who said no to this rematch
        context["rematch_offer"] = rematch_state(match.rematch_of)
    template = "lobby/waiting.html" if match.status == Match.Status.OPEN else "turnengine/table.html"
    return render(request, template, context)


def _away(match: Match, seats) -> list[tuple[str, object]]:
    """The players of a running turn-based table on vacation (name, until when): shown to everyone there."""
    if match.status != Match.Status.ACTIVE or (match.time_control or {}).get("kind") != clocks.TURN_BASED:
        return []
    away = vacation.at_table(seat.user_id for seat in seats)
    return [(seat.user.username, away[seat.user_id].ends_at) for seat in seats if seat.user_id in away]


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
    return True, result


def _posted_seat(request) -> int | None:
    """The posted seat (None: any free seat); a seat that is not a number is refused like one out of range."""
    try:
        return int_param(request.POST, "seat", maximum=MAX_SEATS)
    except BadParameter:
        raise LobbyError("no_such_seat") from None


@login_or_guest
@require_POST
def table_join(request, match_id: int):
    ip_address = request.META.get("REMOTE_ADDR")
    _run(
        request,
        match_id,
        lambda: services.table_join(
            user=request.user, match_id=match_id, seat=_posted_seat(request), ip_address=ip_address
        ),
    )
    return redirect("lobby:table", match_id=match_id)


@login_required
@require_POST
def table_add_bot(request, match_id: int):
    level = request.POST.get("level", "")
    _run(
        request,
        match_id,
        lambda: services.table_add_bot(
            user=request.user, match_id=match_id, level=level, seat=_posted_seat(request)
        ),
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
    _run(request, match_id, lambda: services.table_start(user=request.user, match_id=match_id))
    return redirect("lobby:table", match_id=match_id)


@login_required
@require_POST
def table_rematch(request, match_id: int):
    """ "Play again" on a result screen: take a seat at the same table's rematch (it starts once everyone is in)."""
    ip_address = request.META.get("REMOTE_ADDR")
    try:
        new, _update = rematch.table_rematch(user=request.user, match_id=match_id, ip_address=ip_address)
    except TooManyTables as error:
        return _too_many_tables(request, error, lambda: table(request, match_id))
    except LobbyError as error:
        messages.error(request, error.message)
        return redirect("lobby:table", match_id=match_id)
    except Match.DoesNotExist:
        raise Http404 from None
    return redirect("lobby:table", match_id=new.pk)


@login_required
@require_POST
def table_rematch_decline(request, match_id: int):
    """ "No, thanks" to a rematch offer: the others see it; back to the game's lobby."""
    match = get_object_or_404(Match, pk=match_id)
    declined, _ = _run(
        request, match_id, lambda: rematch.rematch_decline(user=request.user, match_id=match_id)
    )
    if declined:
        messages.info(request, gettext("You declined the rematch."))
        return redirect("lobby:game", game=match.game)
    return redirect("lobby:table", match_id=match_id)
