"""Pages back off when their websocket is closed as soon as it opens, as the server does (4500) while it cannot
reach Redis: the wait between attempts doubles instead of starting over at each opening, so open pages do not
knock every half second through an outage. The server's side of the socket is Playwright's (``route_web_socket``):
it accepts each attempt and closes it with 4500 within 50 ms."""

from __future__ import annotations

import time

from lobby import services as lobby
from realtime.sockets import CLOSE_SERVER_ERROR

WATCH_SECONDS = 7.5


def _attempts(page, pattern: str, path: str) -> int:
    """Open ``path`` and close each websocket attempt matching ``pattern`` just after it opened; returns how many
    attempts the page made in WATCH_SECONDS."""
    attempts: list = []
    page.route_web_socket(pattern, lambda ws: attempts.append(ws))  # accepted: the page's socket opens
    page.goto(path)
    closed = 0
    deadline = time.monotonic() + WATCH_SECONDS
    while time.monotonic() < deadline:
        page.wait_for_timeout(50)  # Playwright delivers the attempts meanwhile
        for ws in attempts[closed:]:
            ws.close(code=CLOSE_SERVER_ERROR, reason="")
        closed = len(attempts)
    return len(attempts)


def test_a_table_page_backs_off_while_its_socket_closes_as_it_opens(new_player, make_user):
    players = [make_user(), make_user()]
    match = lobby.table_create(user=players[0], game="perudo", num_players=2, options={}, ranked=False)
    lobby.table_join(user=players[1], match_id=match.pk)
    lobby.table_start(user=players[0], match_id=match.pk)
    spectator = new_player("carla")
    # 0.5, 1, 2 and 4 seconds apart: five attempts in 7.5 s (fifteen if each opening restarted the wait).
    assert _attempts(spectator, "**/ws/match/**", f"/table/{match.pk}/") <= 6
    assert spectator.locator("text=Connection lost, reconnecting…").count() == 1


def test_a_lobby_page_backs_off_while_its_socket_closes_as_it_opens(new_player):
    visitor = new_player("dario")
    # 1, 2 and 4 seconds apart: four attempts in 7.5 s (eight if each opening restarted the wait).
    assert _attempts(visitor, "**/ws/lobby/", "/play/perudo/") <= 5
