"""Post-game analysis, the platform's part: the Celery-free path from a finished match to its stored analysis and
the replay page for every game that has one, the API and its French, a running match that has none, a game without
an analysis (no tab, a coded refusal) and the system check for a game with half an analysis. Each game's
numbers are tested with its rules (tests/games/<game>/test_<game>_analysis.py), the fourth game's words in
tests/fourth_game."""

from __future__ import annotations

import io

import pytest
from django.core.management import call_command
from django.utils import translation
from tapete_sdk import registry

from botapi.analysis.store import analysis_compute
from botapi.checks import analysis_has_both_halves
from botapi.models import Analysis
from games.perudo import analysis_words
from tests.conftest import FAST_OPTIONS, GAME_KEYS, play_to_the_end
from turnengine import game_app, services
from turnengine.models import Match

pytestmark = pytest.mark.django_db

ANALYSED = [key for key in GAME_KEYS if registry.analysis(key) is not None]
WITHOUT = "tictactoe"  # the fourth game, its analysis taken away by the fixture below


def test_every_installed_game_declares_its_analysis_from_its_own_folder():
    assert ANALYSED == GAME_KEYS
    assert analysis_has_both_halves() == []


@pytest.mark.parametrize("game", ANALYSED)
def test_a_finished_match_is_analysed_and_shown_on_its_replay_page(start_table, client, game):
    match, users = start_table(game, 2, FAST_OPTIONS[game])
    assert analysis_compute(match_id=match.pk) is None  # running: no analysis, ever
    page = client.get(f"/table/{match.pk}/replay/").content.decode()
    assert "Post-game analysis" not in page and 'id="tab-analysis"' not in page
    for _ in range(3000):
        match.refresh_from_db()
        if match.status != Match.Status.ACTIVE:
            break
        seat = min(s for s in match.rules.awaited(match.state))
        action = match.rules.legal_actions(match.state, seat)[0]
        services.match_apply_action(
            match_id=match.pk, user=users[seat], expected_version=match.version, action=action
        )
    assert not Analysis.objects.filter(match=match).exists()
    analysis = analysis_compute(match_id=match.pk)
    assert analysis.data["moves"]
    page = client.get(f"/table/{match.pk}/replay/").content.decode()
    assert 'id="tab-analysis"' in page and "Post-game analysis" in page and users[0].username in page
    assert page.count("data-analysis-step=") == len(analysis.data["moves"])


def test_an_older_match_is_analysed_on_demand_and_served_by_the_api(start_table, api_for, client):
    match, users = start_table("perudo", 2, {"startingDice": 1})
    for _ in range(200):
        match.refresh_from_db()
        if match.status != Match.Status.ACTIVE:
            break
        seat = min(match.rules.awaited(match.state))
        legal = match.rules.legal_actions(match.state, seat)
        action = next((a for a in legal if a["type"] == "dudo"), legal[0])
        services.match_apply_action(
            match_id=match.pk, user=users[seat], expected_version=match.version, action=action
        )
    api = api_for(users[1])
    pending = api.get(f"/tables/{match.pk}/analysis")
    assert pending.status_code == 409 and pending.json()["code"] == "analysis_pending"
    assert "being computed" in client.get(f"/table/{match.pk}/replay/").content.decode()
    call_command("analyse_matches", stdout=io.StringIO())
    served = api.get(f"/tables/{match.pk}/analysis").json()
    assert (
        served["game"] == "perudo"
        and served["summary"]
        and len(served["notes"]) == len(served["data"]["moves"])
    )
    # Perudo's rounds where another choice would have kept the die: a highlight each, at the step of the decision.
    saving = served["data"]["saving"]
    assert [line["version"] for line in served["highlights"]] == [entry["version"] for entry in saving]
    page = client.get(f"/table/{match.pk}/replay/").content.decode()
    for line in served["highlights"]:
        assert line["text"].replace("'", "&#x27;") in page
    french = api.client.get(
        f"/api/tables/{match.pk}/analysis", headers={**api.headers, "Accept-Language": "fr"}
    ).json()
    assert any("dés" in line for line in french["summary"])  # the summary speaks the reader's language


@pytest.fixture
def game_without_analysis(monkeypatch):
    """The fourth game as a game that has no post-game analysis: the registry forgets its analysis for the test."""
    monkeypatch.delitem(registry._analyses, WITHOUT)
    return WITHOUT


def test_a_game_without_an_analysis_shows_none(game_without_analysis, start_table, api_for, client):
    match, users = start_table(game_without_analysis)
    match = play_to_the_end(match, users)
    client.force_login(users[0])
    page = client.get(f"/table/{match.pk}/replay/")
    assert page.status_code == 200
    # No tab, and no "being computed" that would never end.
    assert (
        'id="tab-analysis"' not in page.content.decode() and "Post-game analysis" not in page.content.decode()
    )
    refused = api_for(users[0]).get(f"/tables/{match.pk}/analysis")
    assert refused.status_code == 404 and refused.json()["code"] == "no_analysis"
    assert analysis_compute(match_id=match.pk) is None and not Analysis.objects.exists()


def test_the_system_check_reports_a_game_with_numbers_and_no_words(monkeypatch):
    monkeypatch.setattr(game_app.config_of(WITHOUT), "analysis_words", "no_such_module")
    (error,) = analysis_has_both_halves()
    assert (
        error.id == "botapi.E001"
        and "tests.tictactoe" in error.msg
        and "no module analysis_words" in error.msg
    )


@pytest.mark.parametrize(
    "language, right, said",
    [
        ("en", 1, "1 right out of 2"),
        ("fr", 1, "1 juste sur 2"),
        ("fr", 2, "2 justes sur 2"),
        ("it", 1, "1 giusto su 2"),
        ("it", 0, "0 giusti su 2"),
    ],
)
def test_perudo_counts_a_players_right_calls_in_the_readers_grammar(language, right, said):
    player = {
        "seat": 0,
        "bids": [],
        "calls": 2,
        "calls_right": right,
        "luck": 0.0,
        "pacos": 1,
        "pacos_expected": 1.0,
    }
    with translation.override(language):
        lines = analysis_words.summary({"players": [player], "saving": []}, {0: "Ana"})
    assert any(said in line for line in lines), lines


def test_moves_the_computer_played_for_an_away_player_say_so_and_are_numbered_within_their_step(
    start_table, client
):
    """A disconnected player's seat is played by the computer once the grace is over: the analysis used to
    attribute those moves to the player without a word, and the player's own move and the computer's next one,
    logged at the same replay step, were both labelled "Step n" (issue 35)."""
    from botapi.analysis.presentation import analysis_context
    from tests.conftest import computer_plays_for_an_away_seat
    from turnengine.played_for import computer_played_steps

    match, users = start_table("perudo", 2)
    away = computer_plays_for_an_away_seat(match, users)
    other = 1 - away
    played_for = computer_played_steps(match)
    assert played_for and all(match.actions.get(step=step).seat == away for step in played_for)
    match = play_to_the_end(match, users)
    analysis_compute(match_id=match.pk)

    notes = analysis_context(match=match)["notes"]
    computer = [note for note in notes if note["computer"]]
    assert {note["step"] for note in computer} == played_for & {note["step"] for note in notes}
    assert computer and all(
        note["text"].startswith(f"Played by the computer for {users[away].username}, who was away: ")
        for note in computer
    )
    assert not any(note["computer"] for note in notes if note["step"] not in played_for)
    labels = [(note["version"], note["part"]) for note in notes]
    assert len(labels) == len(set(labels))  # never two notes alike
    shared = [note for note in notes if note["parts"] > 1]
    assert shared, "the player's move and the computer's share a step"
    client.force_login(users[other])
    page = client.get(f"/table/{match.pk}/replay/").content.decode()
    version, parts = shared[0]["version"], shared[0]["parts"]
    assert f"Step {version} (1/{parts})" in page and f"Step {version} ({parts}/{parts})" in page
    assert "Played by the computer for" in page
