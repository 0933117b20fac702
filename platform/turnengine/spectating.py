"""Spectators: the delayed spectators' view of a ranked table, and who watches a table.

Every spectator, logged in or not, is in the table's spectators' group and receives the one frame built for it per
version (``seat_frames.build_update``): the rules' ``view`` of seat None, never a seat's. A ranked table may set a
spectator delay (``Match.spectator_delay``, in versions: a move and the chance steps it caused are one version);
then that one spectators' frame of version V is built here, from the state as of version V - delay, replayed from
the action log, and carries no clock (the deadlines would tell who is to play now). Nothing of a seat's view is
used, so the delay cannot leak what a seat sees; the replay costs one pass over the log per version, and only while
someone watches a delayed table (a move at an unwatched table builds no spectators' frame at all). Once the table
is over there is nothing left to relay: the delay ends and spectators see the finished table.

A table may forbid spectators (``Match.spectators_allowed``, the creation form's "Allow spectators"): then, while
it is played, only its players watch it, and the moderators, who may read every match anyway (the permission to
view matches in admin, which the Moderators group has): :func:`may_watch`, asked by the table page, its replay and
the match socket when they open (never with a move). Before it starts the waiting page is open to all (one must see
a table to join it; a socket opened there by someone who may not watch the game is closed when it starts:
:func:`close_to_spectators`); once it is over its result and replay are public, as every finished table's are.

Who watches is counted from the connection rows (``turnengine.presence``): a spectators' socket's row names its
user, or none for a visitor. The table's count and the names of its logged-in spectators are sent to everyone at
the table when a spectator comes or goes (:func:`spectators_frame`), never with a move.
"""

from __future__ import annotations

from turnengine.models import Connection, Match, MatchAction
from turnengine.updates import Update, encode_frame

MAX_DELAY = 20  # moves; the creation form offers up to this
SPECTATORS_CLOSED = "spectators.closed"  # channel-layer message: the table started and allows no spectators
SPECTATOR_NAMES_SHOWN = 30  # the table lists this many logged-in spectators, then "and N more"


def is_delayed(match: Match) -> bool:
    """Whether spectators see ``match`` late now: a ranked table with a delay, not over yet."""
    return bool(match.spectator_delay) and match.ranked and match.status == Match.Status.ACTIVE


def may_watch(match: Match, user, seat: int | None) -> bool:
    """Whether ``user`` (a visitor's AnonymousUser included), at ``seat`` (None: not seated), may see ``match``."""
    return match.status != Match.Status.ACTIVE or may_watch_play(match, user, seat)


def may_watch_play(match: Match, user, seat: int | None) -> bool:
    """Whether ``user`` may see ``match`` while it is played."""
    return seat is not None or match.spectators_allowed or user.has_perm("turnengine.view_match")


def close_to_spectators(match: Match) -> Update:
    """At the start of a table that allows no spectators, the sockets in its spectators' group that may not watch
    it played (opened on its waiting page) are closed: a control message, which ``realtime.broadcast`` publishes
    before the start's frames, so they never receive the first view. Nothing for any other table."""
    if match.spectators_allowed:
        return Update()
    return Update(messages={match.group_name(None): {"type": SPECTATORS_CLOSED}})


def shown_version(match: Match) -> int:
    """The version spectators see: the match's, or as many versions before it as the delay says."""
    return max(0, match.version - match.spectator_delay) if is_delayed(match) else match.version


def delayed_payload(match: Match, meta: dict, *, whole_log: bool) -> dict:
    """The spectators' payload of ``match`` (delayed, see the module), with the public events of the version shown
    (``whole_log``: of every version up to it, for a snapshot)."""
    version = shown_version(match)
    rows = list(
        MatchAction.objects.filter(match=match, version__lte=version)
        .order_by("step")
        .values_list("version", "seat", "action", "events")
    )
    rules = match.rules
    state = rules.initial_state(match.options, match.num_players)
    for _version, seat, action, _events in rows:
        state, _new = rules.apply_action(state, seat, action)
    events = [
        {key: value for key, value in event.items() if key != "visible_to"}
        for row_version, _seat, _action, row_events in rows
        if whole_log or row_version == version
        for event in row_events
        if event.get("visible_to") is None
    ]
    return {
        **meta,
        "clock": None,
        "seat": None,
        "view": rules.view(state, None),
        "legal": [],
        "events": events,
        "delay": match.spectator_delay,
        "shown_version": version,
    }


def spectators_data(match: Match) -> dict:
    """How many sockets watch ``match`` and the names of the logged-in spectators (each once); no query for a table
    nobody watches (its counter is written with the rows, under the match's lock), as most are on a snapshot."""
    names = []
    if match.spectator_connections:
        watching = Connection.objects.filter(match=match, seat__isnull=True, user__isnull=False)
        names = sorted(set(watching.values_list("user__username", flat=True)))
    return {
        "count": match.spectator_connections,
        "users": names[:SPECTATOR_NAMES_SHOWN],
        "more": max(0, len(names) - SPECTATOR_NAMES_SHOWN),
    }


def spectators_frame(match: Match) -> Update:
    """Everyone at the table hears that a spectator came or went: the count and the logged-in spectators."""
    return Update({match.group_name("all"): encode_frame("spectators", None, spectators_data(match))})
