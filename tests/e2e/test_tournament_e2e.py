"""A small Swiss tournament in four browsers against the real stack (daphne, a Celery worker and its beat): the
players join from the tournament's page, beat starts it on time and pairs it, each player's table opens on its
own, they play it by clicking, the next round is paired when both tables have finished and opens on its own too,
and the final standings show on the page. Viewport screenshots at 1280x800 and 375x812 (and 812x375) go to
``test-artifacts/tournament-*.png``."""

from __future__ import annotations

import time
from datetime import timedelta

import pytest
from django.utils import timezone

from tests.e2e.conftest import ARTIFACTS
from tournaments.models import Round, Tournament

pytestmark = pytest.mark.e2e

SWEEP = 40_000  # ms: the beat sweeps every 15 s; a round waits for at most two sweeps
WIN_FOR_SEAT_0 = [(0, 0), (1, 3), (0, 1), (1, 4), (0, 2)]


def paired(tournament: Tournament, number: int) -> Round:
    """Round ``number`` once the worker has paired it."""
    deadline = time.monotonic() + SWEEP / 1000
    while time.monotonic() < deadline:
        found = Round.objects.filter(tournament=tournament, number=number).first()
        if found is not None:
            return found
        time.sleep(0.5)
    raise AssertionError(f"round {number} was not paired")


def play_round(pages: dict, tournament: Tournament, number: int) -> None:
    """Every table of round ``number``: its seat 0 wins, by clicks on both players' pages."""
    for table in paired(tournament, number).tables.select_related("match"):
        seats = {seat.index: pages[seat.user.username] for seat in table.match.seats.select_related("user")}
        for page in seats.values():
            page.wait_for_url(f"**/table/{table.match_id}/", timeout=SWEEP)
            page.wait_for_selector("[data-board] .tictactoe-grid button >> nth=8")
        for seat, cell in WIN_FOR_SEAT_0:
            seats[seat].locator(f"[data-board] button[data-cell='{cell}']:not([disabled])").click()
            for page in seats.values():
                page.wait_for_function(
                    "([cell, mark]) => document.querySelector(`[data-board] button[data-cell='${cell}']`)"
                    ".textContent === mark",
                    arg=[cell, "XO"[seat]],
                )
        for page in seats.values():
            page.wait_for_selector("[data-result]:not([hidden])")


def screenshots(page, name: str) -> None:
    ARTIFACTS.mkdir(exist_ok=True)
    for width, height in ((1280, 800), (375, 812), (812, 375)):
        page.set_viewport_size({"width": width, "height": height})
        page.evaluate("window.scrollTo(0, 0)")
        page.screenshot(path=str(ARTIFACTS / f"tournament-{name}-{width}x{height}.png"))
        scroll = page.evaluate("document.documentElement.scrollWidth")
        assert scroll <= width, f"{name} scrolls sideways at {width} px"


def test_four_browsers_play_a_swiss_tournament_to_the_final_standings(new_player, make_user):
    names = ["ana", "bruno", "chiara", "dario"]
    pages = {name: new_player(name) for name in names}
    staff = make_user("organiser")
    tournament = Tournament.objects.create(
        name="Tic-tac-toe night", game="tictactoe", table_size=2, rounds=2, created_by=staff,
        starts_at=timezone.now() + timedelta(seconds=20),
    )
    for page in pages.values():
        page.goto(f"/tournaments/{tournament.pk}/")
        page.click("button[formaction$='/join/']")
        page.wait_for_selector("text=You are playing in this tournament.")
    watcher = pages["ana"]
    watcher.wait_for_selector("text=dario")  # the list of players, live
    screenshots(watcher, "upcoming")
    watcher.set_viewport_size({"width": 1280, "height": 900})

    play_round(pages, tournament, 1)  # the tables open on their own once beat has started the tournament
    tournament.refresh_from_db()
    assert tournament.status == Tournament.Status.RUNNING
    play_round(pages, tournament, 2)  # round 2 opens on its own after both tables of round 1 finished
    round_two = Round.objects.get(tournament=tournament, number=2)
    winner = pages[round_two.tables.first().match.seats.get(index=0).user.username]
    # The result screen leads back to the standings, and offers no rematch outside the tournament.
    winner.locator("[data-result] [data-back-to-tournament]").wait_for()
    assert winner.locator("[data-play-again], [data-back-to-lobby]").count() == 0
    screenshots(winner, "table")

    watcher.goto(f"/tournaments/{tournament.pk}/")
    watcher.wait_for_selector(".tournament-status .status-finished", timeout=SWEEP)
    standings = watcher.inner_text("table.standings")
    tournament.refresh_from_db()
    assert tournament.status == Tournament.Status.FINISHED
    first = watcher.locator("table.standings tbody tr").first.inner_text()
    assert "4" in first  # two wins of 2 points
    assert all(name in standings for name in names)
    screenshots(watcher, "finished")
    for language in ("fr", "it"):
        root = watcher.url.split("/tournaments/")[0] + "/"  # the cookie's path is the site's root
        watcher.context.add_cookies([{"name": "django_language", "value": language, "url": root}])
        watcher.reload()
        watcher.wait_for_selector(f"html[lang={language}]")
        screenshots(watcher, f"finished-{language}")
    watcher.goto("/tournaments/")
    screenshots(watcher, "list-it")
