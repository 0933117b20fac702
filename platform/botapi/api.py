"""The Bot API over HTTP (django-ninja), mounted at ``/api/``; its OpenAPI schema is ``/api/openapi.json`` and its
interactive docs ``/api/docs/`` (Swagger UI, served from django-ninja's own static files: no CDN).

Every request carries ``Authorization: Bearer <token>``. Reading (GET) needs the token's ``read`` scope, changing
anything (POST) its ``play`` scope. Every error is ``{"code", "message"}`` with a code from ``botapi.errors``. The
views are thin adapters over the lobby's and the engine's services, so a program plays by exactly the rules a
browser does; what a request returns of a running match is built only from the caller's own seat's view.
"""

from __future__ import annotations

from functools import partial

import orjson
from django.core.exceptions import RequestDataTooBig
from django.http import Http404, JsonResponse
from django.views.decorators.cache import never_cache
from ninja import NinjaAPI, Query, Router
from ninja.decorators import decorate_view
from ninja.errors import AuthenticationError, HttpError, Throttled, ValidationError
from ninja.security import HttpBearer
from tapete_sdk import registry

from botapi import schemas, tables, tokens
from botapi.accounts import BotAccountError, bot_account_convert
from botapi.errors import API_ERRORS, ApiError
from botapi.models import SCOPE_PLAY, SCOPE_READ
from botapi.ratelimit import TokenThrottle
from lobby import services as lobby
from lobby.errors import LobbyError, TooManyTables
from realtime.broadcast import run_writer_sync
from turnengine import services
from turnengine.errors import EngineError
from turnengine.updates import frame_for


class TokenAuth(HttpBearer):
    """A live token whose owner is not sanctioned, with the scope the method needs."""

    def authenticate(self, request, token: str):
        try:
            found = tokens.token_authenticate(token)
        except tokens.TokenError as error:
            raise ApiError(error.code) from None
        needed = SCOPE_READ if request.method in {"GET", "HEAD"} else SCOPE_PLAY
        if not found.has_scope(needed):
            raise ApiError("missing_scope", detail={"needed": needed})
        request.user = found.user
        return found


api = NinjaAPI(
    title="Tapete Bot API",
    version="1",
    description="Play the games of Tapete from a program. See docs/bot-api.md.",
    urls_namespace="botapi-api",
    auth=TokenAuth(),
    throttle=[TokenThrottle()],
    docs_url="/docs/",
)


def _error_response(request, error: ApiError):
    return api.create_response(request, error.body(), status=error.status)


api.add_exception_handler(ApiError, _error_response)
api.add_exception_handler(
    AuthenticationError, lambda request, exc: _error_response(request, ApiError("missing_token"))
)
api.add_exception_handler(Throttled, lambda request, exc: _error_response(request, ApiError("rate_limited")))
api.add_exception_handler(
    ValidationError,
    lambda request, exc: _error_response(request, ApiError("invalid_request", detail=_plain(exc.errors))),
)
api.add_exception_handler(Http404, lambda request, exc: _error_response(request, ApiError("not_found")))
# A body over DATA_UPLOAD_MAX_MEMORY_SIZE: Django would answer its HTML 400.
api.add_exception_handler(
    RequestDataTooBig, lambda request, exc: _error_response(request, ApiError("body_too_large"))
)
api.add_exception_handler(
    HttpError, lambda request, exc: _error_response(request, ApiError("invalid_request"))
)
# A lobby refusal's own message (a playban's says until when); the limits on tables also say how long to wait.
api.add_exception_handler(LobbyError, lambda request, exc: _error_response(request, lobby_api_error(exc)))
api.add_exception_handler(EngineError, lambda request, exc: _error_response(request, engine_api_error(exc)))
api.add_exception_handler(BotAccountError, lambda request, exc: _error_response(request, ApiError(exc.code)))


def _plain(errors) -> list[dict]:
    """Pydantic's error list, reduced to what is JSON and useful: where, and what."""
    return [{"loc": list(error.get("loc", ())), "msg": str(error.get("msg", ""))} for error in errors]


def lobby_api_error(error: LobbyError) -> ApiError:
    """The lobby's code; a refusal by the limits on tables also says how long to wait."""
    if isinstance(error, TooManyTables):
        return ApiError(error.code, detail={"retry_after": error.wait_seconds})
    return ApiError(error.code, message=error.message)


def engine_api_error(error: EngineError) -> ApiError:
    """The engine's own codes pass through; a code the game's rules gave is an ``illegal_action``."""
    if error.code in API_ERRORS:
        return ApiError(error.code, version=error.version)
    return ApiError("illegal_action", version=error.version, rule=error.code)


ERRORS = {
    400: schemas.Error,
    401: schemas.Error,
    403: schemas.Error,
    404: schemas.Error,
    409: schemas.Error,
    413: schemas.Error,
    422: schemas.Error,
    429: schemas.Error,
}


def responses(ok) -> dict:
    return {200: ok, **ERRORS}


# --- the account ---------------------------------------------------------------------------------------------

account = Router(tags=["account"])


@account.get("", response=responses(schemas.Account), summary="Who the token belongs to")
def account_show(request):
    return tables.account_json(request.auth)


@account.post(
    "/bot",
    response=responses(schemas.Account),
    summary="Turn this account into a bot account (for ever; only an account that never played)",
)
def account_become_bot(request):
    bot_account_convert(user=request.user)
    request.auth.user.refresh_from_db()
    return tables.account_json(request.auth)


# --- games and tables ----------------------------------------------------------------------------------------

games = Router(tags=["games"])


@games.get(
    "", response=responses(list[schemas.Game]), summary="The games, their options and computer players"
)
def game_list(request):
    return [tables.game_json(rules) for rules in registry.all_games()]


table_router = Router(tags=["tables"])


@table_router.get("", response=responses(list[schemas.Table]), summary="List tables")
def table_list(request, filters: Query[schemas.TableFilter]):
    return tables.table_list(user=request.user, game=filters.game, status=filters.status, mine=filters.mine)


@table_router.post("", response=responses(schemas.Table), summary="Open a table (you take seat 0)")
def table_create(request, body: schemas.TableCreate):
    match = lobby.table_create(
        user=request.user,
        game=body.game,
        num_players=body.num_players,
        options=body.options,
        ranked=body.ranked,
        time_control=body.time_control,
        min_rating=body.min_rating,
        max_rating=body.max_rating,
        allow_bots=body.allow_bots,
        ip_address=request.META.get("REMOTE_ADDR"),
    )
    return tables.table_json(tables.match_or_404(match.pk), user=request.user)


@table_router.get("/{match_id}", response=responses(schemas.Table), summary="One table")
def table_show(request, match_id: int):
    return tables.table_json(tables.match_or_404(match_id), user=request.user)


@table_router.post("/{match_id}/join", response=responses(schemas.Table), summary="Take a seat")
def table_join(request, match_id: int, body: schemas.Join | None = None):
    tables.match_or_404(match_id)
    seat = body.seat if body is not None else None
    lobby.table_join(
        user=request.user, match_id=match_id, seat=seat, ip_address=request.META.get("REMOTE_ADDR")
    )
    return _changed(request, match_id)


@table_router.post(
    "/{match_id}/leave", response=responses(schemas.Table), summary="Stand up before the start"
)
def table_leave(request, match_id: int):
    tables.match_or_404(match_id)
    lobby.table_leave(user=request.user, match_id=match_id)
    return _changed(request, match_id)


@table_router.post("/{match_id}/bot", response=responses(schemas.Table), summary="Seat a computer player")
def table_add_bot(request, match_id: int, body: schemas.AddBot):
    tables.match_or_404(match_id)
    lobby.table_add_bot(user=request.user, match_id=match_id, level=body.level, seat=body.seat)
    return _changed(request, match_id)


@table_router.post("/{match_id}/cancel", response=responses(schemas.Table), summary="Close your table")
def table_cancel(request, match_id: int):
    tables.match_or_404(match_id)
    lobby.table_cancel(user=request.user, match_id=match_id)
    return _changed(request, match_id)


@table_router.post("/{match_id}/start", response=responses(schemas.Table), summary="Start your full table")
def table_start(request, match_id: int):
    tables.match_or_404(match_id)
    lobby.table_start(user=request.user, match_id=match_id)
    return _changed(request, match_id)


def _changed(request, match_id: int) -> dict:
    """The table as it is after a lobby service changed it (the writer told the lobby)."""
    return tables.table_json(tables.match_or_404(match_id), user=request.user)


@table_router.get(
    "/{match_id}/state",
    response=responses(schemas.Frame),
    summary="What your seat sees now (the websocket's snapshot frame)",
)
@decorate_view(never_cache)  # a seat's hidden dice or cards: no cache may keep them
def table_state(request, match_id: int):
    return tables.table_snapshot(tables.match_or_404(match_id), user=request.user)


@table_router.post(
    "/{match_id}/move",
    response=responses(schemas.Frame),
    summary="Play an action (the websocket's act frame)",
)
@decorate_view(never_cache)
def table_move(request, match_id: int, body: schemas.Move):
    match = tables.match_or_404(match_id)
    move = partial(
        services.match_apply_action,
        match_id=match.pk,
        user=request.user,
        expected_version=body.version,
        action=body.action,
    )
    committed = run_writer_sync(move)
    own, _version = frame_for(committed, match.group_name(tables.seat_of(match, request.user)))
    return orjson.loads(own)


@table_router.get(
    "/{match_id}/analysis",
    response=responses(schemas.AnalysisOut),
    summary="The post-game analysis of a finished match",
)
def table_analysis(request, match_id: int):
    return tables.analysis_json(tables.match_or_404(match_id))


def unknown_path(request, rest: str = ""):
    """Any other address under /api/: the same coded error as an unknown table."""
    error = ApiError("not_found")
    return JsonResponse(error.body(), status=error.status)


api.add_router("/account", account)
api.add_router("/games", games)
api.add_router("/tables", table_router)
