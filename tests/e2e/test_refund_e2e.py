"""A moderator (staff in the Moderators group, not a superuser) reads a cheater's Fair play section and refunds
their opponents in the browser, with a preset reason; the ratings come back as worked out by hand in
tests/moderation/test_fair_play_moderation.py. Viewport screenshots of the player page, the confirmation page and
the result, in English, French and Italian and at three sizes, go to test-artifacts/."""

from __future__ import annotations

import pytest
from django.contrib.auth.models import Group

from moderation.groups import MODERATORS
from moderation.models import AuditEntry
from ratings.models import Rating
from tests.conftest import PASSWORD
from tests.e2e.conftest import ARTIFACTS
from tests.moderation.test_fair_play_moderation import rated_match

pytestmark = pytest.mark.e2e
VIEWPORTS = {"laptop": {"width": 1280, "height": 800}, "phone": {"width": 375, "height": 812},
             "landscape": {"width": 812, "height": 375}}
CONFIRM = {"en": "Confirm: Refund their opponents", "fr": "Confirmer : Rembourser ses adversaires",
           "it": "Conferma: Rimborsare i suoi avversari"}


def shot(page, name: str) -> None:
    ARTIFACTS.mkdir(exist_ok=True)
    page.screenshot(path=str(ARTIFACTS / f"{name}.png"))  # the viewport, as a person sees it


def test_a_moderator_refunds_a_cheaters_opponents_in_the_browser(browser, live_url, transactional_db, make_user):
    moderator = make_user("mira")
    moderator.is_staff = True
    moderator.save()
    moderator.groups.add(Group.objects.get(name=MODERATORS))
    cheater, alice, bob = make_user("cheater"), make_user("alice"), make_user("bob")
    rated_match([cheater, alice], [[0], [1]])
    rated_match([bob, cheater], [[0], [1]])
    rated_match([cheater, alice], [[0], [1]])
    player_page = f"/admin/accounts/user/{cheater.pk}/moderation/"
    contexts = []
    try:
        for language in ("fr", "it", "en"):
            context = browser.new_context(viewport=VIEWPORTS["laptop"], base_url=live_url, locale=language)
            contexts.append(context)
            page = context.new_page()
            page.set_default_timeout(15_000)
            page.goto("/admin/login/")
            page.fill("#id_username", moderator.username)
            page.fill("#id_password", PASSWORD)
            page.click("input[type=submit]")
            page.wait_for_url(lambda url: "/login/" not in url)
            page.goto(player_page)
            section = page.locator("section[aria-labelledby=fair-play-title]")
            section.scroll_into_view_if_needed()
            for size, viewport in VIEWPORTS.items():
                page.set_viewport_size(viewport)
                section.scroll_into_view_if_needed()
                shot(page, f"refund-player-page-{language}-{size}")
            page.set_viewport_size(VIEWPORTS["laptop"])
            section.locator("a.button").click()
            page.wait_for_selector("[data-confirm]")
            assert page.locator("[data-confirm]").get_attribute("value") == CONFIRM[language]
            for size, viewport in VIEWPORTS.items():
                page.set_viewport_size(viewport)
                shot(page, f"refund-confirm-{language}-{size}")
        # The English moderator confirms with the preset reason.
        page.set_viewport_size(VIEWPORTS["laptop"])
        page.select_option("#id_preset", "cheating")
        page.once("dialog", lambda dialog: dialog.accept())
        page.click("[data-confirm]")
        page.wait_for_selector(".messagelist .success")
        assert "Refund their opponents: done for 1." in page.inner_text(".messagelist")
        assert page.locator("section[aria-labelledby=fair-play-title] a.button").count() == 0  # nothing left
        for size, viewport in VIEWPORTS.items():
            page.set_viewport_size(viewport)
            shot(page, f"refund-done-en-{size}")
    finally:
        for context in contexts:
            context.close()
    ratings = {rating.user.username: (round(rating.rating, 3), rating.games)
               for rating in Rating.objects.select_related("user")}
    assert ratings == {"cheater": (1478.850, 1), "alice": (1500.0, 0), "bob": (1521.150, 1)}
    assert AuditEntry.objects.get(action="refund").moderator == moderator
