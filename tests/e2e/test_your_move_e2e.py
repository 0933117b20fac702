"""Your move, in a real browser against the live server: a player with three turn-based tables sees 3 in the header's
badge and the tab's title, goes through them with "next table", and gets a browser notification when a move arrives
at one of them while another tab is in front; the count follows live over the lobby socket; an e-mail's unsubscribe
link asks before it acts, without logging in. Viewport screenshots of the pages and the header in English, French
and Italian at 1280x800, 375x812 and 812x375."""

from __future__ import annotations

import pytest
from django.contrib.auth import get_user_model
from django.urls import reverse

from alerts import vacation
from alerts.models import AlertSettings
from alerts.preferences import unsubscribe_token
from lobby import services as lobby
from tests.conftest import PASSWORD
from tests.e2e.conftest import ARTIFACTS

pytestmark = pytest.mark.e2e

SIZES = ((1280, 800), (375, 812), (812, 375))
# Records every notification the page shows (Chromium's headless notifications are not visible otherwise).
RECORD_NOTIFICATIONS = """
(() => {
  window.__notifications = [];
  const Original = window.Notification;
  class Recorded extends Original {
    constructor(title, options) { super(title, options); window.__notifications.push({ title, body: options.body }); }
  }
  Object.defineProperty(Recorded, "permission", { get: () => Original.permission });
  Recorded.requestPermission = (...args) => Original.requestPermission(...args);
  window.Notification = Recorded;
})();
"""


def make_player(name: str):
    return get_user_model().objects.create_user(username=name, email=f"{name}@example.org", password=PASSWORD)


def log_in(browser, live_url, name: str, *, language: str = "en", notifications: bool = False):
    context = browser.new_context(viewport={"width": 1280, "height": 800}, base_url=live_url)
    context.add_cookies([{"name": "django_language", "value": language, "url": live_url}])
    if notifications:
        context.grant_permissions(["notifications"], origin=live_url)
        context.add_init_script(RECORD_NOTIFICATIONS)
    page = context.new_page()
    page.set_default_timeout(10_000)
    page.goto("/accounts/login/")
    page.fill("#id_username", name)
    page.fill("#id_password", PASSWORD)
    page.click("form.stacked button[type=submit]")
    page.wait_for_url(lambda url: "/login/" not in url)
    return context, page


def turn_based_tables(player, opponents) -> list[int]:
    """A turn-based Tic-tac-toe table against each opponent, started: the player (seat 0) moves first at each."""
    tables = []
    for opponent in opponents:
        match = lobby.table_create(
            user=player, game="tictactoe", num_players=2, options={}, ranked=False, time_control="daily"
        )
        lobby.table_join(user=opponent, match_id=match.pk)
        lobby.table_start(user=player, match_id=match.pk)
        tables.append(match.pk)
    return tables


def badge(page) -> str:
    return page.inner_text("[data-turns-count]").strip()


def shoot(page, name: str) -> None:
    ARTIFACTS.mkdir(exist_ok=True)
    for width, height in SIZES:
        page.set_viewport_size({"width": width, "height": height})
        page.screenshot(path=str(ARTIFACTS / f"{name}-{width}x{height}.png"))  # the viewport, as a player sees it
    page.set_viewport_size({"width": 1280, "height": 800})


def test_three_tables_next_table_and_a_notification(browser, live_url, transactional_db):
    ana = make_player("ana")
    opponents = [make_player(f"bruno{index}") for index in range(3)]
    tables = turn_based_tables(ana, opponents)

    context, page = log_in(browser, live_url, "ana", notifications=True)
    page.goto("/your-move/")
    assert badge(page) == "3"
    page.wait_for_function("() => document.title.startsWith('(3) ')")
    assert page.locator(".your-move-list li").count() == 3
    hrefs = [page.locator(".your-move-list li a").nth(index).get_attribute("href") for index in range(3)]
    assert hrefs == [f"/table/{pk}/" for pk in tables]  # the longest-waiting first
    page.wait_for_selector("[data-notify-state]")
    assert "on" in page.inner_text("[data-notify-state]")  # granted in this test: the offer says so
    shoot(page, "your-move-en")
    page.goto("/your-move/settings/")
    shoot(page, "your-move-settings-en")
    page.goto("/your-move/")

    # "Next table waiting for me", then the badge at each table, go through the three.
    page.click("[data-next-table]")
    page.wait_for_url(f"**/table/{tables[0]}/")
    page.wait_for_selector("[data-board] .tictactoe-grid button >> nth=8")
    shoot(page, "your-move-table-en")
    for following in tables[1:]:
        page.click("[data-turns-link]")
        page.wait_for_url(f"**/table/{following}/")

    # Ana moves at the first table: 2 left, pushed live to her other tab's badge and title.
    other = context.new_page()
    other.goto("/your-move/")
    page.goto(f"/table/{tables[0]}/")
    page.locator("[data-board] button[data-cell='0']:not([disabled])").click()
    other.wait_for_function("() => document.querySelector('[data-turns-count]').textContent === '2'")
    other.wait_for_function("() => document.title.startsWith('(2) ')")
    other.wait_for_function("() => document.querySelectorAll('.your-move-list li').length === 2")

    # Bruno answers while Ana's "Your move" tab is in front: a notification, and 3 again.
    other.bring_to_front()
    bruno_context, bruno = log_in(browser, live_url, "bruno0")
    bruno.goto(f"/table/{tables[0]}/")
    bruno.locator("[data-board] button[data-cell='4']:not([disabled])").click()
    other.wait_for_function("() => document.querySelector('[data-turns-count]').textContent === '3'")
    other.wait_for_function("() => window.__notifications.length === 1")
    note = other.evaluate("() => window.__notifications[0]")
    assert note["title"] == "Tapete: your move" and f"#{tables[0]}" in note["body"]
    other.wait_for_function("() => document.querySelectorAll('.your-move-list li').length === 3")
    bruno_context.close()
    context.close()


@pytest.mark.parametrize("language", ["fr", "it"])
def test_your_move_reads_well_in_french_and_italian(browser, live_url, transactional_db, language):
    player = make_player(f"joueur{language}")
    turn_based_tables(player, [make_player(f"autre{language}{index}") for index in range(3)])
    context, page = log_in(browser, live_url, player.username, language=language)
    page.goto("/your-move/")
    assert badge(page) == "3"
    heading = {"fr": "À vous de jouer", "it": "Tocca a te"}[language]
    assert page.inner_text("h1") == heading
    shoot(page, f"your-move-{language}")
    page.goto("/your-move/settings/")
    shoot(page, f"your-move-settings-{language}")
    page.goto(page.locator(".site-header [data-turns-link]").get_attribute("href"))
    page.click("[data-next-table]")
    page.wait_for_selector("[data-board] .tictactoe-grid button >> nth=8")
    shoot(page, f"your-move-table-{language}")
    # On a phone the site's header gives way to the table's bar, which keeps the way on to the next table.
    here = page.url
    page.set_viewport_size({"width": 375, "height": 812})
    assert page.inner_text("[data-turns-next] [data-turns-count]") == "3"
    page.click("[data-turns-next]")
    page.wait_for_url(lambda url: url != here and "/table/" in url)
    context.close()


@pytest.mark.parametrize("language", ["en", "fr", "it"])
def test_the_others_see_a_vacation_at_the_table(browser, live_url, transactional_db, language):
    away, other = make_player(f"away{language}"), make_player(f"other{language}")
    table = turn_based_tables(away, [other])[0]
    vacation.start(away, days=5)
    context, page = log_in(browser, live_url, other.username, language=language)
    page.goto(f"/table/{table}/")
    note = page.locator("[data-vacation-note]")
    assert away.username in note.inner_text()
    shoot(page, f"your-move-vacation-{language}")
    page.goto("/your-move/")  # the player whose turn it is not: nothing waits for them
    assert page.locator("[data-turns-count]").is_hidden()
    context.close()


@pytest.mark.parametrize("language", ["en", "fr", "it"])
def test_the_unsubscribe_link_asks_then_unsubscribes_without_logging_in(browser, live_url, transactional_db, language):
    player = make_player(f"reader{language}")
    context = browser.new_context(viewport={"width": 1280, "height": 800}, base_url=live_url)
    context.add_cookies([{"name": "django_language", "value": language, "url": live_url}])
    page = context.new_page()
    page.set_default_timeout(10_000)
    link = reverse("alerts:unsubscribe", args=[unsubscribe_token(player)])
    page.goto(link)
    assert page.locator("[data-unsubscribe=ask]").is_visible()
    assert player.username in page.inner_text("main")
    assert AlertSettings.objects.filter(user=player, mail=AlertSettings.Mail.OFF).count() == 0  # opening: nothing
    assert page.evaluate("document.documentElement.scrollWidth <= innerWidth")
    shoot(page, f"unsubscribe-ask-{language}")
    page.click("button[value=unsubscribe]")
    page.wait_for_selector("[data-unsubscribe=unsubscribed]")
    assert AlertSettings.objects.get(user=player).mail == AlertSettings.Mail.OFF
    shoot(page, f"unsubscribe-done-{language}")
    page.click("button[value=resubscribe]")
    page.wait_for_selector("[data-unsubscribe=resubscribed]")
    assert AlertSettings.objects.get(user=player).mail == AlertSettings.Mail.IMMEDIATE
    page.goto(link[:-3] + "xx/")
    assert page.locator("[data-unsubscribe=invalid]").is_visible()
    shoot(page, f"unsubscribe-invalid-{language}")
    context.close()
