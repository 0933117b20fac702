"""Tables before they start: create with options, join, take a seat, leave, cancel, start; and "Play now", which does
all of it in one step against computer players.

Every service locks the match row through the match writer (``turnengine.writer``), so two players racing for the
last seat, or a join racing the start, resolve in the database: one wins, the other gets a :class:`LobbyError`
with a clear message. The writer also tells open lobby pages of each change once it is committed (nothing for a
refusal).
"""

from __future__ import annotations

from django.db import IntegrityError, transaction
from tapete_sdk import registry
from tapete_sdk.plugin import InvalidOptions, play_now_players

from lobby.errors import LobbyError, TooManyTables
from moderation.sanctions import is_locked_out
from moderation.services import network_notices_for
from ratings.selectors import match_pool, rating_value
from turnengine import bot_seats, clocks, services, writer
from turnengine.errors import EngineError
from turnengine.models import Match, Seat
from turnengine.programs import is_bot_account
from turnengine.spectating import MAX_DELAY
from turnengine.updates import Update
from web import throttle

PLAY_NOW_TIME_CONTROL = clocks.DEFAULT_PROFILE


def table_create(
    *,
    user,
    game: str,
    num_players: int,
    options: dict,
    ranked: bool,
    time_control: str = clocks.DEFAULT_PROFILE,
    min_rating: int | None = None,
    max_rating: int | None = None,
    ip_address: str | None = None,
    grace_seconds: int = clocks.DEFAULT_GRACE_MS // clocks.SECOND,
    allow_bots: bool = False,
    spectator_delay: int = 0,
    spectators_allowed: bool = True,
) -> Match:
    """Open a table; the creator takes seat 0. Options are normalized by the game (invalid ones are refused);
    ``time_control`` names a clock profile (no limit only for friendly tables); a ranked table may be restricted
    to players rated between ``min_rating`` and ``max_rating``; ``grace_seconds`` is how long a disconnected
    player keeps their turn in real time before the computer plays it (``turnengine.clocks``); ``allow_bots``
    admits bot accounts (a bot account's own tables always do: see ``botapi.accounts``); ``spectator_delay`` (ranked
    tables only) makes spectators see the game that many moves late (``turnengine.spectating``); without
    ``spectators_allowed`` only its players (and moderators) watch it while it is played."""
    if is_locked_out(user):
        raise LobbyError("suspended")
    if time_control not in clocks.PROFILES:
        raise LobbyError("invalid_time_control")
    if ranked and clocks.PROFILES[time_control].kind == clocks.NO_LIMIT:
        raise LobbyError("ranked_needs_clock")
    if ranked and user.is_guest:
        raise LobbyError("guest_unranked")
    if (min_rating is not None or max_rating is not None) and not ranked:
        raise LobbyError("range_needs_ranked")
    if not clocks.MIN_GRACE_MS <= grace_seconds * clocks.SECOND <= clocks.MAX_GRACE_MS:
        raise LobbyError("invalid_grace")
    if min_rating is not None and max_rating is not None and min_rating > max_rating:
        raise LobbyError("invalid_range")
    if not 0 <= spectator_delay <= MAX_DELAY or (spectator_delay and not ranked):
        raise LobbyError("invalid_spectator_delay")
    try:
        rules = registry.get(game)
    except KeyError:
        raise LobbyError("unknown_game") from None
    try:
        normalized = rules.normalize_options(options, num_players)
    except InvalidOptions as error:
        raise LobbyError("invalid_options") from error
    count_new_table(user=user, ip_address=ip_address)
    with transaction.atomic():
        try:
            match = writer.open_table(
                game=game,
                options=normalized,
                num_players=num_players,
                ranked=ranked,
                created_by=user,
                time_control=clocks.profile_json(time_control, grace_seconds * clocks.SECOND),
                min_rating=min_rating,
                max_rating=max_rating,
                admits_bots=allow_bots or is_bot_account(user),
                spectator_delay=spectator_delay,
                spectators_allowed=spectators_allowed,
                seats=[Seat(index=0, user=user, ip_address=ip_address)],
            )
        except EngineError as refusal:  # the creator may not sit there (a playban bars ranked tables)
            raise LobbyError.from_seat_refusal(refusal) from None
    return match


def count_new_table(*, user, ip_address: str | None) -> None:
    """Count a new table against the limits of its creator's account and address (``TAPETE_TABLES_PER_USER``,
    ``TAPETE_TABLES_PER_ADDRESS``), whatever asked for it: the form, the Bot API, "Play now", a rematch. A fresh
    account from the same address shares that address's count. :class:`TooManyTables` over either."""
    if wait := throttle.TABLES_PER_USER.take(str(user.pk)):
        raise TooManyTables(throttle.TABLES_PER_USER, wait)
    if ip_address and (wait := throttle.TABLES_PER_ADDRESS.take(throttle.network_of(ip_address))):
        raise TooManyTables(throttle.TABLES_PER_ADDRESS, wait)


def _open(change: writer.MatchChange) -> Match:
    """The locked table of ``change``, refused unless it is waiting in the lobby (no such table: ``DoesNotExist``,
    a 404 for the views and the API)."""
    match = change.match
    if match is None:
        raise Match.DoesNotExist
    if match.status != Match.Status.OPEN:
        raise LobbyError("already_started")
    return match


def table_join(*, user, match_id: int, seat: int | None = None, ip_address: str | None = None) -> Seat:
    """Sit ``user`` at the table: at ``seat`` if given, else at the first free seat."""
    if is_locked_out(user):
        raise LobbyError("suspended")
    with writer.locked(match_id) as change:
        match = _open(change)
        taken = set(match.seats.values_list("index", flat=True))
        if match.seats.filter(user=user).exists():
            raise LobbyError("already_seated")
        if match.ranked and user.is_guest:
            raise LobbyError("guest_unranked")
        _check_rating_range(match, user)
        if seat is None:
            free = [index for index in range(match.num_players) if index not in taken]
            if not free:
                raise LobbyError("table_full")
            seat = free[0]
        elif not 0 <= seat < match.num_players:
            raise LobbyError("no_such_seat")
        elif seat in taken:
            raise LobbyError("seat_taken")
        try:
            with transaction.atomic():
                taken_seat = seat_player(match, user=user, index=seat, ip_address=ip_address)
        except IntegrityError:
            raise LobbyError("seat_taken") from None
        change.commit(seats_changed=True)
        return taken_seat


def table_add_bot(*, user, match_id: int, level: str, seat: int | None = None) -> Seat:
    """The creator seats a computer player of ``level`` at a free seat."""
    with writer.locked(match_id) as change:
        match = _open(change)
        if match.created_by_id != user.pk:
            raise LobbyError("not_creator")
        if level not in bot_seats.levels(match.game):
            raise LobbyError("unknown_bot_level")
        taken = set(match.seats.values_list("index", flat=True))
        free = [index for index in range(match.num_players) if index not in taken]
        if seat is None:
            if not free:
                raise LobbyError("table_full")
            seat = free[0]
        elif seat not in free:
            raise LobbyError("seat_taken" if 0 <= seat < match.num_players else "no_such_seat")
        robot = bot_seats.bot_user(level=level, taken_user_ids=set(match.seats.values_list("user_id", flat=True)))
        taken_seat = seat_player(match, user=robot, index=seat)
        match.bot_seats = sorted([*match.bot_seats, seat])
        change.commit(changed=("bot_seats",))
        return taken_seat


def seat_player(match: Match, *, user, index: int, ip_address: str | None = None) -> Seat:
    """Seat ``user`` through the writer, which decides under the table's lock who may sit there (a ranked table
    seats people only; bot accounts sit where the table admits them; a playban bars ranked tables)."""
    try:
        return writer.seat_player(match, user=user, index=index, ip_address=ip_address)
    except EngineError as refusal:
        raise LobbyError.from_seat_refusal(refusal) from None


def _check_rating_range(match: Match, user) -> None:
    """Ranked tables may be restricted to a rating range in the table's pool."""
    if match.min_rating is None and match.max_rating is None:
        return
    rating = rating_value(user=user, game=match.game, pool=match_pool(match))
    if (match.min_rating is not None and rating < match.min_rating) or (
        match.max_rating is not None and rating > match.max_rating
    ):
        raise LobbyError("rating_out_of_range")


def table_leave(*, user, match_id: int) -> None:
    """Stand up from a table that has not started (the creator cancels instead)."""
    with writer.locked(match_id) as change:
        match = _open(change)
        if match.created_by_id == user.pk:
            raise LobbyError("creator_cannot_leave")
        deleted, _ = Seat.objects.filter(match=match, user=user).delete()
        if not deleted:
            raise LobbyError("not_seated")
        change.commit(seats_changed=True)


def table_cancel(*, user, match_id: int) -> None:
    """The creator closes a table that has not started."""
    with writer.locked(match_id) as change:
        match = _open(change)
        if match.created_by_id != user.pk:
            raise LobbyError("not_creator")
        match.status = Match.Status.ABORTED
        change.commit(changed=("status",))


def table_start(*, user, match_id: int) -> Update:
    """The creator starts a full table: the engine deals, and every seat gets its first view after the commit."""
    with writer.locked(match_id) as change:
        match = _open(change)
        if match.created_by_id != user.pk:
            raise LobbyError("not_creator")
        if match.seats.count() < match.num_players:
            raise LobbyError("not_enough_players")
        services.match_begin(change)
        network_notices_for(match=match)
    return change.update


def table_start_for(
    *, created_by, users: list, game: str, options: dict, ranked: bool, time_control: str
) -> Match:
    """A table for players chosen elsewhere (a tournament's pairing): every seat taken, in the order of ``users``,
    and started at once, all or nothing. Each seat is checked as any seat is (a ranked table seats people only, a
    playban bars it: :class:`LobbyError`); ``time_control`` names a clock profile; every seat gets its first view
    on commit."""
    try:
        normalized = registry.get(game).normalize_options(options, len(users))
    except (KeyError, InvalidOptions):
        raise LobbyError("invalid_options") from None
    if time_control not in clocks.PROFILES:
        raise LobbyError("invalid_time_control")
    with transaction.atomic():
        try:
            match = writer.open_table(
                game=game,
                options=normalized,
                num_players=len(users),
                ranked=ranked,
                created_by=created_by,
                time_control=clocks.profile_json(time_control),
                seats=[Seat(index=index, user=user) for index, user in enumerate(users)],
            )
        except EngineError as refusal:
            raise LobbyError.from_seat_refusal(refusal) from None
        with writer.locked(match.pk) as change:
            services.match_begin(change)
    return match


def table_play_now(
    *, user, game: str, level: str, ip_address: str | None = None
) -> tuple[Match, Update]:
    """One click to a game: a friendly table of ``game`` with the game's "Play now" seat count and default options,
    the player at seat 0, computer players of ``level`` at every other seat, started at once. All or nothing."""
    try:
        rules = registry.get(game)
    except KeyError:
        raise LobbyError("unknown_game") from None
    if level not in bot_seats.levels(game):
        raise LobbyError("unknown_bot_level")
    with transaction.atomic():
        match = table_create(
            user=user,
            game=game,
            num_players=play_now_players(rules),
            options={},
            ranked=False,
            time_control=PLAY_NOW_TIME_CONTROL,
            ip_address=ip_address,
        )
        for _index in range(1, match.num_players):
            table_add_bot(user=user, match_id=match.pk, level=level)
        update = table_start(user=user, match_id=match.pk)
    return match, update
