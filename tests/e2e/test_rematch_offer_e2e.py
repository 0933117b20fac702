"""A rematch offer in a real browser: after a finished game, one player's "Play again" shows the other an offer
with Accept and Decline; the other declines, and the one who offered (waiting at the rematch's table) sees who."""

from __future__ import annotations

import pytest

from tests.e2e.conftest import ARTIFACTS, open_table

pytestmark = [pytest.mark.e2e, pytest.mark.frontend]


def test_a_declined_rematch_is_shown_to_the_one_who_offered_it(new_player):
    host, guest = new_player("ana"), new_player("bruno")
    path = open_table(host, guest, "chinesecheckers")
    guest.on("dialog", lambda dialog: dialog.accept())
    guest.click("[data-leave]")
    host.click("button:text('End the table: everyone else has left')")
    for page in (host, guest):
        page.wait_for_selector("[data-result] [data-play-again]")
    host.click("[data-play-again]")  # the offer: ana waits at the rematch's table
    host.wait_for_url(lambda url: not url.endswith(path))
    offer = guest.locator("[data-rematch-offer]")
    offer.wait_for()
    assert offer.inner_text() == "ana offers a rematch."
    assert guest.locator("[data-result] [data-play-again]").count() == 0
    ARTIFACTS.mkdir(exist_ok=True)
    guest.screenshot(path=str(ARTIFACTS / "rematch-offer.png"))
    guest.click("[data-decline-rematch]")
    guest.wait_for_url("**/play/chinesecheckers/")
    declined = host.locator("[data-rematch-declined]")
    declined.wait_for()
    assert declined.inner_text() == "Rematch declined by bruno."
    host.screenshot(path=str(ARTIFACTS / "rematch-declined.png"))
    guest.goto(path)  # back on the old result screen: declined, and may still accept
    guest.wait_for_selector("[data-result] [data-rematch-declined]")
    assert guest.locator("[data-result] [data-play-again]").count() == 1
