"""End-to-end fixtures: the site as production runs it (a real daphne server and a real Celery worker with its beat,
on the test database) and Debian's Chromium driven by Playwright.

The worker plays the computer players and the clocks' deadlines, as in production. On the embedded default it hands
its frames to the daphne process through the relay endpoint, as ``./dev serve`` sets it up (realtime.broadcast);
with ``REDIS_URL`` both share Redis. Its SQLite broker lives in a folder of its own, so the worker takes no
task of a site served from the same checkout, and it ticks every 50 ms instead of every second. Computer players
think for ``BOT_DELAY_SECONDS`` instead of production's human-like pause, so a whole game against them fits in a
test.

The browser is Debian's ``chromium`` (``./dev test`` installs it), launched through Playwright with
``executable_path``; Playwright's own browser download is never used. Screenshots go to ``test-artifacts/``.
"""

from __future__ import annotations

import os
import secrets
import shutil
from pathlib import Path

import pytest
from django.db import connection

from tests.conftest import PASSWORD
from tests.servers import (  # noqa: F401  (an autouse fixture, active in the browser tests)
    celery_worker,
    daphne_servers,
    server_writes_settle_before_the_flush,
    wait_for_other_database_sessions,
)

ARTIFACTS = Path(__file__).resolve().parent.parent.parent / "test-artifacts"
CHROMIUM = shutil.which("chromium") or "/usr/bin/chromium"
BOT_DELAY_SECONDS = "0.1"
WORKER_TICK_SECONDS = "0.05"
CHROMIUM_ARGS = [
    "--no-sandbox",
    "--disable-gpu",
    "--disable-quic",
    "--no-first-run",
    "--disable-background-networking",
    "--disable-component-update",
    "--disable-sync",
]

pytestmark = pytest.mark.e2e


def _database_url() -> str:
    settings = connection.settings_dict
    if connection.vendor == "sqlite":
        return f"sqlite:///{Path(settings['NAME']).resolve()}"
    return f"postgres://{settings['USER']}@{settings['HOST']}:{settings['PORT']}/{settings['NAME']}"


@pytest.fixture(scope="session")
def live_url(django_db_setup, django_db_blocker, tmp_path_factory):
    """A daphne process serving the site on the test database, and a Celery worker with its beat."""
    with django_db_blocker.unblock():
        env = {
            "DATABASE_URL": _database_url(),
            "DJANGO_DEBUG": "true",
            "TAPETE_VAR_DIR": str(tmp_path_factory.mktemp("live-var")),
            "TAPETE_RELAY_TOKEN": secrets.token_hex(16),
            "TAPETE_BOT_DELAY_SECONDS": BOT_DELAY_SECONDS,
            "TAPETE_WORKER_TICK_SECONDS": WORKER_TICK_SECONDS,
            # Every browser of every test comes from 127.0.0.1, to the one server of the session: the cap per
            # address (64, tests/turnengine/test_hardening.py) would refuse the later tests' sockets (4429).
            "TAPETE_WS_SOCKETS_PER_IP": "1000",
        }
        with daphne_servers(1, env) as (port,):
            url = f"http://127.0.0.1:{port}"
            redis = bool(os.environ.get("REDIS_URL"))
            relay = {} if redis else {"TAPETE_RELAY_URL": f"{url}/internal/relay/"}
            with celery_worker({**env, **relay}, purge=redis):  # the SQLite broker's file is new (TAPETE_VAR_DIR)
                yield url
        wait_for_other_database_sessions(connection)


@pytest.fixture(scope="module")
def browser():
    os.environ.setdefault("DJANGO_ALLOW_ASYNC_UNSAFE", "true")  # Playwright's sync API runs an event loop
    from playwright.sync_api import sync_playwright

    # Module scope: Playwright's sync API keeps an event loop running, which the asyncio tests must not inherit.
    with sync_playwright() as playwright:
        browser = playwright.chromium.launch(executable_path=CHROMIUM, args=CHROMIUM_ARGS)
        yield browser
        browser.close()


@pytest.fixture
def new_player(browser, live_url, transactional_db):
    """Sign a new player up in a browser context of their own; returns the logged-in page."""
    contexts = []

    def sign_up(username: str, *, phone: bool = False):
        viewport = {"width": 375, "height": 740} if phone else {"width": 1280, "height": 900}
        context = browser.new_context(viewport=viewport, base_url=live_url)
        contexts.append(context)
        page = context.new_page()
        page.set_default_timeout(10_000)
        page.goto("/accounts/signup/")
        page.fill("#id_username", username)
        page.fill("#id_password1", PASSWORD)
        page.fill("#id_password2", PASSWORD)
        page.click("form.stacked button[type=submit]")
        page.wait_for_url(lambda url: "/signup/" not in url)
        return page

    yield sign_up
    for context in contexts:
        context.close()


def choose_custom_rules(page) -> None:
    """On the creation form, choose the "Custom" rules, which unfolds every option's field."""
    page.check("input[name=preset][value=custom]")
    page.wait_for_selector("details.custom-options[open]")


def open_table(host, guest, game: str, players_options: dict | None = None) -> str:
    """The host opens a 2-player table of ``game`` (form fields by name: value, under the "Custom" rules when
    any is given), the guest joins, the host starts. Returns the table's URL path."""
    host.goto(f"/play/{game}/")
    if players_options:
        choose_custom_rules(host)
    for name, value in (players_options or {}).items():
        field = host.locator(f"[name={name}]")
        if field.get_attribute("type") == "checkbox":
            field.set_checked(bool(value))
        elif field.evaluate("node => node.tagName") == "SELECT":
            field.select_option(value)
        else:
            field.fill(str(value))
    host.click("form.stacked button[type=submit]")
    host.wait_for_url("**/table/*/")
    path = "/" + host.url.split("/", 3)[3]
    guest.goto(path)
    guest.click("form[action$='/join/'] button")
    host.wait_for_selector("form[action$='/start/'] button:not([disabled])")
    host.click("form[action$='/start/'] button")
    host.wait_for_selector("[data-table]")
    guest.wait_for_selector("[data-table]")
    return path


def play_now(page, game: str, level: str) -> None:
    """On the home page, choose the computer level of ``game`` and click its "Play now"; wait for the table."""
    page.goto("/")
    page.select_option(f"#level-{game}", level)
    page.click(f"form[action='/play/{game}/now/'] button[type=submit]")
    page.wait_for_url("**/table/*/")


def screenshot(page, name: str) -> None:
    """What the person sees: the viewport, not the whole page (a full-page shot hides what is out of view)."""
    ARTIFACTS.mkdir(exist_ok=True)
    page.screenshot(path=str(ARTIFACTS / f"{name}.png"))
