"""Races are settled by the database: row lock + version check, never by luck."""

import pytest

from tests.conftest import race
from turnengine import services
from turnengine.errors import EngineError
from turnengine.models import Match, MatchAction

pytestmark = pytest.mark.django_db(transaction=True)


APPLIED = "applied"


def _applying(call):
    """``call``, answering ``APPLIED`` when it applies (a move's service returns nothing: its frames go through the
    outbox)."""

    def run():
        call()
        return APPLIED

    return run


def test_two_seats_racing_at_the_same_version_exactly_one_wins(start_table):
    # Perudo with Salsa and Calza: after a bid, several seats may act at once.
    match, users = start_table("perudo", 3, {"salsa": True, "calza": True})
    rules = match.rules
    opener = min(rules.to_act(match.state))
    bid = next(action for action in rules.legal_actions(match.state, opener) if action["type"] == "bid")
    services.match_apply_action(
        match_id=match.pk, user=users[opener], expected_version=match.version, action=bid
    )
    match.refresh_from_db()
    racers = sorted(rules.to_act(match.state))
    assert len(racers) >= 2
    version = match.version
    calls = [
        (
            lambda seat=seat: services.match_apply_action(
                match_id=match.pk,
                user=users[seat],
                expected_version=version,
                action=next(a for a in rules.legal_actions(match.state, seat) if a["type"] == "dudo"),
            )
        )
        for seat in racers[:2]
    ]
    results = race([_applying(call) for call in calls])
    winners = [result for result in results if result is APPLIED]
    losers = [result for result in results if isinstance(result, EngineError)]
    assert len(winners) == 1 and len(losers) == 1
    assert losers[0].code == "stale" and losers[0].version == version + 1
    match.refresh_from_db()
    assert match.version == version + 1
    assert MatchAction.objects.filter(match=match, version=version + 1, action__type="dudo").count() == 1


def test_many_racers_on_the_same_seat_apply_one_action(start_table):
    match, users = start_table("chinesecheckers", 2)
    rules = match.rules
    (seat,) = rules.to_act(match.state)
    moves = rules.legal_actions(match.state, seat)[:4]
    version = match.version
    results = race(
        [
            _applying(
                lambda move=move: services.match_apply_action(
                    match_id=match.pk, user=users[seat], expected_version=version, action=move
                )
            )
            for move in moves
        ]
    )
    assert results.count(APPLIED) == 1
    assert all(result.code == "stale" for result in results if isinstance(result, EngineError))
    assert Match.objects.get(pk=match.pk).version == version + 1
