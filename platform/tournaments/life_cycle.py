"""A tournament's life: players join and withdraw; :func:`tournament_advance` starts it on time, scores the tables
that finished, pairs the next round (Swiss) or the players waiting (arena), starts their tables through the lobby's
service (``lobby.services.table_start_for``: the engine's one writer, frames on commit) and ends it.

Everything that changes a tournament runs in one transaction holding its row's lock (:func:`locked`), so two
processes advancing the same tournament at once (a duplicated Celery task, the beat sweep racing a finish) take
turns, and the second finds the work done. The unique keys of ``tournaments.models`` back it: a round's number is
paired once, a player has one pairing per round and one table not scored yet. A process killed mid-pairing rolls
its transaction back, and the next call pairs the round whole.

Each committed change bumps the tournament's ``version`` and sends a small ``tournament`` frame to its page's
group on commit (``turnengine.outbox``); pages then fetch what changed.
"""

from __future__ import annotations

import logging
from collections import defaultdict
from datetime import datetime, timedelta

from django.conf import settings
from django.db import transaction
from django.db.models import Max
from django.utils import timezone
from tapete_sdk.plugin import place_points, player_counts_of, ranking_points

from lobby.errors import LobbyError
from lobby.services import table_start_for
from moderation.sanctions import is_locked_out, locked_out_among
from ratings.models import Rating
from ratings.pools import pool_for
from ratings.selectors import rating_value
from social import frames as social_frames
from tournaments import pairing
from tournaments.errors import TournamentError
from tournaments.models import Entry, Pairing, Round, Tournament, TournamentTable
from turnengine import outbox
from turnengine.fair_play import active_playban, playbanned_among
from turnengine.models import Match
from turnengine.programs import is_bot_account
from turnengine.updates import Update, encode_frame

logger = logging.getLogger("tapete.tournaments")

DONE = (Match.Status.FINISHED, Match.Status.ABORTED)


def locked(tournament_id: int) -> Tournament:
    """The tournament's row, locked until the transaction ends (``DoesNotExist`` if there is none)."""
    return Tournament.objects.select_for_update().get(pk=tournament_id)


def changed(tournament: Tournament, *, seated: list[int] = ()) -> None:
    """Record a change pages show: the version moves and, on commit, the tournament's pages hear of it; each player
    of ``seated`` (user ids given a new table by this change) hears it over their lobby socket, which every page of
    theirs holds (``social.frames``), and asks at once where they play. A tournament table's page listens there
    only: a finished table of a 600-player arena reaches its own players, not the 600 players' tables."""
    tournament.version += 1
    tournament.save(update_fields=["version"])
    data = {"id": tournament.pk, "status": tournament.status}
    outbox.send_on_commit(Update({tournament.group_name(): encode_frame("tournament", tournament.version, data)}))
    if seated:
        social_frames.push(seated, "tournament", {**data, "seated": True})


def allowed_sizes(tournament: Tournament) -> list[int]:
    return [n for n in player_counts_of(tournament.rules) if n <= tournament.table_size]


# --- joining and withdrawing --------------------------------------------------------------------------------------


def join_refusal(tournament: Tournament, user) -> str | None:
    """Why ``user`` may not join (a code of ``tournaments.errors``), before the cap is counted."""
    if is_locked_out(user):
        return "suspended"
    if tournament.ranked:
        if user.is_guest:
            return "guest_unranked"
        if user.is_bot or is_bot_account(user):
            return "people_only"
        if active_playban(user=user) is not None:
            return "playban"
    pool = pool_for(game=tournament.game, num_players=tournament.table_size)
    if tournament.min_rating is not None and rating_value(user=user, game=tournament.game, pool=pool) < (
        tournament.min_rating
    ):
        return "rating_too_low"
    if tournament.min_games:
        games = Rating.objects.filter(user=user, game=tournament.game).aggregate(total=Max("games"))["total"]
        if (games or 0) < tournament.min_games:
            return "too_few_games"
    return None


def tournament_join(*, user, tournament_id: int, now: datetime | None = None) -> Entry:
    """``user`` joins before the start (or an arena while it runs); a player who withdrew from a running arena may
    come back. The cap is counted under the tournament's lock, so two players racing for the last place resolve
    there."""
    now = now or timezone.now()
    with transaction.atomic():
        tournament = locked(tournament_id)
        if not tournament.is_open_to_join:
            raise TournamentError("closed")
        entry = tournament.entries.filter(user=user).first()
        if entry is not None and not (entry.status == Entry.Status.WITHDRAWN and tournament.kind == "arena"):
            raise TournamentError("already_joined")
        refusal = join_refusal(tournament, user)
        if refusal is not None:
            raise TournamentError(refusal)
        if tournament.entries.filter(status=Entry.Status.ACTIVE).count() >= tournament.max_players:
            raise TournamentError("full")
        if entry is None:
            pool = pool_for(game=tournament.game, num_players=tournament.table_size)
            entry = Entry.objects.create(
                tournament=tournament,
                user=user,
                rating=round(rating_value(user=user, game=tournament.game, pool=pool)),
                free_since=now,
            )
        else:
            entry.status, entry.free_since = Entry.Status.ACTIVE, now
            entry.save(update_fields=["status", "free_since"])
        changed(tournament)
    return entry


def tournament_withdraw(*, user, tournament_id: int) -> None:
    """Before the start the entry goes; during it the player is paired no more (a table they sit at plays on)."""
    with transaction.atomic():
        tournament = locked(tournament_id)
        entry = tournament.entries.filter(user=user, status=Entry.Status.ACTIVE).first()
        if entry is None:
            raise TournamentError("not_joined")
        if tournament.status == Tournament.Status.UPCOMING:
            entry.delete()
        elif tournament.status == Tournament.Status.RUNNING:
            entry.status = Entry.Status.WITHDRAWN
            entry.save(update_fields=["status"])
        else:
            raise TournamentError("over")
        changed(tournament)


# --- the life cycle -------------------------------------------------------------------------------------------------


def tournament_advance(tournament_id: int, *, now: datetime | None = None) -> None:
    """Do whatever is due, once: start on time, score the finished tables, pair, end. Safe to call at any time
    and any number of times at once (the beat sweep, a finished table's task, a duplicated message)."""
    now = now or timezone.now()
    with transaction.atomic():
        try:
            tournament = locked(tournament_id)
        except Tournament.DoesNotExist:
            return
        dirty = False
        rounds_before = tournament.round_set.aggregate(number=Max("number"))["number"] or 0
        if tournament.status == Tournament.Status.UPCOMING:
            if now < tournament.starts_at:
                return
            _start(tournament, now)
            dirty = True
        if tournament.status == Tournament.Status.RUNNING:
            dirty |= _score_finished(tournament, now)
            if tournament.kind == Tournament.Kind.SWISS:
                dirty |= _swiss_next(tournament, now)
            else:
                dirty |= _arena_next(tournament, now)
        if dirty:
            seated = Pairing.objects.filter(
                round__tournament=tournament, round__number__gt=rounds_before, table__isnull=False
            ).values_list("entry__user_id", flat=True)
            changed(tournament, seated=list(seated))


def _start(tournament: Tournament, now: datetime) -> None:
    active = tournament.entries.filter(status=Entry.Status.ACTIVE)
    sizes = allowed_sizes(tournament)
    if not sizes or active.count() < min(sizes):
        tournament.status = Tournament.Status.CANCELLED  # too few players to make one table
        tournament.finished_at = now
    else:
        tournament.status = Tournament.Status.RUNNING
        tournament.started_at = now
        active.update(free_since=now)
    tournament.save(update_fields=["status", "started_at", "finished_at"])


def _finish(tournament: Tournament, now: datetime) -> None:
    tournament.status = Tournament.Status.FINISHED
    tournament.finished_at = now
    tournament.save(update_fields=["status", "finished_at"])


def _score_finished(tournament: Tournament, now: datetime) -> bool:
    tables = TournamentTable.objects.filter(round__tournament=tournament, scored=False, match__status__in=DONE)
    done = list(tables.select_related("match"))
    for played in done:
        score_table(tournament, played, now)
    return bool(done)


def absent_seats(result: dict) -> set[int]:
    """The seats that were not there for a finished table: left, absent at the end, abandoned, or played for by the
    computer (``turnengine.writer.final_result``)."""
    gone = ("left", "absent", "abandoned", "computer_played")
    return {seat for key in gone for seat in result.get(key) or ()}


def score_table(tournament: Tournament, played: TournamentTable, now: datetime) -> None:
    """Points by place (an aborted table gives none), absences, streaks; a second absence ends a player's
    pairings."""
    match = played.match
    points, places, absent, sole_winner = {}, {}, set(), None
    if match.status == Match.Status.FINISHED:
        ranking = match.result["ranking"]
        points = ranking_points(tournament.rules, ranking, match.num_players)
        place = 1
        for group in ranking:
            for seat in group:
                places[seat] = place
            place += len(group)
        absent = absent_seats(match.result)
        sole_winner = ranking[0][0] if ranking and len(ranking[0]) == 1 else None
    for row in played.pairings.select_related("entry"):
        entry = row.entry
        row.points, row.place, row.absent, row.scored = points.get(row.seat, 0), places.get(row.seat), (
            row.seat in absent
        ), True
        if row.seat == sole_winner:
            if tournament.streak_bonus and entry.streak >= 2:
                row.points *= 2
            entry.streak += 1
        elif match.status == Match.Status.FINISHED:
            entry.streak = 0
        if not row.void:
            entry.score += row.points
        if row.absent:
            entry.absences += 1
            if entry.absences >= 2 and entry.status == Entry.Status.ACTIVE:
                entry.status = Entry.Status.ABSENT
        entry.free_since = now
        row.save(update_fields=["points", "place", "absent", "scored"])
        entry.save(update_fields=["score", "streak", "absences", "status", "free_since"])
    played.scored = True
    played.save(update_fields=["scored"])


def _eligible(tournament: Tournament, entries: list[Entry]) -> list[Entry]:
    """The entries that may sit down now; a player suspended (or, at a ranked tournament, barred from ranked play)
    since joining is withdrawn instead (two queries for the whole field)."""
    user_ids = [entry.user_id for entry in entries]
    barred = locked_out_among(user_ids) | (playbanned_among(user_ids) if tournament.ranked else set())
    kept = []
    for entry in entries:
        if entry.user_id in barred:
            entry.status = Entry.Status.WITHDRAWN
            entry.save(update_fields=["status"])
        else:
            kept.append(entry)
    return kept


def _player(entry: Entry) -> pairing.Player:
    return pairing.Player(key=entry.pk, score=entry.score, rating=entry.rating, order=entry.pk)


def _swiss_next(tournament: Tournament, now: datetime) -> bool:
    last = tournament.round_set.order_by("-number").first()
    if last is not None and last.tables.filter(scored=False).exists():
        return False  # the round is still being played
    if last is not None and last.number >= tournament.rounds:
        _finish(tournament, now)
        return True
    active = tournament.entries.filter(status=Entry.Status.ACTIVE).select_related("user")
    entries = {entry.pk: entry for entry in _eligible(tournament, list(active))}
    sizes = allowed_sizes(tournament)
    if len(entries) < min(sizes):
        _finish(tournament, now)
        return True
    met: dict[int, set[int]] = defaultdict(set)
    by_table: dict[int, list[int]] = defaultdict(list)
    played = Pairing.objects.filter(round__tournament=tournament, table__isnull=False)
    for table_id, entry_id in played.values_list("table_id", "entry_id"):
        by_table[table_id].append(entry_id)
    for seated in by_table.values():
        for entry_id in seated:
            met[entry_id].update(other for other in seated if other != entry_id)
    had_bye = set(
        Pairing.objects.filter(round__tournament=tournament, table__isnull=True).values_list("entry_id", flat=True)
    )
    tables, byes = pairing.swiss_tables([_player(e) for e in entries.values()], tournament.table_size, sizes, met,
                                        had_bye)
    number = (last.number if last else 0) + 1
    new_round = Round.objects.create(tournament=tournament, number=number)  # unique: a round is paired once
    for table in tables:
        start_table(tournament, new_round, [entries[player.key] for player in table])
    bonus = pairing.bye_points(place_points(tournament.rules, tournament.table_size)[0])
    for player in byes:
        entry = entries[player.key]
        Pairing.objects.create(round=new_round, entry=entry, scored=True, points=bonus)
        entry.score += bonus
        entry.save(update_fields=["score"])
    return True


def arena_ends_at(tournament: Tournament) -> datetime | None:
    if tournament.started_at is None:
        return None
    return tournament.started_at + timedelta(minutes=tournament.duration_minutes)


def _arena_next(tournament: Tournament, now: datetime) -> bool:
    playing = Pairing.objects.filter(round__tournament=tournament, scored=False).values("entry_id")
    if now >= arena_ends_at(tournament):
        if not playing.exists():
            _finish(tournament, now)
            return True
        return False
    waiting = tournament.entries.filter(status=Entry.Status.ACTIVE).exclude(pk__in=playing).select_related("user")
    entries = {entry.pk: entry for entry in _eligible(tournament, list(waiting))}
    if not entries:
        return False
    patience = timedelta(seconds=settings.TAPETE_ARENA_PATIENCE_SECONDS)
    patient_out = min(entry.free_since or now for entry in entries.values()) <= now - patience
    last_tables = (
        Pairing.objects.filter(entry_id__in=list(entries), table__isnull=False)
        .values("entry_id")
        .annotate(last=Max("table_id"))
        .values_list("last", flat=True)
    )
    last_opponents: dict[int, set[int]] = defaultdict(set)
    by_table: dict[int, list[int]] = defaultdict(list)
    for table_id, entry_id in Pairing.objects.filter(table_id__in=list(last_tables)).values_list(
        "table_id", "entry_id"
    ):
        by_table[table_id].append(entry_id)
    for seated in by_table.values():
        for entry_id in seated:
            last_opponents[entry_id].update(other for other in seated if other != entry_id)
    tables, _left = pairing.arena_tables(
        [_player(e) for e in entries.values()], tournament.table_size, allowed_sizes(tournament), last_opponents,
        patient_out=patient_out,
    )
    if not tables:
        return False
    last = tournament.round_set.aggregate(number=Max("number"))["number"] or 0
    new_round = Round.objects.create(tournament=tournament, number=last + 1)
    for table in tables:
        start_table(tournament, new_round, [entries[player.key] for player in table])
    return True


def start_table(tournament: Tournament, new_round: Round, entries: list[Entry]) -> TournamentTable:
    """Open and start one table of the round through the lobby, and record who sits where."""
    try:
        match = table_start_for(
            created_by=tournament.created_by,
            users=[entry.user for entry in entries],
            game=tournament.game,
            options=tournament.options,
            ranked=tournament.ranked,
            time_control=tournament.time_control,
        )
    except LobbyError as refusal:
        logger.warning("tournament %s: a table was refused (%s); pairing again later", tournament.pk, refusal.code)
        raise
    table = TournamentTable.objects.create(round=new_round, match=match)
    Pairing.objects.bulk_create(
        [Pairing(round=new_round, entry=entry, table=table, seat=index) for index, entry in enumerate(entries)]
    )
    return table


# --- moderators -----------------------------------------------------------------------------------------------------


def disqualify(*, entry_id: int) -> Entry:
    """The player is paired no more and their results are void (their points no longer count; their opponents
    keep theirs). The moderation service audits it (``tournaments.moderation``)."""
    entry = Entry.objects.select_related("tournament").get(pk=entry_id)
    tournament = locked(entry.tournament_id)
    entry.refresh_from_db()
    if entry.status == Entry.Status.DISQUALIFIED:
        raise TournamentError("already_disqualified")
    entry.pairings.update(void=True)
    entry.status = Entry.Status.DISQUALIFIED
    entry.score = 0
    entry.save(update_fields=["status", "score"])
    changed(tournament)
    return entry


def cancel(*, tournament_id: int, now: datetime | None = None) -> Tournament:
    """No more pairing; the standings stay as they are, and tables already playing play on as ordinary games."""
    tournament = locked(tournament_id)
    if tournament.status in (Tournament.Status.FINISHED, Tournament.Status.CANCELLED):
        raise TournamentError("over")
    tournament.status = Tournament.Status.CANCELLED
    tournament.finished_at = now or timezone.now()
    tournament.save(update_fields=["status", "finished_at"])
    changed(tournament)
    return tournament
