"""Read-only match pages and data: the replay page and its steps, the published action log of a finished match
(with its seed, so anyone can re-derive every roll and shuffle), and the page that refuses a table that allows no
spectators to someone not seated there."""

import json
from functools import cache

from django.contrib.staticfiles import finders
from django.http import Http404, HttpResponseForbidden, JsonResponse
from django.shortcuts import get_object_or_404, render
from django.template.loader import select_template
from django.utils.translation import gettext as _
from django.views.decorators.cache import never_cache

from turnengine.models import Match
from turnengine.queue_health import queue_report
from turnengine.replays import replay_frame, replay_seats
from turnengine.seat_frames import seats_public
from turnengine.spectating import may_watch
from web.params import BadParameter, int_param

MAX_SEATS = 64  # far above any game's seat count: the services check the real range


def board_templates(game: str) -> dict:
    """The templates that link the game's board, and its assets found by convention among the static files:
    ``<game>/board.css`` and ``<game>/board.js`` (a game may have neither); its own keys for the table's "Keys"
    help, ``<game>/keys.html``, if it has any."""
    return {
        "board_head": "turnengine/board/head.html",
        "board_scripts": "turnengine/board/scripts.html",
        "board_keys": select_template([f"{game}/keys.html", "turnengine/board/keys.html"]),
        "board_css": static_asset(f"{game}/board.css"),
        "board_js": static_asset(f"{game}/board.js"),
    }


@cache
def static_asset(path: str) -> str | None:
    """``path`` if a static-files finder has it (the game's app, or the site's folder), else None."""
    return path if finders.find(path) else None


def watch_refused(request, match: Match, seat: int | None):
    """The page that tells someone not seated at a table that allows no spectators that they may not see it (403:
    the table exists, and its players are no secret; only its game is), or None when they may
    (``spectating.may_watch``)."""
    if may_watch(match, request.user, seat):
        return None
    return render(request, "turnengine/no_spectators.html", {"match": match, "rules": match.rules}, status=403)


def _own_seat(match: Match, user) -> int | None:
    if not user.is_authenticated:
        return None
    return match.seats.filter(user=user).values_list("index", flat=True).first()


def _replayable(match_id: int) -> Match:
    match = get_object_or_404(Match, pk=match_id)
    if match.status == Match.Status.OPEN or match.version == 0:
        raise Http404(_("This table has not started."))
    return match


def replay(request, match_id: int):
    match = _replayable(match_id)
    refused = watch_refused(request, match, _own_seat(match, request.user))
    if refused is not None:
        return refused
    seats = replay_seats(match=match, user=request.user)
    players = seats_public(match)
    names = {player["seat"]: player["username"] for player in players}
    choices = [
        ("" if seat is None else str(seat), _("Spectator") if seat is None else names[seat]) for seat in seats
    ]
    own = next(
        (seat for seat in seats if seat is not None and names.get(seat) == request.user.get_username()), None
    )
    seat = own if own is not None else seats[0]
    return render(
        request,
        "turnengine/replay.html",
        {
            "match": match,
            "rules": match.rules,
            "total": match.version,
            "seat": seat,
            "seat_value": "" if seat is None else str(seat),
            "seat_choices": choices if len(choices) > 1 else [],
            "players_json": json.dumps(players),
            **board_templates(match.game),
        },
    )


@never_cache  # a seat's view of a running match holds its secrets: no cache may keep it
def replay_data(request, match_id: int):
    match = _replayable(match_id)
    try:
        seat = int_param(request.GET, "seat", maximum=MAX_SEATS)
        step = int_param(request.GET, "step")
    except BadParameter as error:
        return JsonResponse(error.as_json(), status=400)
    if seat not in replay_seats(match=match, user=request.user) or not may_watch(
        match, request.user, _own_seat(match, request.user)
    ):
        return HttpResponseForbidden(_("You may not see this seat's view."))
    version = match.version if step is None else step
    return JsonResponse(replay_frame(match=match, seat=seat, version=version))


def match_log(request, match_id: int):
    match = get_object_or_404(Match, pk=match_id)
    if not match.seed_is_public:
        raise Http404(_("The log is published when the match ends."))
    actions = match.actions.order_by("step").values("step", "seat", "action")
    return JsonResponse(
        {
            "match_id": match.pk,
            "game": match.game,
            "num_players": match.num_players,
            "options": match.options,
            "seed": match.seed,
            "seed_hash": match.seed_hash,
            "chance_rng": "random.Random(f'{seed}:{step}')",
            "result": match.result,
            "actions": list(actions),
        }
    )


def queue_health(request):
    """The operator's health check (``turnengine.queue_health``): JSON, 200 when beat and both queues keep up, 503
    when one is late. It holds ages and counts only."""
    report = queue_report()
    return JsonResponse(report, status=200 if report["healthy"] else 503)
