"""Opening, joining, leaving and starting tables: every refusal has a code and changes nothing."""

import pytest

from lobby import services
from lobby.errors import LobbyError
from turnengine.models import Match, Seat

pytestmark = pytest.mark.django_db


def _refused(code, call, **kwargs):
    with pytest.raises(LobbyError) as refused:
        call(**kwargs)
    assert refused.value.code == code
    assert refused.value.message


def test_creating_a_table_normalizes_options_and_seats_the_creator(make_user):
    creator = make_user()
    match = services.table_create(
        user=creator, game="perudo", num_players=4, options={"calza": True}, ranked=True
    )
    assert match.status == Match.Status.OPEN and match.ranked
    assert match.options["calza"] is True
    assert match.options["salsa"] is False  # defaults filled in
    assert list(match.seats.values_list("index", "user")) == [(0, creator.pk)]


@pytest.mark.parametrize(
    ("game", "players", "options", "code"),
    [
        ("perudo", 4, {"noSuchOption": True}, "invalid_options"),
        ("perudo", 4, {"calza": "yes"}, "invalid_options"),
        ("perudo", 7, {}, "invalid_options"),
        ("chinesecheckers", 5, {}, "invalid_options"),
        ("chess", 2, {}, "unknown_game"),
    ],
)
def test_invalid_tables_are_refused(make_user, game, players, options, code):
    _refused(
        code,
        services.table_create,
        user=make_user(),
        game=game,
        num_players=players,
        options=options,
        ranked=False,
    )
    assert not Match.objects.exists()


def test_joining_fills_free_seats_and_refuses_a_full_table(make_user):
    match = services.table_create(user=make_user(), game="spicy", num_players=3, options={}, ranked=False)
    second, third = make_user(), make_user()
    assert services.table_join(user=second, match_id=match.pk).index == 1
    assert services.table_join(user=third, match_id=match.pk, seat=2).index == 2
    _refused("table_full", services.table_join, user=make_user(), match_id=match.pk)
    _refused("already_seated", services.table_join, user=second, match_id=match.pk)


def test_taking_a_specific_seat(make_user):
    match = services.table_create(user=make_user(), game="perudo", num_players=4, options={}, ranked=False)
    services.table_join(user=make_user(), match_id=match.pk, seat=3)
    _refused("seat_taken", services.table_join, user=make_user(), match_id=match.pk, seat=3)
    _refused("no_such_seat", services.table_join, user=make_user(), match_id=match.pk, seat=4)
    assert services.table_join(user=make_user(), match_id=match.pk).index == 1


def test_leaving_frees_the_seat_but_the_creator_cancels_instead(make_user):
    creator, guest = make_user(), make_user()
    match = services.table_create(user=creator, game="perudo", num_players=2, options={}, ranked=False)
    services.table_join(user=guest, match_id=match.pk)
    services.table_leave(user=guest, match_id=match.pk)
    assert not Seat.objects.filter(match=match, user=guest).exists()
    _refused("not_seated", services.table_leave, user=guest, match_id=match.pk)
    _refused("creator_cannot_leave", services.table_leave, user=creator, match_id=match.pk)
    _refused("not_creator", services.table_cancel, user=guest, match_id=match.pk)
    services.table_cancel(user=creator, match_id=match.pk)
    assert Match.objects.get(pk=match.pk).status == Match.Status.ABORTED


def test_only_the_creator_starts_and_only_a_full_table(make_user):
    creator, guest = make_user(), make_user()
    match = services.table_create(
        user=creator, game="chinesecheckers", num_players=2, options={}, ranked=False
    )
    _refused("not_enough_players", services.table_start, user=creator, match_id=match.pk)
    services.table_join(user=guest, match_id=match.pk)
    _refused("not_creator", services.table_start, user=guest, match_id=match.pk)
    services.table_start(user=creator, match_id=match.pk)
    assert Match.objects.get(pk=match.pk).status == Match.Status.ACTIVE
    _refused("already_started", services.table_join, user=make_user(), match_id=match.pk)
    _refused("already_started", services.table_leave, user=guest, match_id=match.pk)
    _refused("already_started", services.table_start, user=creator, match_id=match.pk)
