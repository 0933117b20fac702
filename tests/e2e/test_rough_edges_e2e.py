"""The players' rough edges of issue 35, in the real browser, in English, French and Italian, at the four sizes
(1280x800, 1440x900, 375x812, 812x375), several checks on each page load:

* no text is clipped: a text element whose content is wider than its box fails (``CHECK_CLIPPING``), unless it is
  meant to end in an ellipsis and carries its whole text in its title or spoken label;
* at each game's busiest turn (Perudo's Dudo in the round after a reveal at four players, Spicy's ninth card
  with a card to answer), every control is in view and uncovered (the layout test's ``CHECK_LAYOUT``), and the
  sound toggle has a visible label (its word, or its note on a phone) and its word as its accessible name;
* Spicy: picking a card opens the declarations without pushing the status line out of view or under the bar, nor
  sliding the hand's heading under the status line;
* a refused creation form opens on its error summary (focused, in view), and its submit button is in view;
* a replay opens on the board, its result one button away, and none of its bar's items is drawn over another;
* How to play draws the Paco as the table does: the same toucan as the table's face picker, part for part;
* the analysis of a match where the computer played for an away seat says so ("Played by the computer for X"),
  and numbers the two moves that share a replay step ("Step N (1/2)", "Step N (2/2)").

One browser context per language; the tables are set up through the services. Screenshots:
``test-artifacts/edges-*.png``.
"""

from __future__ import annotations

import pytest
from django.test import Client
from django.utils import translation
from django.utils.translation import gettext
from playwright.sync_api import expect

from botapi.analysis.store import analysis_compute
from tests.conftest import GAME_KEYS, computer_plays_for_an_away_seat, play_to_the_end
from tests.e2e.conftest import ARTIFACTS
from tests.e2e.test_table_layout_e2e import (
    BUSIEST,
    CHECK_LAYOUT,
    OWN_PIECES,
    SIZES,
    _awaited,
    _open,
    _table,
)

pytestmark = [pytest.mark.e2e, pytest.mark.frontend]

LANGUAGES = ["en", "fr", "it"]

# Text elements whose content is wider than their box. An element meant to end in an ellipsis is fine when its
# whole text is in its own (or an ancestor's) title or aria-label; boxes that scroll on purpose are skipped.
CHECK_CLIPPING = """() => {
  const problems = [];
  const visible = (node) => node.checkVisibility({ checkVisibilityCSS: true, checkOpacity: true });
  const words = (text) => text.toLowerCase().split(/[^\\p{L}\\p{N}]+/u).filter(Boolean);
  // Whether every word of an ellipsized text is in a title or spoken label around it (the element's own, an
  // ancestor's, or a visually hidden text of the ancestor that holds both).
  const spoken = (node, whole) => {
    for (let around = node; around && around !== document.body; around = around.parentElement) {
      const said = [around.getAttribute("title"), around.getAttribute("aria-label"),
        ...[...around.querySelectorAll(":scope > .visually-hidden")].map((hidden) => hidden.textContent)].join(" ");
      const known = new Set(words(said));
      if (known.size && words(whole).every((word) => known.has(word))) return true;
    }
    return false;
  };
  for (const node of document.querySelectorAll("body *")) {
    if (node.closest("svg, script, style, select, option, textarea, .visually-hidden, [hidden]")) continue;
    const text = [...node.childNodes].filter((c) => c.nodeType === Node.TEXT_NODE).map((c) => c.textContent).join("").trim();
    if (!text || node.clientWidth === 0 || !visible(node)) continue;
    const style = getComputedStyle(node);
    if (/(auto|scroll)/.test(style.overflowX) || style.position === "absolute" && style.clip !== "auto") continue;
    if (node.scrollWidth <= node.clientWidth + 1) continue;
    const whole = node.textContent.trim();
    if (style.textOverflow === "ellipsis" && spoken(node, whole)) continue;
    problems.push(`${node.tagName.toLowerCase()}.${node.className.baseVal ?? node.className} "${whole.slice(0, 40)}" ${node.scrollWidth}>${node.clientWidth}`);
  }
  return problems;
}"""

# The sound toggle says what it is on the screen: its word, or its note where the word does not fit.
SOUND_LABEL_SHOWN = """() => [...document.querySelectorAll(".sound-toggle :is(.sound-label, .sound-icon)")]
  .some((node) => node.getBoundingClientRect().width > 4 && node.checkVisibility({ checkVisibilityCSS: true }))"""

IN_VIEW = """(selector) => { const box = document.querySelector(selector).getBoundingClientRect();
  return box.top >= 0 && box.left >= 0 && box.bottom <= innerHeight && box.right <= innerWidth; }"""

# A die's picture: the shape and place of each part drawn over the die's body (pips or the toucan's parts).
PICTURE = """(selector) => [...(document.querySelector(selector)?.querySelectorAll("rect ~ *, rect ~ * *") ?? [])]
  .filter((node) => node.tagName !== "g")
  .map((node) => [node.tagName, ...["d", "cx", "cy", "r", "rx", "ry"].map((name) => node.getAttribute(name))].join(" "))"""

SHOWN_WHOLE = """(node) => { const box = node.getBoundingClientRect();
  const hit = document.elementFromPoint(box.left + box.width / 2, box.top + box.height / 2);
  return box.top >= 0 && box.bottom <= innerHeight && box.left >= 0 && box.right <= innerWidth
    && !!hit && node.contains(hit); }"""

# The first replay step that two notes of the analysis share (a player's move, then the computer's).
SHARED_STEP = """() => { const steps = [...document.querySelectorAll("li[data-analysis-step]")].map((li) => li.dataset.analysisStep);
  return steps.find((step, index) => steps.indexOf(step) !== index) ?? null; }"""

# Items of the table's bar (and of the replay's controls and seat picker) whose boxes overlap: each is drawn over
# another (issue 36: the replay's controls ran under "Voir la partie du point de vue de" at 812x375).
BAR_OVERLAPS = """() => {
  const items = [...document.querySelectorAll(".table-bar > *, .replay-controls > *, .replay-seat > *")]
    .filter((node) => node.checkVisibility({ checkVisibilityCSS: true }) && node.getBoundingClientRect().width > 2);
  const problems = [];
  items.forEach((one, i) => items.slice(i + 1).forEach((other) => {
    if (one.contains(other) || other.contains(one)) return;
    const a = one.getBoundingClientRect(), b = other.getBoundingClientRect();
    if (a.left < b.right - 1 && b.left < a.right - 1 && a.top < b.bottom - 1 && b.top < a.bottom - 1) {
      problems.push(`${one.tagName.toLowerCase()}.${one.className} over ${other.tagName.toLowerCase()}.${other.className}`);
    }
  }));
  return problems; }"""

BELOW_THE_STATUS = """(selector) => document.querySelector("[data-status]").getBoundingClientRect().bottom
  <= document.querySelector(selector).getBoundingClientRect().top + 1"""
UNCOVERED = """(selector) => { const node = document.querySelector(selector), box = node.getBoundingClientRect();
  const hit = document.elementFromPoint(box.left + box.width / 2, box.top + box.height / 2);
  return !!hit && (hit === node || node.contains(hit)); }"""


@pytest.fixture
def users(make_user, transactional_db):
    return make_user


def _context(browser, live_url, language, user=None):
    context = browser.new_context(viewport={"width": 1280, "height": 800}, base_url=live_url, locale=language)
    context.add_cookies([{"name": "django_language", "value": language, "url": live_url}])
    if user is not None:
        client = Client()
        client.force_login(user)
        context.add_cookies([{"name": "sessionid", "value": client.cookies["sessionid"].value, "url": live_url}])
    page = context.new_page()
    page.set_default_timeout(10_000)
    errors = []
    page.on("pageerror", lambda error: errors.append(str(error)))
    return context, page, errors


def _sizes(page):
    for width, height in SIZES:
        page.set_viewport_size({"width": width, "height": height})
        page.wait_for_function("() => new Promise((done) => requestAnimationFrame(() => done(true)))")
        yield width, height


def _no_clipping(page, where):
    problems = page.evaluate(CHECK_CLIPPING)
    assert not problems, f"clipped text on {where}: {problems}"


def _busiest_table(browser, live_url, users, language, game):
    players, options, reach = BUSIEST[game]
    match, seated = _table(users, game, players=players, options=options)
    reach(match, seated)
    context, page, errors = _context(browser, live_url, language, seated[_awaited(match)])
    with translation.override(language):
        sound = gettext("Sound")
    try:
        _open(page, match)
        for width, height in _sizes(page):
            where = f"the {game} table in {language} at {width}x{height}"
            page.screenshot(path=str(ARTIFACTS / f"edges-{game}-{language}-{width}x{height}.png"))
            report = page.evaluate(CHECK_LAYOUT, [OWN_PIECES[game], players])
            assert not report["problems"], f"{where}: {report['problems']}"
            _no_clipping(page, where)
            assert page.evaluate(SOUND_LABEL_SHOWN), f"the sound toggle has no visible label on {where}"
            expect(page.locator("[data-sound]")).to_have_accessible_name(sound)
        if game == "perudo":
            _how_to_play_draws_the_tables_paco(page, language)
        if game == "spicy":
            for width, height in SIZES:  # the declarations open under the hand; the status line stays in view
                page.set_viewport_size({"width": width, "height": height})
                page.locator(".spicy-hand button.spicy-card:not([disabled])").first.click()  # picks or unpicks
                if not page.is_visible(".spicy-picker"):
                    page.locator(".spicy-hand button.spicy-card:not([disabled])").first.click()
                page.wait_for_selector(".spicy-picker")
                page.screenshot(path=str(ARTIFACTS / f"edges-spicy-picker-{language}-{width}x{height}.png"))
                where = f"Spicy's picker in {language} at {width}x{height}"
                assert page.evaluate(IN_VIEW, "[data-status]"), f"the status line left the view: {where}"
                assert page.evaluate(UNCOVERED, "[data-status]"), f"the status line is covered: {where}"
                heading = ".spicy-hand-area .spicy-title"  # the hand stays under it, not behind it (issue 36)
                assert page.evaluate(IN_VIEW, heading), f"the hand's heading left the view: {where}"
                assert page.evaluate(BELOW_THE_STATUS, heading), f"the status line covers the hand's heading: {where}"
                _no_clipping(page, where)
        assert not errors
    finally:
        context.close()


@pytest.mark.parametrize("language", LANGUAGES)
def test_the_busiest_turns_fit_unclipped_in_every_language_and_size(browser, live_url, users, language):
    for game in BUSIEST:
        _busiest_table(browser, live_url, users, language, game)


@pytest.mark.parametrize("language", LANGUAGES)
def test_forms_replay_and_how_to_play_in_every_language_and_size(browser, live_url, users, language):
    player = users()
    match, seated = _table(users, "perudo")
    match = play_to_the_end(match, seated)
    analysis_compute(match_id=match.pk)
    context, page, errors = _context(browser, live_url, language, seated[0])
    try:
        page.goto("/")
        for width, height in _sizes(page):
            _no_clipping(page, f"the home page in {language} at {width}x{height}")

        page.set_viewport_size({"width": 1280, "height": 800})
        page.goto(f"/table/{match.pk}/replay/")
        page.wait_for_selector("[data-board] > *")
        for width, height in _sizes(page):
            where = f"the replay in {language} at {width}x{height}"
            page.screenshot(path=str(ARTIFACTS / f"edges-replay-{language}-{width}x{height}.png"))
            assert page.locator("[data-board] > *").bounding_box()["height"] > 100, f"no board on {where}"
            assert not page.is_visible("[data-result-layer]"), f"the result covers {where}"
            assert page.evaluate(IN_VIEW, "[data-show-result]"), f"no Result button in view on {where}"
            assert page.evaluate(BAR_OVERLAPS) == [], f"the bar's items overlap on {where}"
            _no_clipping(page, where)
        page.click("[data-show-result]")
        assert page.is_visible("[data-result] tbody tr")

        context.clear_cookies()  # the forms as a registered player (the rating range needs a ranked table)
        context.add_cookies([{"name": "django_language", "value": language, "url": live_url}])
        client = Client()
        client.force_login(player)
        context.add_cookies([{"name": "sessionid", "value": client.cookies["sessionid"].value, "url": live_url}])
        for game in GAME_KEYS:
            for width, height in SIZES:
                page.set_viewport_size({"width": width, "height": height})
                _refused_form(page, game, language, width, height)
        assert not errors
    finally:
        context.close()


def _how_to_play_draws_the_tables_paco(page, language):
    """The table (open on ``page``) draws the Paco in its face picker; How to play's Paco is the same picture."""
    table_paco = page.evaluate(PICTURE, "label[for=perudo-face-1] svg")
    assert table_paco, "the table's face picker draws no Paco"
    page.set_viewport_size({"width": 1280, "height": 800})
    page.goto("/how-to-play/perudo/")
    for width, height in _sizes(page):
        where = f"How to play Perudo in {language} at {width}x{height}"
        assert page.evaluate(PICTURE, '.pictures svg[data-face="1"]') == table_paco, f"not the table's Paco: {where}"
        paco = page.locator('.pictures svg[data-face="1"]')
        paco.scroll_into_view_if_needed()
        assert paco.bounding_box()["width"] >= 24 and page.evaluate(IN_VIEW, '.pictures svg[data-face="1"]'), where
        _no_clipping(page, where)
    page.screenshot(path=str(ARTIFACTS / f"edges-paco-{language}.png"))


def _refused_form(page, game, language, width, height):
    """Open the creation form, send a rating range the wrong way round; the page opens on its error summary."""
    where = f"the {game} form in {language} at {width}x{height}"
    page.goto(f"/play/{game}/")
    if (width, height) == SIZES[0]:  # a laptop: the submit button is in view before anything is sent
        assert page.evaluate(IN_VIEW, ".table-form [type=submit]"), f"no submit button in view on {where}"
    page.evaluate("""() => { const form = document.querySelector(".table-form");
      form.querySelector("details.custom-options").open = true;
      form.querySelector("[name=ranked]").checked = true;
      form.querySelector("[name=min_rating]").value = "1600";
      form.querySelector("[name=max_rating]").value = "1400";
      form.querySelector("[type=submit]").click(); }""")
    page.wait_for_selector("[data-error-summary]")
    page.wait_for_function("() => document.activeElement && document.activeElement.matches('[data-error-summary]')")
    assert page.evaluate(IN_VIEW, "[data-error-summary]"), f"the error summary is out of view on {where}"
    assert page.evaluate(UNCOVERED, "[data-error-summary] h3"), f"the error summary is covered on {where}"
    assert page.evaluate(IN_VIEW, ".table-form [type=submit]"), f"no submit button in view on {where}"
    _no_clipping(page, where)
    if game == "perudo":
        page.screenshot(path=str(ARTIFACTS / f"edges-form-{language}-{width}x{height}.png"))
    page.click("[data-error-summary] a")  # the summary's link goes to the field
    assert page.evaluate("document.activeElement.name") == "max_rating"


def _wheel_to(page, node, where):
    """Turn the mouse wheel over the analysis panel, as a player would, until ``node`` is whole and on top in the
    window; a panel that cannot be scrolled so fails."""
    panel = page.locator("#panel-analysis").bounding_box()
    page.mouse.move(panel["x"] + panel["width"] / 2, panel["y"] + panel["height"] / 2)
    for _ in range(80):
        box = node.bounding_box()
        if node.evaluate(SHOWN_WHOLE):
            return
        page.mouse.wheel(0, 150 if box["y"] + box["height"] / 2 > panel["y"] + panel["height"] / 2 else -150)
        page.wait_for_timeout(30)
    raise AssertionError(f"the wheel does not bring {node.inner_text()[:40]!r} into view on {where}")


def test_the_analysis_notes_the_computers_moves_and_numbers_a_shared_step_in_every_language_and_size(
    browser, live_url, start_table, transactional_db
):
    match, seated = start_table("perudo", 2)
    away = computer_plays_for_an_away_seat(match, seated)  # built as tests/botapi/test_analysis.py builds it
    match = play_to_the_end(match, seated)
    analysis_compute(match_id=match.pk)
    for language in LANGUAGES:
        with translation.override(language):
            said = gettext("Played by the computer for %(name)s, who was away: %(note)s")
        said = said.split("%(note)s")[0] % {"name": seated[away].username}
        context, page, errors = _context(browser, live_url, language, seated[1 - away])
        try:
            page.goto(f"/table/{match.pk}/replay/")
            page.wait_for_selector("[data-board] > *")
            for width, height in _sizes(page):
                where = f"the analysis in {language} at {width}x{height}"
                if page.is_visible("[data-side-open]") and not page.is_visible("#tab-analysis"):
                    page.click("[data-side-open]")
                page.click("#tab-analysis")
                note = page.locator("li[data-analysis-step]", has_text=said).first
                _wheel_to(page, note, where)
                shared = page.evaluate(SHARED_STEP)
                assert shared, f"no two moves share a replay step in {where}"
                steps = page.locator(f'[data-analysis-step="{shared}"] [data-go-to-step]')
                labels = [label.strip() for label in steps.all_inner_texts()]
                numbers, parts = [label.rsplit(" ", 1)[-1] for label in labels], len(labels)
                assert parts > 1 and numbers == [f"({part}/{parts})" for part in range(1, parts + 1)], f"{where}: {labels}"
                assert all(str(shared) in label for label in labels), f"{where}: {labels}"
                for step in (steps.first, steps.last):
                    _wheel_to(page, step, where)
                page.screenshot(path=str(ARTIFACTS / f"edges-analysis-{language}-{width}x{height}.png"))
                _no_clipping(page, where)
            assert not errors
        finally:
            context.close()
