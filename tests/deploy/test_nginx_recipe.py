"""The production recipe of deploy/, run for real: Debian's nginx (``./dev test`` installs it) with the site file
rendered from deploy/nginx-tapete.conf.in, on TLS with a certificate made here, in front of two daphne processes
started with the command of deploy/systemd/tapete-daphne@.service, a Celery worker and the beat started with theirs,
on PostgreSQL and Redis, under the production environment of deploy/tapete.env.example (debug off, TAPETE_HTTPS,
the host name ``tapete.test``, the HTTP limits on).

The clients reach nginx on 127.0.0.1 but speak to ``tapete.test`` (TLS name, Host and Origin headers) as a browser
would: sign up, open a table of each title, seat a computer player, start, play a move over the websocket, get the
computer player's move, then let the clock run out and get the move the server plays on the player's behalf.
"""

from __future__ import annotations

import asyncio
import http.client
import json
import os
import re
import shlex
import shutil
import socket
import ssl
import subprocess
import sys
import tempfile
import uuid
from contextlib import ExitStack
from http.cookies import SimpleCookie
from pathlib import Path
from urllib.parse import urlencode

import pytest
import websockets
from django.conf import settings
from django.db import connection

from tests.conftest import FAST_OPTIONS, PASSWORD, SITE_GAME_KEYS
from tests.lobby.test_lobby_pages import form_defaults
from tests.servers import (
    ROOT,
    child_env,
    database_url,
    free_port,
    processes,
    server_writes_settle_before_the_flush,  # noqa: F401  (autouse: the module's servers outlast each test)
    wait_for_other_database_sessions,
)
from turnengine.models import Match, MatchAction

DEPLOY = ROOT / "deploy"
HOST = "tapete.test"
# Short enough for a test, beyond the horizon of two 1-second sweeps: the beat's sweeper queues the deadline.
CLOCK = {"profile": "test", "kind": "realtime", "bank_ms": 2500, "increment_ms": 0, "cap_ms": 2500}

needs_services = pytest.mark.skipif(
    not (settings.REDIS_URL and connection.vendor == "postgresql"),
    reason="needs REDIS_URL and a PostgreSQL DATABASE_URL (CI sets both)",
)
pytestmark = [
    pytest.mark.redis,
    pytest.mark.postgres,
    needs_services,
    pytest.mark.django_db(transaction=True),
]

sys.path.insert(0, str(DEPLOY))
from render_nginx import render  # noqa: E402  (deploy/ is a folder of files to install, not a package)


def unit_command(unit: str, instance: str = "", **paths: str) -> list[str]:
    """The ExecStart of a deploy/systemd unit, with the checkout for /srv/tapete and ``paths`` replaced."""
    text = (DEPLOY / "systemd" / unit).read_text()
    command = re.search(r"^ExecStart=(.+)$", text, re.MULTILINE).group(1)
    command = command.replace("%i", instance).replace("%%", "%").replace("/srv/tapete", str(ROOT))
    for old, new in paths.items():
        command = command.replace(old, new)
    return shlex.split(command)


def _nginx() -> str:
    found = shutil.which("nginx") or ("/usr/sbin/nginx" if os.path.exists("/usr/sbin/nginx") else None)
    if found is None:
        pytest.fail("nginx is not installed: ./dev test installs Debian's nginx-light")
    return found


def _certificate(folder: Path) -> tuple[Path, Path]:
    cert, key = folder / "tapete.test.crt", folder / "tapete.test.key"
    subprocess.run(
        ["openssl", "req", "-x509", "-newkey", "rsa:2048", "-nodes", "-days", "1", "-subj", f"/CN={HOST}",
         "-addext", f"subjectAltName=DNS:{HOST}", "-keyout", str(key), "-out", str(cert)],
        check=True, capture_output=True,
    )  # fmt: skip
    return cert, key


def _nginx_main_config(folder: Path, site: Path) -> Path:
    """What /etc/nginx/nginx.conf gives the site in production, in a folder of its own and in the foreground."""
    config = folder / "nginx.conf"
    temp = {name: folder / name for name in ("client_body", "proxy", "fastcgi", "uwsgi", "scgi")}
    config.write_text(
        f"""daemon off;
worker_processes 1;
pid {folder}/nginx.pid;
error_log {folder}/error.log warn;
events {{ worker_connections 512; }}
http {{
    include /etc/nginx/mime.types;
    default_type application/octet-stream;
    log_format upstreams '$request_uri $status $upstream_addr';
    access_log {folder}/access.log upstreams;
    {" ".join(f"{name}_temp_path {path};" for name, path in temp.items())}
    include {site};
}}
"""
    )
    return config


@pytest.fixture(scope="module")
def site(django_db_setup, django_db_blocker):
    """nginx on TLS in front of two daphne processes, a Celery worker and the beat; yields how to reach it."""
    nginx = _nginx()
    with django_db_blocker.unblock(), ExitStack() as stack:
        folder = Path(stack.enter_context(tempfile.TemporaryDirectory(prefix="tapete-deploy-")))
        folder.chmod(0o755)  # nginx's workers (user nobody when started as root) read the static files here
        env = child_env(
            {
                "DJANGO_DEBUG": "false",
                "DJANGO_ALLOWED_HOSTS": HOST,
                "TAPETE_HTTPS": "true",
                "TAPETE_RATELIMIT": "true",
                "DATABASE_URL": database_url(connection),
                "REDIS_URL": settings.REDIS_URL,
                # A name of its own: queues, channels and the limits' counters start empty on every run.
                "TAPETE_INSTANCE": f"deploy-{uuid.uuid4().hex[:8]}",
                "DJANGO_STATIC_ROOT": str(folder / "static"),
                "TAPETE_SWEEP_SECONDS": "1",
                "TAPETE_BOT_DELAY_SECONDS": "0.3",
            }
        )
        # As the recipe says, before the servers start; run alongside their start-up here, to save time.
        collectstatic = subprocess.Popen(
            [sys.executable, "manage.py", "collectstatic", "--noinput", "-v0"], cwd=ROOT, env=env
        )
        cert, key = _certificate(folder)
        daphne_ports, https_port, http_port = [free_port(), free_port()], free_port(), free_port()
        site_file = folder / "tapete.conf"
        site_file.write_text(
            render(
                server_name=HOST,
                daphne_ports=daphne_ports,
                static_root=str(folder / "static"),
                certificate=str(cert),
                certificate_key=str(key),
                http_port=http_port,
                https_port=https_port,
            )
        )
        config = _nginx_main_config(folder, site_file)
        subprocess.run([nginx, "-t", "-q", "-p", str(folder), "-c", str(config)], check=True)
        commands = {
            **{
                f"celery-worker:{queue}": unit_command("tapete-celery-worker@.service", queue)
                for queue in ("play", "bulk")
            },
            "celery-beat": unit_command(
                "tapete-celery-beat.service", **{"/var/lib/tapete-beat": str(folder)}
            ),
            **{f"daphne:{port}": unit_command("tapete-daphne@.service", str(port)) for port in daphne_ports},
            "nginx": [nginx, "-p", str(folder), "-c", str(config)],
        }
        ports = {f"daphne:{port}": port for port in daphne_ports} | {"nginx": https_port}
        stack.enter_context(processes({name: (command, env) for name, command in commands.items()}, ports))
        assert collectstatic.wait(60) == 0
        yield {
            "https": https_port,
            "http": http_port,
            "cafile": str(cert),
            "static": folder / "static",
            "access_log": folder / "access.log",
            "daphne_ports": daphne_ports,
        }
        stack.close()
        wait_for_other_database_sessions(connection)


class Browser:
    """HTTPS to tapete.test through nginx on 127.0.0.1, with cookies and Django's CSRF header, as a browser."""

    def __init__(self, site: dict) -> None:
        self.port = site["https"]
        self.context = ssl.create_default_context(cafile=site["cafile"])  # verified, for the name tapete.test
        self.origin = f"https://{HOST}:{self.port}"
        self.cookies: dict[str, str] = {}
        self.set_cookies: dict[str, str] = {}

    def request(self, method: str, path: str, data: dict | None = None) -> http.client.HTTPResponse:
        conn = http.client.HTTPSConnection(HOST, self.port, context=self.context, timeout=20)
        conn._create_connection = lambda address, *args, **kwargs: socket.create_connection(
            ("127.0.0.1", address[1]), *args, **kwargs
        )
        headers = {"Cookie": "; ".join(f"{name}={value}" for name, value in self.cookies.items())}
        body = None
        if method == "POST":
            body = urlencode(data or {}, doseq=True)
            headers |= {
                "Origin": self.origin,
                "Content-Type": "application/x-www-form-urlencoded",
                "X-CSRFToken": self.cookies.get("csrftoken", ""),
            }
        conn.request(method, path, body=body, headers=headers)
        response = conn.getresponse()
        response.text = response.read().decode()
        for header in response.headers.get_all("Set-Cookie") or []:
            self.set_cookies[header.split("=", 1)[0]] = header
            for name, morsel in SimpleCookie(header).items():
                self.cookies[name] = morsel.value
        conn.close()
        return response

    def post_and_follow(self, path: str, data: dict | None = None) -> str:
        response = self.request("POST", path, data)
        assert response.status == 302, (path, response.status, response.text[-2000:])
        return response.headers["Location"]

    def websocket(self, path: str, origin: str | None = None):
        return websockets.connect(
            f"wss://{HOST}:{self.port}{path}",
            host="127.0.0.1",
            port=self.port,
            ssl=self.context,
            server_hostname=HOST,
            origin=origin or self.origin,
            additional_headers={"Cookie": f"{settings.SESSION_COOKIE_NAME}={self.cookies['sessionid']}"},
            compression=None,
            proxy=None,
        )


def _sign_up(browser: Browser, username: str) -> None:
    assert browser.request("GET", "/accounts/signup/").status == 200  # sets the CSRF cookie
    browser.post_and_follow(
        "/accounts/signup/", {"username": username, "password1": PASSWORD, "password2": PASSWORD}
    )


def test_only_https_static_files_from_disk_and_the_site_origin_only(site):
    plain = http.client.HTTPConnection("127.0.0.1", site["http"], timeout=10)
    plain.request("GET", "/play/perudo/", headers={"Host": HOST})
    redirect = plain.getresponse()
    assert redirect.status == 301
    assert redirect.headers["Location"] == f"https://{HOST}:{site['https']}/play/perudo/"

    browser = Browser(site)
    home = browser.request("GET", "/")
    assert home.status == 200 and "max-age=31536000" in home.headers["Strict-Transport-Security"]
    assert "script-src 'self'" in home.headers["Content-Security-Policy"]
    oversize = browser.request("POST", "/api/tables", {"game": "x" * 2 * 2**20})  # over nginx's 1m
    assert oversize.status == 413 and oversize.headers["Content-Type"] == "application/json"
    assert json.loads(oversize.text)["code"] == "body_too_large"
    static = browser.request("GET", "/static/js/table.js")
    assert static.status == 200 and static.text == (site["static"] / "js" / "table.js").read_text()
    assert static.headers["Cache-Control"] == "max-age=3600"  # nginx's own "expires 1h", not the app's

    _sign_up(browser, "origin-checker")
    assert "Secure" in browser.set_cookies["sessionid"] and "Secure" in browser.set_cookies["csrftoken"]

    async def handshakes():
        async with browser.websocket("/ws/lobby/") as lobby:
            await lobby.ping()
        for foreign in (f"http://{HOST}:{site['https']}", f"https://{HOST}", "https://evil.example"):
            with pytest.raises(websockets.InvalidStatus) as refused:
                async with browser.websocket("/ws/lobby/", origin=foreign):
                    pass
            assert refused.value.response.status_code == 403

    asyncio.run(handshakes())


def _open_table(browser: Browser, game: str) -> int:
    """Sign up, open a two-seat table of ``game`` with a computer player, give it a short clock: the table's id."""
    _sign_up(browser, f"{game}-player")
    data = form_defaults(game, 2) | {f"opt_{name}": str(value) for name, value in FAST_OPTIONS[game].items()}
    table_url = browser.post_and_follow(f"/play/{game}/new/", data)
    match_id = int(re.search(r"/table/(\d+)/", table_url).group(1))
    assert browser.request("GET", f"/table/{match_id}/").status == 200
    browser.post_and_follow(f"/table/{match_id}/bot/", {"level": "medium"})
    Match.objects.filter(pk=match_id).update(time_control=CLOCK)
    return match_id


def _bot_moved_and_our_clock_ran_out(match_id: int) -> bool:
    try:
        timeouts = Match.objects.get(pk=match_id).clock["timeouts"][0]
        return timeouts >= 1 and MatchAction.objects.filter(match_id=match_id, seat=1).exists()
    finally:
        connection.close()  # this thread's own connection: nothing may hold the test database at the end


async def _play(browser: Browser, match_id: int) -> dict:
    """Start the table, play one move of our own, then watch the computer player move and our clock run out."""
    await asyncio.to_thread(browser.post_and_follow, f"/table/{match_id}/start/")
    page = await asyncio.to_thread(browser.request, "GET", f"/table/{match_id}/")
    assert page.status == 200 and f'data-ws="/ws/match/{match_id}/"' in page.text
    async with browser.websocket(f"/ws/match/{match_id}/") as socket:
        moved = False
        async with asyncio.timeout(45):
            while True:
                view = json.loads(await socket.recv())
                if view["t"] != "view":
                    continue
                if view["d"]["legal"] and not moved:
                    await socket.send(json.dumps({"t": "act", "v": view["v"], "d": view["d"]["legal"][0]}))
                    moved = True
                elif moved and await asyncio.to_thread(_bot_moved_and_our_clock_ran_out, match_id):
                    return view


def test_a_game_of_each_title_through_nginx(site):
    """Every title the site ships at once, as that many players of the site would play them."""
    browsers = {game: Browser(site) for game in SITE_GAME_KEYS}
    tables = {game: _open_table(browser, game) for game, browser in browsers.items()}

    async def play_all():
        return await asyncio.gather(*(_play(browsers[game], tables[game]) for game in SITE_GAME_KEYS))

    for game, last in zip(SITE_GAME_KEYS, asyncio.run(play_all()), strict=True):
        assert last["d"]["status"] == "active" and last["d"]["seat"] == 0, game
        ours = MatchAction.objects.filter(match_id=tables[game], seat=0).count()
        assert ours >= 2, f"{game}: our move, and at least one the server played when our clock ran out"
    # Round robin: pages and websockets (101) went to both daphne processes.
    log = site["access_log"].read_text().splitlines()
    for port in site["daphne_ports"]:
        assert any(line.endswith(f" 127.0.0.1:{port}") for line in log), port
    sockets = [line for line in log if line.startswith("/ws/match/")]
    assert len(sockets) == len(SITE_GAME_KEYS) and all(" 101 " in line for line in sockets)
