"""The table as a player sees it, in the real browser, at a laptop's, a large laptop's, a phone's and a phone-on-
its-side's viewport: no scrolling, the player's own dice / hand / marbles (the board, for a game not named in
OWN_PIECES) and every control they may use now inside the viewport and not covered by anything
(``elementFromPoint`` at their centre); axe-core finds no violation at the player's turn, a reveal and the result;
a player who closes the browser shows in words on the other page, and the computer plays for them after the
table's grace. The table at a turn, a full table and the result screen are checked for every installed game, the
test-only fourth included; a reveal, for the games that have one.

One browser page per game is reused across the four sizes (``set_viewport_size``). Tables are set up through the
services in this process, each player logged in by a session cookie. Screenshots: ``test-artifacts/table-*.png``.
"""

from __future__ import annotations

import pytest
from django.test import Client
from tapete_sdk import registry
from tapete_sdk.plugin import player_counts_of

from botapi.analysis.store import analysis_compute
from lobby import services as lobby
from tests.conftest import FAST_OPTIONS, GAME_KEYS, play_bid_then_dudo, play_to_the_end
from tests.e2e.axe import assert_accessible
from tests.e2e.conftest import ARTIFACTS
from turnengine import services, timers
from turnengine.models import Match

pytestmark = pytest.mark.e2e

SIZES = [(1280, 800), (1440, 900), (375, 812), (812, 375)]
LAPTOP, PHONE = SIZES[0], SIZES[2]
# The player's own pieces, per game; for a game not named here, its board.
OWN_PIECES = {"perudo": ".perudo-my-dice .perudo-die", "spicy": ".spicy-hand .spicy-card", "chinesecheckers": ".cc-control"}
BOARD = "[data-board] > *"

# Every player's chip, every visible, enabled control of the table, and the player's own pieces: each inside the
# viewport and the topmost element at its centre (a hidden radio counts through its label).
CHECK_LAYOUT = """([own, expectedPlayers]) => {
  const W = innerWidth, H = innerHeight, problems = [];
  const doc = document.documentElement;
  if (doc.scrollWidth > W || doc.scrollHeight > H) problems.push(`page scrolls: ${doc.scrollWidth}x${doc.scrollHeight}`);
  const visible = (node) => {
    const box = node.getBoundingClientRect();
    const style = getComputedStyle(node);
    return box.width > 2 && box.height > 2 && style.visibility !== "hidden"
      && node.checkVisibility({ checkVisibilityCSS: true, checkOpacity: true });
  };
  const check = (node, what) => {
    const box = node.getBoundingClientRect();
    const name = `${what} ${node.tagName.toLowerCase()}.${node.className.baseVal ?? node.className} "${(node.textContent || node.getAttribute("aria-label") || "").trim().slice(0, 30)}"`;
    if (box.left < -1 || box.top < -1 || box.right > W + 1 || box.bottom > H + 1) {
      problems.push(`${name} outside the viewport: ${Math.round(box.left)},${Math.round(box.top)} ${Math.round(box.width)}x${Math.round(box.height)}`);
      return;
    }
    const hit = document.elementFromPoint(box.left + box.width / 2, box.top + box.height / 2);
    if (!hit || !(node === hit || node.contains(hit) || (node.control && node.control === hit))) {
      problems.push(`${name} covered by ${hit ? hit.tagName.toLowerCase() + "." + (hit.className.baseVal ?? hit.className) : "nothing"}`);
    }
  };
  const players = [...document.querySelectorAll("[data-players] > li")];
  if (players.length !== expectedPlayers) problems.push(`${players.length} players shown, not ${expectedPlayers}`);
  players.forEach((node) => check(node, "player"));
  const pieces = [...document.querySelectorAll(own)].filter(visible);
  if (!pieces.length) problems.push(`no own pieces (${own}) shown`);
  pieces.forEach((node) => check(node, "own piece"));
  const controls = [...document.querySelectorAll(".table-page :is(button, select, a.button, summary, [role=button], label[for])")]
    .filter((node) => !node.disabled && node.getAttribute("aria-disabled") !== "true" && visible(node));
  controls.forEach((node) => check(node, "control"));
  return {problems, controls: controls.length, pieces: pieces.length};
}"""


@pytest.fixture
def seat_users(make_user, transactional_db):
    return make_user


def _login(browser, live_url, user, viewport=LAPTOP):
    client = Client()
    client.force_login(user)
    context = browser.new_context(viewport={"width": viewport[0], "height": viewport[1]}, base_url=live_url)
    context.add_cookies([{"name": "sessionid", "value": client.cookies["sessionid"].value, "url": live_url}])
    page = context.new_page()
    page.set_default_timeout(10_000)
    errors = []
    page.on("pageerror", lambda error: errors.append(str(error)))
    return context, page, errors


def _table(make_user, game, *, players=2, grace_seconds=30, time_control="normal", options=None):
    users = [make_user() for _ in range(players)]
    match = lobby.table_create(
        user=users[0],
        game=game,
        num_players=players,
        options=FAST_OPTIONS[game] if options is None else options,
        ranked=False,
        time_control=time_control,
        grace_seconds=grace_seconds,
    )
    for user in users[1:]:
        lobby.table_join(user=user, match_id=match.pk)
    lobby.table_start(user=users[0], match_id=match.pk)
    match.refresh_from_db()
    return match, users


def _awaited(match):
    return min(match.rules.awaited(match.state))


def _open(page, match):
    page.goto(f"/table/{match.pk}/")
    page.wait_for_selector("[data-board] > *")
    page.wait_for_function("() => document.getAnimations().every((a) => a.playState !== 'running')")


def _check_all_sizes(page, game, state, players=2):
    ARTIFACTS.mkdir(exist_ok=True)
    for width, height in SIZES:
        page.set_viewport_size({"width": width, "height": height})
        page.wait_for_function("() => new Promise((done) => requestAnimationFrame(() => done(true)))")
        page.screenshot(path=str(ARTIFACTS / f"table-{game}-{state}-{width}x{height}.png"))
        report = page.evaluate(CHECK_LAYOUT, [OWN_PIECES.get(game, BOARD), players])
        assert not report["problems"], f"{game} {state} at {width}x{height}: {report['problems']}"
        assert report["controls"] > 0


HIT_SIZE = "() => Math.min(...[...document.querySelectorAll('.cc-control .cc-hit')].map((c) => c.getBoundingClientRect().width))"


def _check_finger_targets(page):
    """Chinese Checkers: a marble is a target of at least 24 px at every size, after one tap zooms a small board."""
    for width, height in SIZES:
        page.set_viewport_size({"width": width, "height": height})
        if page.evaluate(HIT_SIZE) < 24:
            page.locator(".cc-svg").click(position={"x": 40, "y": 40})
            page.wait_for_selector("[data-zoom-out]")
            assert page.evaluate(HIT_SIZE) >= 24, f"targets still small when zoomed at {width}x{height}"
            page.click("[data-zoom-out]")
        assert page.evaluate(HIT_SIZE) >= 24 or page.locator(".cc-zoom-note").count() == 1


def _audit(page, where, sizes=(LAPTOP, PHONE)):
    for width, height in sizes:
        page.set_viewport_size({"width": width, "height": height})
        assert_accessible(page, f"{where} at {width}x{height}")


@pytest.mark.frontend
@pytest.mark.parametrize("game", GAME_KEYS)
def test_the_table_fits_every_screen_at_the_players_turn_and_passes_axe(browser, live_url, seat_users, game):
    match, users = _table(seat_users, game)
    context, page, errors = _login(browser, live_url, users[_awaited(match)])
    try:
        _open(page, match)
        _check_all_sizes(page, game, "turn")
        if game == "chinesecheckers":  # its marbles are the smallest pieces to tap
            _check_finger_targets(page)
        _audit(page, f"the {game} table at the player's turn")
        assert not errors
    finally:
        context.close()


@pytest.mark.frontend
@pytest.mark.parametrize("game", GAME_KEYS)
def test_every_player_of_a_full_table_is_in_view_at_every_size(browser, live_url, seat_users, game):
    """The players' chips, long names included, wrap rather than scroll away or hide behind the tools, and the board
    still fits."""
    players = max(player_counts_of(registry.get(game)))
    match, users = _table(seat_users, game, players=players)
    for user in users:
        type(user).objects.filter(pk=user.pk).update(username=f"bartholomew-of-the-long-name-{user.pk}")
    if game == "spicy":  # a card on the stack: the next player may also challenge it (the most buttons)
        _play_first(match, users, "play")
    context, page, errors = _login(browser, live_url, users[_awaited(match)])
    try:
        _open(page, match)
        _check_all_sizes(page, game, f"turn-{players}-players", players=players)
        assert not errors
    finally:
        context.close()


def _play_first(match, users, kind, seat=None):
    """The awaited seat (or ``seat``) plays its first legal action of type ``kind`` through the service."""
    seat = _awaited(match) if seat is None else seat
    action = next(a for a in match.rules.legal_actions(match.state, seat) if a["type"] == kind)
    services.match_apply_action(match_id=match.pk, user=users[seat], expected_version=match.version, action=action)
    match.refresh_from_db()
    return seat


def _spicy_reveal(match, users):
    seat = _play_first(match, users, "play")
    _play_first(match, users, "challenge", seat=1 - seat)


# The games that hide something and show it at a reveal (Perudo's cups, Spicy's challenged card), each reached by
# its own moves.
REVEALS = {"perudo": play_bid_then_dudo, "spicy": _spicy_reveal}


@pytest.mark.frontend
@pytest.mark.parametrize("game", REVEALS)
def test_a_reveal_lies_on_the_table_without_pushing_the_controls_away(browser, live_url, seat_users, game):
    match, users = _table(seat_users, game)
    REVEALS[game](match, users)
    context, page, errors = _login(browser, live_url, users[_awaited(match)])
    try:
        _open(page, match)
        page.wait_for_selector("[data-reveal]")
        _check_all_sizes(page, game, "reveal")
        _audit(page, f"the {game} table showing a reveal", sizes=(PHONE,))
        assert not errors
    finally:
        context.close()


def _perudo_bid_after_a_reveal(match, users):
    """A Dudo's reveal, then the next round's opening bid: the awaited player may raise or call Dudo (the reveal
    itself, when no bid stands yet, is the reveal test's)."""
    play_bid_then_dudo(match, users)
    _play_first(match, users, "bid")


def _spicy_card_to_answer(match, users):
    """A card on the stack: the awaited player (with nine cards) may play on it, pass or challenge it."""
    _play_first(match, users, "play")


# The busiest turn of each game that has one: the most controls at once, with the largest hand.
BUSIEST = {
    "perudo": (4, {}, _perudo_bid_after_a_reveal),
    "spicy": (2, {**FAST_OPTIONS["spicy"], "handSize": 9}, _spicy_card_to_answer),
}


@pytest.mark.frontend
@pytest.mark.parametrize("game", BUSIEST)
def test_every_control_of_the_busiest_turn_is_in_view_at_every_size(browser, live_url, seat_users, game):
    """Perudo's Dudo in the round after a reveal at four players, Spicy's ninth card with a card to answer: no
    control lies in a panel the player would have to scroll (issue 35: "Dudo!" was a 7-pixel sliver at 812x375)."""
    players, options, reach = BUSIEST[game]
    match, users = _table(seat_users, game, players=players, options=options)
    reach(match, users)
    context, page, errors = _login(browser, live_url, users[_awaited(match)])
    try:
        _open(page, match)
        if game == "perudo":
            page.wait_for_selector("button.perudo-dudo:not([disabled])")
        else:
            assert page.locator(".spicy-hand .spicy-card").count() == 9
        _check_all_sizes(page, game, "busiest", players=players)
        assert not errors
    finally:
        context.close()


def _end_by_vote(match, users):
    """One player leaves, the other ends the table."""
    timers.seat_leave(match_id=match.pk, user=users[1])
    timers.match_end_by_vote(match_id=match.pk, user=users[0])
    match.refresh_from_db()
    return match


# How a game's table ends: played to the end; Chinese Checkers' by a vote, so that the result screen of a table ended
# early is checked too.
ENDINGS = {"chinesecheckers": _end_by_vote}


@pytest.mark.parametrize("game", GAME_KEYS)
def test_the_result_screen_ranks_everyone_and_offers_play_again_and_the_lobby(
    browser, live_url, seat_users, game
):
    match, users = _table(seat_users, game)
    match = ENDINGS.get(game, play_to_the_end)(match, users)
    winner = match.result["ranking"][0][0]
    context, page, errors = _login(browser, live_url, users[winner])
    try:
        page.goto(f"/table/{match.pk}/")
        page.wait_for_selector("[data-result] [data-play-again]")
        assert "You win" in page.inner_text("[data-result] h2") or "share" in page.inner_text(
            "[data-result] h2"
        )
        assert page.locator("[data-result] tbody tr").count() == 2
        for width, height in SIZES:
            page.set_viewport_size({"width": width, "height": height})
            page.screenshot(path=str(ARTIFACTS / f"table-{game}-result-{width}x{height}.png"))
            for selector in ("[data-play-again]", "[data-back-to-lobby]"):
                box = page.locator(selector).bounding_box()
                assert box and box["y"] + box["height"] <= height and box["x"] + box["width"] <= width
        _audit(page, f"the {game} result screen")
        page.click("[data-play-again]")
        page.wait_for_url(lambda url: f"/table/{match.pk}/" not in url)
        rematch = Match.objects.get(rematch_of=match)
        assert rematch.status == Match.Status.OPEN and rematch.seats.filter(user=users[winner]).exists()
        assert not errors
    finally:
        context.close()


@pytest.mark.frontend
def test_the_replay_controls_stay_on_one_line_on_a_phone_and_the_replay_is_accessible(browser, live_url, seat_users):
    match, users = _table(seat_users, "perudo")
    match = play_to_the_end(match, users)
    analysis = analysis_compute(match_id=match.pk)
    context, page, errors = _login(browser, live_url, users[0], viewport=PHONE)
    try:
        page.goto(f"/table/{match.pk}/replay/")
        page.wait_for_selector(".perudo")
        # It opens on the board at the last step: the result is a button away, not a dialog over the board.
        page.wait_for_selector("[data-show-result]")
        assert not page.is_visible("[data-result-layer]")
        tops = page.eval_on_selector_all(
            ".replay-controls > :is(button, input)",
            "(nodes) => nodes.map((n) => Math.round(n.getBoundingClientRect().top))",
        )
        assert max(tops) - min(tops) < 20, tops  # one line (the range input sits a few pixels lower)
        width = page.evaluate("document.documentElement.scrollWidth")
        assert width <= PHONE[0]
        page.screenshot(path=str(ARTIFACTS / "table-replay-375x812.png"))
        assert_accessible(page, "the replay of a finished Perudo game, on a phone")
        page.click("[data-side-open]")  # the drawer of a page without chat opens without an error
        assert page.is_visible("#panel-log")
        page.set_viewport_size({"width": 1280, "height": 800})
        page.click("#tab-analysis")
        assert page.is_visible("#panel-analysis")
        notes = page.locator(".analysis-moves [data-go-to-step]")
        assert notes.count() == len(analysis.data["moves"]) and notes.first.is_visible()
        # The summary's step links (Perudo's rounds where another choice would have saved a die) are audited too.
        highlights = page.locator(".analysis-summary [data-go-to-step]")
        assert highlights.count() == len(analysis.data["saving"])
        same_colour = (
            "(links) => links.every((l) => getComputedStyle(l).color === getComputedStyle(l.parentElement).color)"
        )
        assert page.eval_on_selector_all(".analysis [data-go-to-step]", same_colour)  # read as the text beside them
        assert_accessible(page, "the replay's analysis panel, on a laptop")
        page.click("[data-show-result]")
        assert page.locator("[data-result] tbody tr").count() == 2
        page.click("[data-close-result]")
        assert not page.is_visible("[data-result-layer]")
        assert not errors
    finally:
        context.close()


def test_a_closed_browser_shows_in_words_and_the_computer_plays_after_the_grace(
    browser, live_url, seat_users
):
    match, users = _table(seat_users, "chinesecheckers", grace_seconds=3)
    gone_seat = _awaited(match)
    stays = users[1 - gone_seat]
    gone_context, gone_page, _errors = _login(browser, live_url, users[gone_seat])
    context, page, errors = _login(browser, live_url, stays)
    try:
        _open(gone_page, match)
        _open(page, match)
        conn = f"[data-conn-seat='{gone_seat}']"
        page.wait_for_function(f"() => document.querySelector(\"{conn}\").textContent === ''")
        assert "0:03" in page.inner_text("[data-grace-note]")
        gone_context.close()
        page.wait_for_function(
            f"() => document.querySelector(\"{conn}\").textContent.includes('reconnecting')", timeout=5000
        )
        # the grace runs out: the computer moves for the absent seat, and it is the other player's turn
        page.wait_for_selector(".cc-control", timeout=15_000)
        assert "the computer played for them" in page.inner_text("[data-log]")
        page.wait_for_function(
            f"() => document.querySelector(\"{conn}\").textContent.includes('disconnected since')", timeout=8000
        )
        match.refresh_from_db()
        assert match.rules.awaited(match.state) == {1 - gone_seat}
        assert not errors
    finally:
        context.close()
