"""Two players in two browsers: ana finds bruno by name, follows him and asks him to be friends, opens a table and
invites him from its waiting room; bruno, on the home page, sees the invitation arrive in his header (count and
list) with a notice, without reloading, and joins from there. Carla, whom ana blocked, is refused a seat at ana's
table with the reason, and at a table where both sit ana does not see carla's chat. Viewport screenshots (laptop and phone, in English, French and Italian) go to
test-artifacts/."""

from __future__ import annotations

import pytest

from lobby import services as lobby
from social import blocks
from tests.conftest import PASSWORD
from tests.e2e.conftest import ARTIFACTS
from turnengine import chat
from turnengine.models import Match, Seat

pytestmark = pytest.mark.e2e
LAPTOP = {"width": 1280, "height": 800}
PHONE = {"width": 375, "height": 812}


def shot(page, name: str) -> None:
    ARTIFACTS.mkdir(exist_ok=True)
    page.screenshot(path=str(ARTIFACTS / f"{name}.png"))  # the viewport, as a person sees it


def log_in(browser, live_url, username: str, viewport: dict, language: str = "en"):
    context = browser.new_context(viewport=viewport, base_url=live_url)
    context.add_cookies([{"name": "django_language", "value": language, "url": live_url}])
    page = context.new_page()
    page.set_default_timeout(15_000)
    page.goto("/accounts/login/")
    page.fill("#id_username", username)
    page.fill("#id_password", PASSWORD)
    page.click("form.stacked button[type=submit]")
    page.wait_for_url(lambda url: "/login/" not in url)
    return context, page


def test_find_follow_invite_and_join_from_the_header(browser, live_url, transactional_db, make_user):
    ana, bruno, carla = make_user("ana"), make_user("bruno"), make_user("carla")
    make_user("brunella")
    contexts = []
    try:
        context, guest_page = log_in(browser, live_url, "bruno", PHONE, "fr")
        contexts.append(context)
        guest_page.goto("/")
        guest_page.wait_for_function("() => document.querySelector('[data-social-toasts]') !== null")

        context, host = log_in(browser, live_url, "ana", LAPTOP)
        contexts.append(context)
        host.goto("/players/?q=BRUN")
        names = host.locator("[data-player-results] li a").all_inner_texts()
        assert names == ["brunella", "bruno"]
        shot(host, "friends-search-laptop-en")
        host.click("text=bruno")
        host.click("button:has-text('Follow')")
        host.wait_for_selector("button:has-text('Following')")
        host.click("button:has-text('Add friend')")
        host.wait_for_selector("button:has-text('Friend request sent')")
        shot(host, "friends-profile-buttons-laptop-en")

        table = lobby.table_create(user=ana, game="perudo", num_players=3, options={}, ranked=False)
        host.goto(f"/table/{table.pk}/")
        host.fill("#invite-username", "bruno")
        host.click(".invite-form button[type=submit]")
        host.wait_for_selector("[data-invitations-sent] >> text=bruno")

        # bruno's page, opened before the invitation, hears of it: the count, the list and a notice
        guest_page.wait_for_function("() => document.querySelector('[data-invitation-count]').textContent.trim() === '1'")
        assert "ana vous demande en ami." in guest_page.inner_text("[data-social-toasts]")  # the request came first
        guest_page.locator(".social-toast", has_text=f"ana vous invite à la table n° {table.pk}").wait_for()
        shot(guest_page, "friends-invitation-notice-phone-fr")
        guest_page.click(".invitations-menu summary")
        shot(guest_page, "friends-invitation-header-phone-fr")
        guest_page.click("[data-invitation-list] button:has-text('Accepter')")
        guest_page.wait_for_url(f"**/table/{table.pk}/")
        assert Seat.objects.filter(match=table, user=bruno).exists()

        # the friends page, in Italian on a phone, says who is online and where
        context, friends_page = log_in(browser, live_url, "bruno", PHONE, "it")
        contexts.append(context)
        friends_page.goto("/friends/")
        friends_page.click("button:has-text('Accetta')")  # ana's friend request
        friends_page.wait_for_selector("[data-friends] >> text=ana")
        assert f"al tavolo n. {table.pk}" in friends_page.inner_text("[data-friends]")
        shot(friends_page, "friends-list-phone-it")

        # carla, blocked by ana, cannot sit at ana's table
        blocks.block(user=ana, other=carla)
        context, blocked = log_in(browser, live_url, "carla", LAPTOP)
        contexts.append(context)
        blocked.goto(f"/table/{table.pk}/")
        blocked.click("form[action$='/join/'] button[type=submit] >> nth=-1")
        blocked.wait_for_selector(".message.error")
        assert "its creator blocked you" in blocked.inner_text(".message.error")
        assert not Seat.objects.filter(match=table, user=carla).exists()
        assert Match.objects.get(pk=table.pk).status == Match.Status.OPEN
        shot(blocked, "friends-blocked-join-laptop-en")

        # at a table someone else created, where both sit, ana does not see carla's chat (a mute, by blocking)
        dino = make_user("dino")
        shared = lobby.table_create(user=dino, game="perudo", num_players=3, options={}, ranked=False)
        lobby.table_join(user=ana, match_id=shared.pk)
        lobby.table_join(user=carla, match_id=shared.pk)
        lobby.table_start(user=dino, match_id=shared.pk)
        seats = {seat.user_id: seat.index for seat in Seat.objects.filter(match=shared)}
        chat.chat_post(match=shared, user=carla, seat=seats[carla.pk], text="from carla", max_length=500)
        chat.chat_post(match=shared, user=dino, seat=seats[dino.pk], text="from dino", max_length=500)
        host.goto(f"/table/{shared.pk}/")
        host.wait_for_selector("[data-chat] li >> text=from dino", state="attached")
        # carla's line never reached ana's page (the server leaves it out), not even hidden
        assert host.locator("[data-chat] li").count() == 1 and "from carla" not in host.content()
        blocked.goto(f"/table/{shared.pk}/")  # carla herself reads both
        blocked.wait_for_selector("[data-chat] li >> text=from dino", state="attached")
        assert blocked.locator("[data-chat] li", has_text="from carla").count() == 1
    finally:
        for context in contexts:
            context.close()
