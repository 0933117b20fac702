"""What each seat receives: the frames a change sends (a seat's view of a new version, everyone's presence) and
the snapshot a socket gets on connect. Unredacted state never leaves this module: every view is built per seat
from the rules' ``view`` of that seat, and the events a seat may not see are dropped here."""

from __future__ import annotations

from django.db.models import OuterRef, QuerySet
from django.utils import timezone

from ratings.models import RatingChange
from ratings.selectors import match_pool, rating_of
from turnengine import clocks
from turnengine.chat import recent_chat
from turnengine.models import Match, MatchAction, PresenceNotice, Seat
from turnengine.spectating import delayed_payload, is_delayed
from turnengine.updates import Update, encode_frame
from web.compiled import Compiled


def visible_events(events: list[dict], seat: int | None) -> list[dict]:
    """The events ``seat`` (None: spectators) may see, without their visibility tags."""
    return [
        {key: value for key, value in event.items() if key != "visible_to"}
        for event in events
        if event.get("visible_to") is None or (seat is not None and seat in event["visible_to"])
    ]


def match_meta(match: Match) -> dict:
    """Public facts about the match that every frame of a new version carries (clocks included; once it is over,
    each seat's rating change on a ranked table)."""
    return {
        "status": match.status,
        "result": match.result,
        "seed_hash": match.seed_hash,
        "seed": match.seed if match.seed_is_public else None,
        "clock": clock_payload(match),
        "rating_changes": rating_changes(match) if match.status == Match.Status.FINISHED else None,
    }


def rating_changes(match: Match) -> dict[str, dict] | None:
    """Seat -> its rating before and after this match and the change, for a rated finished match."""
    if not match.ranked:
        return None
    seats = dict(match.seats.values_list("user_id", "index"))
    rows = RatingChange.objects.filter(match=match, reversed_at__isnull=True).values_list(
        "user_id", "before", "after", "delta"
    )
    return {
        str(seats[user_id]): {"before": round(before), "after": round(after), "delta": round(delta)}
        for user_id, before, after, delta in rows
        if user_id in seats
    }


def clock_payload(match: Match) -> dict | None:
    """Every seat's time: bank left, the deadline of running clocks (epoch ms; none once the match is over or
    aborted), when each clock starts (``since``: later than now during a reveal pause), the disconnection grace,
    absences; plus the server's time so clients can count down without trusting their own clock."""
    if not match.clock:
        return None
    control = clocks.of_match(match)
    running = match.status == Match.Status.ACTIVE
    return {
        "kind": control.kind,
        "bank_ms": match.clock["bank"],
        "deadlines": {
            str(seat): deadline for seat, deadline in clocks.deadlines(match.clock, control).items()
        }
        if running
        else {},
        "since": match.clock["since"] if running else [None] * match.num_players,
        "windows": [window is not None for window in match.clock["window"]],
        "absent": match.clock["absent"],
        "grace_ms": control.grace_ms,
        "server_ms": clocks.epoch_ms(timezone.now()),
    }


def seat_payload(match: Match, seat: int | None, events: list[dict], meta: dict | None = None) -> dict:
    """What ``seat`` (None: spectators) sees of the match now; ``meta`` is :func:`match_meta`, if already built."""
    rules = match.rules
    return {
        **(meta or match_meta(match)),
        "seat": seat,
        "view": rules.view(match.state, seat),
        "legal": rules.legal_actions(match.state, seat) if seat is not None else [],
        "events": visible_events(events, seat),
    }


def build_update(match: Match, logged: list[MatchAction]) -> Update:
    events = [event for row in logged for event in row.events]
    meta = match_meta(match)
    watched = match.spectator_connections > 0  # read under the match's row lock: see presence.connection_open
    update = Update(match_id=match.pk, version=match.version, table=match.group_name("all"))
    for seat in [*range(match.num_players), *([None] if watched else [])]:
        payload = (
            delayed_payload(match, meta, whole_log=False)  # once per version, never from a seat's view
            if seat is None and is_delayed(match)
            else seat_payload(match, seat, events, meta)
        )
        update.frames[match.group_name(seat)] = encode_frame("view", match.version, payload)
    return update


def match_snapshot(
    *,
    match: Match,
    seat: int | None,
    extra: dict | None = None,
    hidden: frozenset[int] = frozenset(),
) -> str:
    """The full frame a client gets on connect and on ``sync``: view, legal actions, its whole log, seats, chat
    (without the lines of the authors in ``hidden``: whom the reader blocked)."""
    if seat is None and is_delayed(match):  # spectators of a delayed table: the log up to the version they see
        data = delayed_payload(match, match_meta(match), whole_log=True)
    elif match.state is not None:
        data = seat_payload(match, seat, table_log(match))
    else:
        data = {**match_meta(match), "seat": seat}
    data.update(
        {
            "snapshot": True,
            "match_id": match.pk,
            "game": match.game,
            "players": seats_public(match),
            "chat": recent_chat(match=match, seat=seat, hidden=hidden),
        }
    )
    data.update(extra or {})
    return encode_frame("view", match.version, data)


# A reloaded page gets at most this many of the table's connection lines (the most recent), so a player whose
# connection comes and goes all game long cannot make every snapshot grow without end.
SNAPSHOT_NOTICES = 200


# Every snapshot reads these: compiled once (web.compiled says why).
_LOGGED = Compiled(
    lambda match_id: MatchAction.objects.filter(match_id=match_id).order_by("step").values_list("version", "events"),
    match_id=int,
)
_NOTICES = Compiled(
    lambda match_id: PresenceNotice.objects.filter(match_id=match_id)
    .order_by("-pk")
    .values_list("version", "notice")[:SNAPSHOT_NOTICES],
    match_id=int,
)


def table_log(match: Match) -> list[dict]:
    """The table's whole log: every logged action's events, with the connection lines (``PresenceNotice``) in
    their place, each after the actions of the version it happened at."""
    rows = _LOGGED.rows(match_id=match.pk)
    notices = _NOTICES.rows(match_id=match.pk)
    notices.reverse()
    log, next_notice = [], 0
    for version, events in rows:
        while next_notice < len(notices) and notices[next_notice][0] < version:
            log.append(notices[next_notice][1])
            next_notice += 1
        log.extend(events)
    log.extend(notice for _version, notice in notices[next_notice:])
    return log


def _seats(match_id: int, game: str, pool: str) -> QuerySet:
    rating = rating_of(game=game, pool=pool, user_id=OuterRef("user_id"))
    return (
        Seat.objects.filter(match_id=match_id)
        .annotate(rating=rating)
        .order_by("index")
        .values_list("index", "user__username", "connections", "user__is_bot", "user__is_guest", "rating")
    )


_SEATS = Compiled(_seats, match_id=int, game=str, pool=str)


def seats_public(match: Match) -> list[dict]:
    """Who sits where, online or absent, with their rating in this table's pool. One query, read as values and
    compiled once (``web.compiled``): every socket's snapshot and every presence frame builds it, so a handshake
    builds it twice."""
    clock = match.clock or {}
    absent = clock.get("absent") or [False] * match.num_players
    rows = _SEATS.rows(match_id=match.pk, game=match.game, pool=match_pool(match))
    return [
        {
            "seat": index,
            "username": username,
            "online": connections > 0 or is_bot,
            "absent": absent[index],
            "offline_since": clocks.offline_since(clock, index) if clock else None,
            "left": clocks.has_left(clock, index) if clock else False,
            "rating": None if rating is None else round(rating),
            "bot": is_bot,
            "guest": is_guest,
        }
        for index, username, connections, is_bot, is_guest, rating in rows
    ]


# --- presence ---------------------------------------------------------------------------------------------------


def presence_frames(match: Match, notice: dict | None = None) -> Update:
    """Who is online, offline (since when) and absent, with the clocks (a disconnection moves a deadline), for
    everyone at the table; ``notice`` is what changed, for the log ({type, seat}: disconnected, reconnected,
    left, back; kept by ``presence.record_notice``)."""
    data = {"players": seats_public(match), "clock": clock_payload(match), "notice": notice}
    return Update({match.group_name("all"): encode_frame("presence", match.version, data)})
