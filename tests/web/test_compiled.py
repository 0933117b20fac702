"""A query compiled once answers what the ORM answers, for every value, on both databases; and a query whose
varying values the ORM would transform is refused when it is first compiled (web/compiled.py)."""

from datetime import timedelta

import pytest
from django.contrib.auth import get_user_model
from django.db import DEFAULT_DB_ALIAS, connections
from django.db.models import Exists, OuterRef, Subquery
from django.utils import timezone

from moderation import services as moderation
from moderation.sanctions import lockout_of
from ratings.models import Rating
from turnengine.models import Match, Seat
from web.compiled import Compiled, row_reader

pytestmark = pytest.mark.django_db


def _seats(match_id: int, pool: str):
    rating = Rating.objects.filter(user_id=OuterRef("user_id"), game="perudo", pool=pool).values("rating")[:1]
    return (
        Seat.objects.filter(match_id=match_id)
        .annotate(rating=Subquery(rating), bot=Exists(get_user_model().objects.filter(pk=OuterRef("user_id"), is_bot=True)))
        .order_by("index")
        .values_list("index", "user__username", "user__is_guest", "rating", "bot")
    )


def test_a_compiled_query_answers_as_the_orm_for_every_value(start_table, make_user):
    first, first_users = start_table("perudo", 3)
    second, _ = start_table("perudo", 2)
    Rating.objects.create(user=first_users[1], game="perudo", pool="one", rating=1612.5, games=3)
    Rating.objects.create(user=first_users[2], game="perudo", pool="two", rating=1400.0, games=3)
    compiled = Compiled(_seats, match_id=int, pool=str)
    cases = [(match.pk, pool) for match in (first, second) for pool in ("one", "two", "none")]
    for match_id, pool in [*cases, (second.pk + 100, "one")]:
        assert compiled.rows(match_id=match_id, pool=pool) == list(_seats(match_id, pool)), (match_id, pool)
    assert compiled.rows(match_id=2**70, pool="one") == []  # no row, where SQLite's driver would overflow
    rows = compiled.rows(match_id=first.pk, pool="one")
    assert [row[3] for row in rows] == [None, 1612.5, None]
    assert all(type(row[2]) is bool and type(row[4]) is bool for row in rows)  # SQLite's 0/1 converted as the ORM
    assert compiled.first(match_id=first.pk + 100, pool="one") is None


def test_the_match_sockets_lookup_sees_a_lockout_start_and_end_on_the_databases_clock(start_table, make_user):
    match, users = start_table("perudo", 2)
    moderator = make_user()
    compiled = Compiled(
        lambda match_id, user_id: Match.objects.filter(pk=match_id)
        .annotate(locked_out=lockout_of(user_id))
        .values_list("pk", "locked_out"),
        match_id=int,
        user_id=int,
    )
    assert compiled.first(match_id=match.pk, user_id=users[1].pk) == (match.pk, False)
    suspension = moderation.moderation_suspend(
        moderator=moderator, user=users[1], reason="x", duration=timedelta(hours=1)
    )
    assert compiled.first(match_id=match.pk, user_id=users[1].pk) == (match.pk, True)
    assert compiled.first(match_id=match.pk, user_id=users[0].pk) == (match.pk, False)
    suspension.ends_at = timezone.now() - timedelta(seconds=1)
    suspension.save()
    assert compiled.first(match_id=match.pk, user_id=users[1].pk) == (match.pk, False)


def test_a_value_the_orm_would_transform_is_refused_at_the_first_compile(start_table):
    start_table("perudo", 2)
    within = Compiled(
        lambda name: Seat.objects.filter(user__username__contains=name).values_list("index"), name=str
    )
    with pytest.raises(ValueError, match="transformed"):
        within.rows(name="play")
    unordered = Compiled(
        lambda match_id: Seat.objects.filter(match_id=match_id)
        .annotate(n=Subquery(Seat.objects.filter(pk=OuterRef("pk")).values("index")[:1]))
        .values_list("n", "index"),
        match_id=int,
    )
    with pytest.raises(ValueError, match="annotations last"):
        unordered.rows(match_id=1)


def test_each_connection_compiles_once(start_table, django_assert_num_queries):
    match, _ = start_table("perudo", 2)
    compiled = Compiled(_seats, match_id=int, pool=str)
    compiled.rows(match_id=match.pk, pool="one")
    with django_assert_num_queries(1) as captured:
        compiled.rows(match_id=match.pk, pool="two")
    assert captured.captured_queries[0]["sql"].count("two") == 1
    assert list(compiled._by_connection) == [connections[DEFAULT_DB_ALIAS]]


def test_a_row_reader_gives_the_instance_the_orm_gives(start_table):
    match, users = start_table("perudo", 3)
    read_match, read_user = row_reader(Match), row_reader(get_user_model())
    for model, read, pk in ((Match, read_match, match.pk), (get_user_model(), read_user, users[2].pk)):
        mine, orms = read(pk), model.objects.get(pk=pk)
        fields = [field.attname for field in model._meta.concrete_fields]
        assert [getattr(mine, name) for name in fields] == [getattr(orms, name) for name in fields]
        assert not mine._state.adding and mine._state.db == orms._state.db
    assert read_match(match.pk).state == match.state and isinstance(read_match(match.pk).state, dict)
    assert read_match(match.pk + 100) is None and read_user(2**70) is None
