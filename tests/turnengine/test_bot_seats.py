"""Bots at real tables: seated by the creator, playing through the same service as humans, and standing in for
absent players."""

import random

import pytest
from tapete_sdk import registry

from lobby import services as lobby
from lobby.errors import LobbyError
from tests.conftest import FAST_OPTIONS, GAME_KEYS
from turnengine import bot_moves, bot_seats, services, timers
from turnengine.models import Match, MatchAction

pytestmark = pytest.mark.django_db


def _table_with_bots(make_user, game: str, levels: list[str]):
    human = make_user()
    match = lobby.table_create(
        user=human, game=game, num_players=len(levels) + 1, options=FAST_OPTIONS[game], ranked=False
    )
    for level in levels:
        lobby.table_add_bot(user=human, match_id=match.pk, level=level)
    lobby.table_start(user=human, match_id=match.pk)
    match.refresh_from_db()
    return match, human


def _quick_opponents(game: str) -> list[str]:
    """The game's weakest and strongest computer players, as many as sit beside one human (Chinese Checkers' hard
    level thinks too long for a test: its medium one)."""
    if game == "chinesecheckers":
        return ["medium"]
    levels = list(bot_seats.levels(game))
    return [levels[0], levels[-1]][: registry.get(game).max_players - 1]


@pytest.mark.parametrize("game", GAME_KEYS)
def test_a_single_player_finishes_a_game_against_bots(make_user, game):
    match, human = _table_with_bots(make_user, game, _quick_opponents(game))
    rng = random.Random(1)
    for _ in range(5000):
        match.refresh_from_db()
        if match.status != Match.Status.ACTIVE:
            break
        awaited = match.rules.awaited(match.state)
        if 0 in awaited:
            action = rng.choice(match.rules.legal_actions(match.state, 0))
            services.match_apply_action(
                match_id=match.pk, user=human, expected_version=match.version, action=action
            )
        else:
            assert bot_moves.bot_play(match_id=match.pk, version=match.version) is True, (
                "an awaited bot must act"
            )
    assert match.status == Match.Status.FINISHED
    assert MatchAction.objects.filter(match=match, seat__in=match.bot_seats).exists()


def test_bot_accounts_are_flagged_and_distinct_at_one_table(make_user):
    match, _human = _table_with_bots(make_user, "perudo", ["medium", "medium"])
    robots = [seat.user for seat in match.seats.filter(user__is_bot=True)]
    assert len({robot.pk for robot in robots}) == 2
    assert all(robot.is_bot and not robot.has_usable_password() for robot in robots)
    assert match.bot_seats == [1, 2]


def test_only_the_creator_adds_bots_of_known_levels(make_user):
    creator, guest = make_user(), make_user()
    match = lobby.table_create(user=creator, game="spicy", num_players=3, options={}, ranked=False)
    with pytest.raises(LobbyError) as refused:
        lobby.table_add_bot(user=guest, match_id=match.pk, level="easy")
    assert refused.value.code == "not_creator"
    with pytest.raises(LobbyError) as refused:
        lobby.table_add_bot(user=creator, match_id=match.pk, level="grandmaster")
    assert refused.value.code == "unknown_bot_level"


def test_a_stale_bot_task_does_nothing(make_user):
    match, human = _table_with_bots(make_user, "chinesecheckers", ["medium"])
    assert bot_moves.bot_play(match_id=match.pk, version=match.version - 1) is False
    match.refresh_from_db()
    assert match.version == 1


def test_an_absent_player_is_played_by_the_medium_bot(start_table):
    match, users = start_table("chinesecheckers", 2, {"firstPlayer": "seat0"})
    timers.seat_leave(match_id=match.pk, user=users[0])
    match.refresh_from_db()
    # Seat 0 was awaited: the engine played its move at once, as the medium bot chose it.
    first = MatchAction.objects.filter(match=match, seat=0).get()
    replayed = Match.objects.get(pk=match.pk)
    replayed.state = replayed.rules.initial_state(replayed.options, 2)
    for row in MatchAction.objects.filter(match=match, seat=-1):
        replayed.state, _ = replayed.rules.apply_action(replayed.state, row.seat, row.action)
    replayed.version = first.version - 1
    assert first.action == bot_seats.choose(replayed, 0, "medium")


def test_the_middle_level_plays_for_a_player_who_left_even_in_a_game_with_one_level(start_table):
    """The fourth game declares one level ("easy"), which takes a winning square; the game's timeout action takes
    the first free one. The seat that left is played by the level, not by the timeout action."""
    assert bot_seats.middle_level("tictactoe") == "easy"
    assert [bot_seats.middle_level(game) for game in ("perudo", "spicy", "chinesecheckers")] == ["medium"] * 3
    match, users = start_table("tictactoe", 2)
    for seat, cell in [(0, 4), (1, 0), (0, 5), (1, 1)]:  # X holds 4 and 5 and may win at 3; O threatens 2
        services.match_apply_action(
            match_id=match.pk,
            user=users[seat],
            expected_version=match.version,
            action={"type": "mark", "cell": cell},
        )
        match.refresh_from_db()
    assert match.rules.timeout_action(match.state, 0) == {"type": "mark", "cell": 2}
    timers.seat_leave(match_id=match.pk, user=users[0])
    match.refresh_from_db()
    assert match.state["board"][3] == 0 and match.state["board"][2] is None
    assert match.status == Match.Status.FINISHED


def test_levels_are_worded_in_the_readers_language_and_other_names_shown_as_they_are(client, monkeypatch):
    from django.utils import translation

    with translation.override("it"):
        assert bot_seats.level_choices("perudo") == [
            ("easy", "Facile"),
            ("medium", "Medio"),
            ("hard", "Difficile"),
        ]
    page = client.get("/", HTTP_ACCEPT_LANGUAGE="fr").content.decode()
    assert '<option value="medium">Moyen</option>' in page
    monkeypatch.setattr(bot_seats, "levels", lambda game: {"random": None, "greedy": None})
    assert bot_seats.level_choices("tictactoe") == [("random", "random"), ("greedy", "greedy")]
