"""A tournament's life through its services and its Celery tasks called directly: joining and its refusals, the
start on time, Swiss rounds paired from the finished ones with byes and no repeats, absences, an arena, the end;
the tables are the engine's, started through the lobby and played through the engine's services."""

import json
from datetime import timedelta

import pytest
from django.test import TestCase
from django.utils import timezone

from accounts.guests import guests_cleanup
from moderation.models import Sanction
from tests.tournaments.conftest import started
from tournaments import life_cycle, tasks
from tournaments.errors import TournamentError
from tournaments.models import Entry, Pairing, Round, Tournament, TournamentTable
from turnengine import services, timers
from turnengine.models import Match

pytestmark = pytest.mark.django_db

WIN_FOR = {0: [(0, 0), (1, 3), (0, 1), (1, 4), (0, 2)], 1: [(0, 0), (1, 3), (0, 1), (1, 4), (0, 8), (1, 5)]}


def win(match: Match, seat: int) -> None:
    """Tic-tac-toe: ``seat`` wins the match through the engine's move service."""
    users = {s.index: s.user for s in match.seats.select_related("user")}
    for mover, cell in WIN_FOR[seat]:
        match.refresh_from_db()
        services.match_apply_action(
            match_id=match.pk, user=users[mover], expected_version=match.version, action={"type": "mark", "cell": cell}
        )
    match.refresh_from_db()
    assert match.status == Match.Status.FINISHED


def current_tables(tournament: Tournament) -> list[Match]:
    last = tournament.round_set.order_by("-number").first()
    return [table.match for table in last.tables.select_related("match").order_by("pk")]


def refused(code: str, call, **kwargs) -> None:
    with pytest.raises(TournamentError) as error:
        call(**kwargs)
    assert error.value.code == code and error.value.message


def test_nothing_happens_before_the_start(make_tournament):
    tournament, _users = make_tournament()
    life_cycle.tournament_advance(tournament.pk, now=tournament.starts_at - timedelta(seconds=1))
    tournament.refresh_from_db()
    assert tournament.status == Tournament.Status.UPCOMING and not Round.objects.exists()


def test_a_swiss_of_five_pairs_byes_and_no_repeat_opponents_then_ends(make_tournament):
    tournament, users = make_tournament(players=5, rounds=3)
    tournament = started(tournament)
    assert tournament.status == Tournament.Status.RUNNING
    met = {entry.pk: set() for entry in tournament.entries.all()}
    byes = []
    for number in range(1, 4):
        new_round = Round.objects.get(tournament=tournament, number=number)
        tables = list(new_round.tables.all())
        assert len(tables) == 2
        bye = new_round.pairings.get(table__isnull=True)
        assert bye.points == 1 and bye.entry_id not in byes  # half a first place at tables of two; once each
        byes.append(bye.entry_id)
        for table in tables:
            a, b = table.pairings.order_by("seat").values_list("entry_id", flat=True)
            assert b not in met[a]
            met[a].add(b), met[b].add(a)
            assert table.match.status == Match.Status.ACTIVE and not table.match.ranked
            win(table.match, 0)
        tasks.table_finished(tables[0].match_id)  # as the engine's finish signal queues it
        tournament.refresh_from_db()
    assert tournament.status == Tournament.Status.FINISHED
    total = sum(Entry.objects.filter(tournament=tournament).values_list("score", flat=True))
    assert total == 3 * (2 * 2 + 1)  # each round: two wins of 2 points and a bye of 1


def test_the_next_round_waits_for_every_table_and_is_paired_once(make_tournament):
    tournament, _users = make_tournament(players=4, rounds=2)
    tournament = started(tournament)
    first, second = current_tables(tournament)
    win(first, 1)
    life_cycle.tournament_advance(tournament.pk)
    assert Round.objects.filter(tournament=tournament).count() == 1
    assert TournamentTable.objects.get(match=first).scored
    win(second, 0)
    for _ in range(3):  # the beat sweep, the finish's task and a duplicate: one round 2
        life_cycle.tournament_advance(tournament.pk)
    tasks.sweep_tournaments()
    assert Round.objects.filter(tournament=tournament).count() == 2
    assert Pairing.objects.filter(round__number=2, round__tournament=tournament).count() == 4
    # round 2 by score: the two winners together
    winners = {Entry.objects.get(tournament=tournament, user=t.seats.get(index=i).user).pk
               for t, i in ((first, 1), (second, 0))}
    paired = [set(table.pairings.values_list("entry_id", flat=True))
              for table in Round.objects.get(tournament=tournament, number=2).tables.all()]
    assert winners in paired


def test_an_aborted_table_scores_nothing_and_the_round_goes_on(make_tournament, make_user):
    tournament, _users = make_tournament(players=2, rounds=2)
    tournament = started(tournament)
    (match,) = current_tables(tournament)
    from turnengine import writer

    with writer.locked(match.pk) as change:
        timers.match_abort(change)
    tasks.sweep_tournaments()
    assert Round.objects.filter(tournament=tournament).count() == 2
    assert set(Entry.objects.filter(tournament=tournament).values_list("score", flat=True)) == {0}


def test_a_player_absent_twice_is_dropped(make_tournament):
    """Scripted without the bye's luck: two players, two rounds left by the same one."""
    tournament, users = make_tournament(players=2, rounds=3)
    tournament = started(tournament)
    truant = users[0]
    for _round in range(2):
        (match,) = current_tables(tournament)
        timers.seat_leave(match_id=match.pk, user=truant)
        match.refresh_from_db()
        if match.status == Match.Status.ACTIVE:
            other = 1 - match.seats.get(user=truant).index
            win_by_the_one_who_stayed(match, other)
        life_cycle.tournament_advance(tournament.pk)
        tournament.refresh_from_db()
    entry = Entry.objects.get(user=truant, tournament=tournament)
    assert entry.absences == 2 and entry.status == Entry.Status.ABSENT
    assert tournament.status == Tournament.Status.FINISHED  # one player left: no table can be made


def win_by_the_one_who_stayed(match: Match, seat: int) -> None:
    """The absent seat's turns are played by the engine; the one who stayed marks until the game ends."""
    user = match.seats.get(index=seat).user
    for _ in range(9):
        match.refresh_from_db()
        if match.status != Match.Status.ACTIVE:
            return
        if seat in match.rules.to_act(match.state):
            action = match.rules.legal_actions(match.state, seat)[0]
            services.match_apply_action(match_id=match.pk, user=user, expected_version=match.version, action=action)


def test_too_few_players_cancel_at_the_start(make_tournament):
    tournament, _users = make_tournament(players=1)
    assert started(tournament).status == Tournament.Status.CANCELLED


def test_joining_and_withdrawing(make_tournament, make_user):
    tournament, users = make_tournament(players=2, max_players=3)
    refused("already_joined", life_cycle.tournament_join, user=users[0], tournament_id=tournament.pk)
    life_cycle.tournament_join(user=make_user(), tournament_id=tournament.pk)
    refused("full", life_cycle.tournament_join, user=make_user(), tournament_id=tournament.pk)
    life_cycle.tournament_withdraw(user=users[1], tournament_id=tournament.pk)
    assert not Entry.objects.filter(user=users[1]).exists()  # before the start the entry goes
    refused("not_joined", life_cycle.tournament_withdraw, user=users[1], tournament_id=tournament.pk)
    started(tournament)
    refused("closed", life_cycle.tournament_join, user=make_user(), tournament_id=tournament.pk)
    life_cycle.tournament_withdraw(user=users[0], tournament_id=tournament.pk)
    assert Entry.objects.get(user=users[0]).status == Entry.Status.WITHDRAWN  # during it: paired no more


def test_a_ranked_tournament_admits_people_only(make_tournament, make_user):
    tournament, users = make_tournament(players=2, ranked=True, time_control="blitz")
    robot = make_user()
    robot.is_bot = True
    robot.save(update_fields=["is_bot"])
    refused("people_only", life_cycle.tournament_join, user=robot, tournament_id=tournament.pk)
    guest = make_user()
    guest.is_guest = True
    guest.save(update_fields=["is_guest"])
    refused("guest_unranked", life_cycle.tournament_join, user=guest, tournament_id=tournament.pk)
    tournament = started(tournament)
    (match,) = current_tables(tournament)
    assert match.ranked and match.bot_seats == [] and match.time_control["profile"] == "blitz"
    win(match, 0)
    assert match.rating_changes.count() == 2  # rated as any ranked game


def test_minimum_rating_and_games(make_tournament, make_user):
    tournament, _users = make_tournament(players=0, ranked=True, time_control="blitz", min_rating=1600)
    refused("rating_too_low", life_cycle.tournament_join, user=make_user(), tournament_id=tournament.pk)
    tournament, _users = make_tournament(players=0, ranked=True, time_control="blitz", min_games=3)
    refused("too_few_games", life_cycle.tournament_join, user=make_user(), tournament_id=tournament.pk)


def test_an_arena_pairs_the_waiting_again_at_once_and_ends_on_time(make_tournament, settings):
    tournament, users = make_tournament(players=4, kind="arena", duration_minutes=10, streak_bonus=True)
    tournament = started(tournament)
    first, second = current_tables(tournament)
    win(first, 0)
    life_cycle.tournament_advance(tournament.pk)
    assert Round.objects.filter(tournament=tournament).count() == 1  # the two who just played: no rematch yet
    tables = Round.objects.filter(tournament=tournament)
    win(second, 0)
    life_cycle.tournament_advance(tournament.pk)
    assert tables.count() == 2 and tables.get(number=2).tables.count() == 2
    late = tournament.started_at + timedelta(minutes=10)
    life_cycle.tournament_advance(tournament.pk, now=late)
    tournament.refresh_from_db()
    assert tournament.status == Tournament.Status.RUNNING  # tables still playing
    for match in current_tables(tournament):
        win(match, 0)
    life_cycle.tournament_advance(tournament.pk, now=late)
    tournament.refresh_from_db()
    assert tournament.status == Tournament.Status.FINISHED and tables.count() == 2


def test_an_arena_player_alone_waits_until_the_patience_then_plays_a_smaller_table(make_tournament, settings):
    settings.TAPETE_ARENA_PATIENCE_SECONDS = 20
    tournament, _users = make_tournament(players=3, game="perudo", table_size=2, kind="arena")
    tournament = started(tournament)
    assert Round.objects.get(tournament=tournament).tables.count() == 1  # one full table; one waits
    tournament.entries.update(free_since=tournament.started_at)
    life_cycle.tournament_advance(tournament.pk, now=tournament.started_at + timedelta(seconds=5))
    assert Round.objects.filter(tournament=tournament).count() == 1  # alone: nobody to play


def test_the_streak_bonus_doubles_a_third_win_in_a_row(make_tournament, settings):
    settings.TAPETE_ARENA_PATIENCE_SECONDS = 0  # two players: a rematch at once
    tournament, users = make_tournament(players=2, kind="arena", streak_bonus=True)
    tournament = started(tournament)
    champion = Entry.objects.get(user=users[0])
    points = []
    for _game in range(3):
        (match,) = current_tables(tournament)
        win(match, match.seats.get(user=users[0]).index)
        life_cycle.tournament_advance(tournament.pk)
        points.append(Pairing.objects.filter(entry=champion, scored=True).order_by("-round__number").first().points)
    assert points == [2, 2, 4]


def test_the_page_hears_of_each_change_on_commit(make_tournament, sent):
    tournament, _users = make_tournament(players=2)
    with TestCase.captureOnCommitCallbacks(execute=True):
        started(tournament)
    frames = [update for update in sent if f"tournament.{tournament.pk}" in update.frames]
    assert frames and '"t":"tournament"' in frames[-1].frames[f"tournament.{tournament.pk}"]


def _seated_heard(sent, tournament: Tournament) -> list[list[int]]:
    """For each change the tournament's pages heard, the players whose lobby sockets heard that it seated them."""
    heard = []
    for update in sent:
        if tournament.group_name() in update.frames:
            assert "seated" not in json.loads(update.frames[tournament.group_name()])["d"]
            heard.append([])
            continue
        frames = {name: json.loads(text) for name, text in update.frames.items() if name.startswith("social.")}
        if frames and heard and not heard[-1]:
            assert all(frame["t"] == "tournament" and frame["d"] == {
                "id": tournament.pk, "status": tournament.status, "seated": True} for frame in frames.values())
            heard[-1] = sorted(int(name.removeprefix("social.")) for name in frames)
    return heard


def test_each_change_tells_only_the_players_it_seated(make_tournament, make_user, sent):
    """Only the players a change seats hear it, over their lobby sockets (a tournament table's page listens to
    nothing else, and only they ask the server where they play: tournament.js): a round seats its players, a
    table's finish in a Swiss seats nobody until the round is paired, a join seats nobody."""
    tournament, users = make_tournament(players=5, rounds=2)
    with TestCase.captureOnCommitCallbacks(execute=True):
        life_cycle.tournament_join(user=make_user(), tournament_id=tournament.pk)
        tournament = started(tournament)
    seated_now = sorted(
        Pairing.objects.filter(round__tournament=tournament, table__isnull=False).values_list("entry__user_id", flat=True)
    )
    assert len(seated_now) == 6 and _seated_heard(sent, tournament) == [[], seated_now]

    sent.clear()
    first, *others = current_tables(tournament)
    with TestCase.captureOnCommitCallbacks(execute=True):
        win(first, 0)
        life_cycle.tournament_advance(tournament.pk)
    assert _seated_heard(sent, tournament) == [[]]  # scored: the round waits for the other tables

    sent.clear()
    with TestCase.captureOnCommitCallbacks(execute=True):
        for match in others:
            win(match, 0)
        life_cycle.tournament_advance(tournament.pk)
    round_two = sorted(
        Pairing.objects.filter(round__tournament=tournament, round__number=2, table__isnull=False).values_list(
            "entry__user_id", flat=True
        )
    )
    assert len(round_two) == 6 and _seated_heard(sent, tournament) == [round_two]


def test_the_finish_signal_queues_the_step(make_tournament, settings):
    """With scheduling on (eager Celery in the tests' settings or not), a finished table's signal reaches
    the task: the next round is paired without anyone calling the life cycle."""
    settings.TAPETE_SCHEDULE_TOURNAMENTS = True
    settings.CELERY_TASK_ALWAYS_EAGER = True
    tournament, _users = make_tournament(players=2, rounds=2)
    tournament = started(tournament)
    (match,) = current_tables(tournament)
    with TestCase.captureOnCommitCallbacks(execute=True):
        win(match, 0)
    assert Round.objects.filter(tournament=tournament).count() == 2


def test_a_new_tournament_starts_on_the_beat_sweep(make_tournament):
    tournament, _users = make_tournament(players=2)
    Tournament.objects.filter(pk=tournament.pk).update(starts_at=timezone.now() - timedelta(seconds=1))
    tasks.sweep_tournaments()
    tournament.refresh_from_db()
    assert tournament.status == Tournament.Status.RUNNING and Round.objects.filter(tournament=tournament).exists()


def test_a_player_suspended_since_joining_is_withdrawn_at_the_pairing(make_tournament, make_user):
    tournament, users = make_tournament(players=3)
    Sanction.objects.create(user=users[2], kind="suspension", reason="x", by=make_user(),
                            ends_at=timezone.now() + timedelta(days=1))
    tournament = started(tournament)
    assert Entry.objects.get(user=users[2]).status == Entry.Status.WITHDRAWN
    (match,) = current_tables(tournament)
    assert set(match.seats.values_list("user_id", flat=True)) == {users[0].pk, users[1].pk}


def test_the_guest_clean_up_keeps_tournament_tables(make_tournament, settings):
    tournament, users = make_tournament(players=2, rounds=1)
    for user in users:
        user.is_guest = True
        user.save(update_fields=["is_guest"])
    tournament = started(tournament)
    (match,) = current_tables(tournament)
    win(match, 0)
    life_cycle.tournament_advance(tournament.pk)
    guests_cleanup(now=timezone.now() + timedelta(days=60))
    assert Match.objects.filter(pk=match.pk).exists()
    assert Entry.objects.filter(tournament=tournament).count() == 2  # the guests are deactivated, not deleted
