"""The turn e-mails' unsubscribe link (Django's test client with CSRF checks on, the in-memory mail backend): the
e-mail carries RFC 8058's headers; opening the link (as a mail scanner or a link preview does) changes nothing and
shows what would stop; the page's button unsubscribes (CSRF-checked) and can turn e-mails back on; a mail program's
one-click POST works without cookie or CSRF token; a changed, forged or expired link is a clear 400."""

import re
import time
from datetime import timedelta

import pytest
from django.core import mail as outbox
from django.core import signing
from django.test import Client
from django.urls import reverse
from django.utils import translation

from alerts import mail
from alerts.models import AlertSettings
from alerts.preferences import UNSUBSCRIBE_MAX_AGE, UNSUBSCRIBE_SALT, unsubscribe_token

pytestmark = pytest.mark.django_db(transaction=True)
OFF, IMMEDIATE, DIGEST = AlertSettings.Mail.OFF, AlertSettings.Mail.IMMEDIATE, AlertSettings.Mail.DIGEST


@pytest.fixture(autouse=True)
def site(settings):
    settings.TAPETE_TURN_MAIL_DELAY_SECONDS = 0
    settings.TAPETE_SITE_URL = "https://tapete.example"


@pytest.fixture
def csrf_client():
    return Client(enforce_csrf_checks=True)


@pytest.fixture
def mailed(start_table):
    """A player sent a turn e-mail; returns them and the e-mail's unsubscribe path."""
    match, users = start_table("tictactoe", 2, time_control="daily")
    player = users[min(match.rules.awaited(match.state))]
    assert mail.send_turns(player.pk) == 1
    message = outbox.outbox[-1]
    link = re.search(r"https://tapete\.example(/unsubscribe/[^/\s]+/)", message.body)
    assert message.extra_headers["List-Unsubscribe"] == f"<{link[0]}>"
    assert message.extra_headers["List-Unsubscribe-Post"] == "List-Unsubscribe=One-Click"
    assert link[0] in message.alternatives[0][0]  # the HTML part has the link too
    return player, link[1]


def mail_of(user) -> str:
    return AlertSettings.objects.get(user=user).mail


def test_opening_the_link_changes_nothing_and_the_button_unsubscribes(mailed, csrf_client):
    player, path = mailed
    for _ in range(2):  # a scanner, then a link preview
        page = csrf_client.get(path)
        assert page.status_code == 200
        assert mail_of(player) == IMMEDIATE
    body = page.content.decode()
    assert "Stop turn e-mails?" in body and player.username in body and 'value="unsubscribe"' in body

    # The button's POST without the page's CSRF token (a forged form elsewhere) is refused and changes nothing.
    assert Client(enforce_csrf_checks=True).post(path, {"action": "unsubscribe"}).status_code == 403
    assert mail_of(player) == IMMEDIATE

    token = csrf_client.cookies["csrftoken"].value
    done = csrf_client.post(path, {"action": "unsubscribe", "csrfmiddlewaretoken": token})
    assert done.status_code == 200 and "You are unsubscribed" in done.content.decode()
    assert mail_of(player) == OFF
    assert "Turn e-mails are off" in csrf_client.get(path).content.decode()


def test_turning_e_mails_back_on_restores_the_choice_the_player_had(make_user, csrf_client):
    player = make_user()
    AlertSettings.objects.create(user=player, mail=DIGEST)
    path = reverse("alerts:unsubscribe", args=[unsubscribe_token(player)])
    csrf_client.get(path)
    token = csrf_client.cookies["csrftoken"].value
    done = csrf_client.post(path, {"action": "unsubscribe", "csrfmiddlewaretoken": token}).content.decode()
    assert mail_of(player) == OFF and 'name="previous" value="digest"' in done
    again = csrf_client.post(path, {"action": "resubscribe", "previous": "digest", "csrfmiddlewaretoken": token})
    assert again.status_code == 200 and "on again" in again.content.decode()
    assert mail_of(player) == DIGEST
    # A made-up previous choice (or "off") turns them on as they come.
    csrf_client.post(path, {"action": "resubscribe", "previous": "off", "csrfmiddlewaretoken": token})
    assert mail_of(player) == IMMEDIATE
    assert csrf_client.post(path, {"action": "x", "csrfmiddlewaretoken": token}).status_code == 400


def test_a_mail_programs_one_click_post_unsubscribes_without_cookie_or_csrf_token(mailed):
    player, path = mailed
    # RFC 8058: the body is "List-Unsubscribe=One-Click", form-encoded (or multipart), no cookie.
    response = Client(enforce_csrf_checks=True).post(
        path, "List-Unsubscribe=One-Click", content_type="application/x-www-form-urlencoded"
    )
    assert response.status_code == 200
    assert mail_of(player) == OFF
    AlertSettings.objects.filter(user=player).update(mail=IMMEDIATE)
    assert Client(enforce_csrf_checks=True).post(path, {"List-Unsubscribe": "One-Click"}).status_code == 200
    assert mail_of(player) == OFF
    # Any other body without a CSRF token is the page's form, and is refused.
    AlertSettings.objects.filter(user=player).update(mail=IMMEDIATE)
    assert Client(enforce_csrf_checks=True).post(path, {"List-Unsubscribe": "Other"}).status_code == 403
    assert mail_of(player) == IMMEDIATE


def test_a_changed_forged_or_expired_link_is_a_clear_400(make_user, csrf_client, monkeypatch):
    player = make_user()
    token = unsubscribe_token(player)
    changed = token[:-2] + ("AA" if not token.endswith("AA") else "BB")
    forged = signing.dumps(player.pk, salt="another.salt", compress=True)
    not_a_player = signing.dumps("admin", salt=UNSUBSCRIBE_SALT, compress=True)
    gone = signing.dumps(player.pk + 1000, salt=UNSUBSCRIBE_SALT, compress=True)
    for bad in (changed, token + "x", forged, not_a_player, gone):
        path = reverse("alerts:unsubscribe", args=[bad])
        for response in (csrf_client.get(path), csrf_client.post(path, {"List-Unsubscribe": "One-Click"})):
            assert response.status_code == 400
            assert "This link does not work" in response.content.decode()
    assert not AlertSettings.objects.filter(user=player).exists()

    # Older than a year: refused, with its own reason.
    signed_at = time.time() - UNSUBSCRIBE_MAX_AGE.total_seconds() - 60
    with monkeypatch.context() as patched:
        patched.setattr(signing.time, "time", lambda: signed_at)
        expired = unsubscribe_token(player)
    response = csrf_client.get(reverse("alerts:unsubscribe", args=[expired]))
    assert response.status_code == 400 and "more than a year old" in response.content.decode()
    assert signing.loads(expired, salt=UNSUBSCRIBE_SALT, max_age=UNSUBSCRIBE_MAX_AGE + timedelta(days=1)) == player.pk


@pytest.mark.parametrize("language", ["fr", "it"])
def test_the_page_is_translated(mailed, client, language):
    player, path = mailed
    client.cookies["django_language"] = language
    body = client.get(path).content.decode()
    with translation.override(language):
        assert translation.gettext("Stop turn e-mails?") in body
        assert translation.gettext("Unsubscribe") in body
    assert "Stop turn e-mails?" not in body
