"""Post-game analysis: the numbers of scripted games against values worked out by hand, the Celery-free path
from a finished match to its stored analysis and the replay page, and that a running match has none."""

from __future__ import annotations

import pytest
from tapete_sdk.plugin import CHANCE

from botapi.analysis import chinesecheckers, perudo, spicy
from botapi.analysis.store import ANALYSES, analysis_compute
from botapi.models import Analysis
from games.chinesecheckers.rules import RULES as CC
from games.perudo.rules import RULES as PERUDO
from games.spicy.rules import RULES as SPICY
from turnengine import services
from turnengine.models import Match


def scripted(rules, options: dict, num_players: int, actions: list[tuple[int, dict]]):
    """Apply ``actions`` (chance ones included) and return the analysis's rows (step, version, seat, action)."""
    state = rules.initial_state(rules.normalize_options(options, num_players), num_players)
    rows = []
    for step, (seat, action) in enumerate(actions, start=1):
        state, _events = rules.apply_action(state, seat, action)
        rows.append((step, step, seat, action))
    return state, rows


def test_perudo_bid_and_dudo_probabilities_are_binomial():
    options = {"startingDice": 2, "firstPlayer": "random"}
    _state, rows = scripted(
        PERUDO,
        options,
        2,
        [
            (CHANCE, {"type": "first_player", "seat": 0}),
            (CHANCE, {"type": "roll", "dice": [[2, 2], [1, 2]]}),
            (0, {"type": "bid", "quantity": 3, "face": 2}),
            (1, {"type": "dudo"}),
        ],
    )
    data = perudo.analyse(PERUDO, PERUDO.normalize_options(options, 2), 2, rows)
    bid, dudo = data["moves"]
    # Seat 0 holds two 2s: the bid needs one more among the 2 unknown dice, each a 2 or a Paco with p = 1/3:
    # P(at least one) = 1 - (2/3)^2 = 5/9.
    assert bid["p_true_own"] == pytest.approx(5 / 9)
    assert bid["count"] == 4 and bid["true"] is True  # 2, 2, 2 and the Paco
    # Seat 1 holds a Paco and a 2 (two of three): Dudo is right if seat 0's 2 unknown dice hold none: (2/3)^2.
    assert dudo["p_right_own"] == pytest.approx(4 / 9)
    assert dudo["right"] is False
    # Knowing every die, seat 1 keeps its die with a true raise instead: 4 × 2 (there are four).
    (saving,) = data["saving"]
    assert saving["seat"] == 1 and saving["round"] == 1
    assert saving["alternative"]["type"] == "bid"
    assert saving["alternative"]["quantity"] <= 4 and saving["alternative"]["face"] in {1, 2}
    luck = {player["seat"]: player for player in data["players"]}
    assert luck[0]["pacos"] == 0 and luck[0]["pacos_expected"] == pytest.approx(2 / 6)
    assert luck[1]["pacos"] == 1 and luck[1]["luck"] == pytest.approx(1 - 2 / 6)
    assert luck[0]["mean_p_true_own"] == pytest.approx(5 / 9) and luck[1]["calls"] == 1
    assert luck[1]["calls_right"] == 0


def test_perudo_palifico_counts_no_pacos_and_calza_is_an_exact_binomial():
    assert perudo.binomial_exactly(4, 1, 1 / 3) == pytest.approx(4 * (1 / 3) * (2 / 3) ** 3)
    assert perudo.binomial_at_least(3, 2, 1 / 6) == pytest.approx(3 * (1 / 6) ** 2 * (5 / 6) + (1 / 6) ** 3)
    options = {"startingDice": 1, "calza": True, "firstPlayer": "random"}
    _state, rows = scripted(
        PERUDO,
        options,
        3,
        [
            (CHANCE, {"type": "first_player", "seat": 0}),
            (CHANCE, {"type": "roll", "dice": [[5], [1], [5]]}),
            (0, {"type": "bid", "quantity": 2, "face": 5}),
            (1, {"type": "calza"}),
        ],
    )
    data = perudo.analyse(PERUDO, PERUDO.normalize_options(options, 3), 3, rows)
    bid, calza = data["moves"]
    # Seat 0's own 5 leaves one to find among 2 unknown dice (p = 1/3): 1 - (2/3)^2.
    assert bid["p_true_own"] == pytest.approx(5 / 9)
    # Seat 1's Paco counts: exactly one more 5 or Paco among the 2 others: 2 × 1/3 × 2/3 = 4/9. It was 3: wrong.
    assert calza["p_right_own"] == pytest.approx(4 / 9) and calza["right"] is False and calza["count"] == 3


def test_spicy_bluffs_and_challenge_odds_from_the_challengers_view():
    state = SPICY.initial_state(SPICY.normalize_options({"challengeGraceMs": 0}, 2), 2)
    shuffle = SPICY.sample_chance(state, __import__("random").Random(3))
    state, _ = SPICY.apply_action(state, CHANCE, shuffle)
    seat = min(SPICY.awaited(state))
    hand = state["hands"][seat]
    legal = SPICY.legal_actions(state, seat)
    bluff = next(
        a
        for a in legal
        if a["type"] == "play"
        and a["card"] == hand[0]
        and not spicy.claim_holds(
            a["card"], "both", (a["declare"]["spice"], a["declare"]["number"]), turn_it_up=False
        )
    )
    after, _ = SPICY.apply_action(state, seat, bluff)
    challenger = 1 - seat
    challenge = {"type": "challenge", "trait": "number"}
    rows = [(1, 1, CHANCE, shuffle), (2, 2, seat, bluff), (3, 3, challenger, challenge)]
    data = spicy.analyse(SPICY, state["options"], 2, rows)
    play, challenged = data["moves"]
    assert play["bluff"] is True and play["card"] == hand[0]
    # By hand: the deck less the challenger's own hand; count the cards whose number fails the declared one.
    from collections import Counter

    from games.spicy.cards import DECK, number_holds

    unseen = Counter(DECK) - Counter(after["hands"][challenger])
    failing = sum(
        n
        for card, n in unseen.items()
        if not number_holds(card, bluff["declare"]["number"], turn_it_up=False)
    )
    assert challenged["p_success_own"] == pytest.approx(failing / sum(unseen.values()))
    assert challenged["won"] == (not number_holds(hand[0], bluff["declare"]["number"], turn_it_up=False))
    players = {player["seat"]: player for player in data["players"]}
    assert players[seat]["bluffs"] == 1 and players[challenger]["challenges"] == 1


def test_chinesecheckers_progress_against_the_hard_bot():
    options = CC.normalize_options({"maxTurns": 15}, 2)
    state = CC.initial_state(options, 2)
    chance = CC.sample_chance(state, __import__("random").Random(1))
    state, _ = CC.apply_action(state, CHANCE, chance)
    seat = min(CC.to_act(state))
    view = CC.view(state, seat)
    legal = CC.legal_actions(state, seat)
    worst = min(legal, key=lambda action: chinesecheckers.progress(view, action))
    data = chinesecheckers.analyse(CC, options, 2, [(1, 1, CHANCE, chance), (2, 2, seat, worst)], seed="s")
    (move,) = data["moves"]
    assert move["progress"] == chinesecheckers.progress(view, worst)
    assert move["given_up"] == max(0, move["preferred_progress"] - move["progress"])
    # At the opening the hard bot moves forward (a step, or a hop over its front row): the worst move gave that up.
    assert move["preferred_progress"] >= 1 and move["given_up"] == move["preferred_progress"] - move["progress"]
    assert data["players"][seat]["worst"] == ([2] if move["given_up"] else [])


@pytest.mark.django_db
@pytest.mark.parametrize("game", sorted(ANALYSES))
def test_a_finished_match_is_analysed_and_shown_on_its_replay_page(start_table, client, game):
    from tests.conftest import FAST_OPTIONS

    match, users = start_table(game, 2, FAST_OPTIONS[game])
    assert analysis_compute(match_id=match.pk) is None  # running: no analysis, ever
    page = client.get(f"/table/{match.pk}/replay/").content.decode()
    assert "Post-game analysis" not in page
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
    assert analysis.data["game"] == game and analysis.data["moves"]
    page = client.get(f"/table/{match.pk}/replay/").content.decode()
    assert "Post-game analysis" in page and users[0].username in page
    assert page.count("data-analysis-step=") == len(analysis.data["moves"])


@pytest.mark.django_db
def test_an_older_match_is_analysed_on_demand_and_served_by_the_api(start_table, api_for, client):
    from django.core.management import call_command

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
    call_command("analyse_matches", stdout=__import__("io").StringIO())
    served = api.get(f"/tables/{match.pk}/analysis").json()
    assert (
        served["game"] == "perudo"
        and served["summary"]
        and len(served["notes"]) == len(served["data"]["moves"])
    )
    french = api.client.get(
        f"/api/tables/{match.pk}/analysis", headers={**api.headers, "Accept-Language": "fr"}
    ).json()
    assert any("dés" in line for line in french["summary"])  # the summary speaks the reader's language
