"""Start real ASGI server processes on free local ports for tests that cross process boundaries: the site's own
server command (``python -m tapete.serve``, daphne with bounded websockets), as ``./dev serve`` and the deployment
start it."""

from __future__ import annotations

import os
import signal
import socket
import subprocess
import sys
import time
from contextlib import contextmanager
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parent.parent

# The marks of a test that needs PostgreSQL and Redis (CI's first pass): elsewhere it is skipped, saying why.
REAL_SERVICES = [
    pytest.mark.redis,
    pytest.mark.postgres,
    pytest.mark.skipif(
        not (os.environ.get("REDIS_URL") and os.environ.get("DATABASE_URL", "").startswith("postgres")),
        reason="needs REDIS_URL and a PostgreSQL DATABASE_URL (CI sets both)",
    ),
]
LOGS = ROOT / "test-artifacts" / "processes"


def recent_logs(since: float, lines: int = 60) -> str:
    """The last ``lines`` of the log of each child process this test process started (not a parallel one's)
    written to since ``since`` (a ``time.time()``): what a failing test that crosses processes reports, so a failure
    seen only in CI can be read from its output."""
    parts = []
    mine = sorted(LOGS.glob(f"*-{os.getpid()}-*.log"), key=lambda path: path.stat().st_mtime) if LOGS.exists() else []
    for path in mine:
        if path.stat().st_mtime >= since:
            tail = path.read_text(errors="replace").splitlines()[-lines:]
            parts.append(f"--- {path.name} (last {len(tail)} lines)\n" + "\n".join(tail))
    return "\n".join(parts)


def _log_file(name: str):
    """A file for a child process's stderr: a pipe nobody reads would block the child once its buffer is full."""
    LOGS.mkdir(parents=True, exist_ok=True)
    return open(LOGS / f"{name}-{os.getpid()}-{time.monotonic_ns()}.log", "w+b")  # noqa: SIM115


def server_probe(code: str) -> list[str]:
    """The words a child Python process with a server's environment printed running ``code`` (it must succeed)."""
    out = subprocess.run(
        [sys.executable, "-c", code], cwd=ROOT, env=child_env({}), capture_output=True, text=True, timeout=60
    )
    assert out.returncode == 0, out.stderr
    return out.stdout.split()


def child_env(env: dict[str, str]) -> dict[str, str]:
    """A server's or worker's environment: this process's, then what keeps the child one site with it (its secret
    key, which the sessions made here are hashed with; its instance name, which its Redis channels, queues and keys
    are prefixed with; hosts its production settings accept; the HTTP limits off, as the tests of other things sign
    up and create tables in numbers), then ``env``."""
    from django.conf import settings

    return {
        **os.environ,
        "DJANGO_SECRET_KEY": settings.SECRET_KEY,
        "DJANGO_ALLOWED_HOSTS": "127.0.0.1,localhost",
        "TAPETE_INSTANCE": settings.TAPETE_INSTANCE,
        "TAPETE_RATELIMIT": "false",
        **env,
        "PYTHONPATH": f"{ROOT / 'platform'}:{ROOT}",
    }


def database_url(connection) -> str:
    """The URL of the test database, for a child process to use (PostgreSQL only)."""
    db = connection.settings_dict
    return f"postgres://{db['USER']}@{db['HOST']}:{db['PORT']}/{db['NAME']}"


def site_socket(port: int, path: str, session_key: str):
    """A real websocket to ``path`` (``/ws/...``) on the daphne process at ``port``, logged in with ``session_key``."""
    import websockets
    from django.conf import settings

    return websockets.connect(
        f"ws://127.0.0.1:{port}{path}",
        additional_headers={
            "Cookie": f"{settings.SESSION_COOKIE_NAME}={session_key}",
            "Origin": f"http://127.0.0.1:{port}",
        },
        compression=None,
    )


def match_socket(port: int, match_id: int, session_key: str):
    """A real websocket to a match on the daphne process at ``port``, logged in with ``session_key``."""
    return site_socket(port, f"/ws/match/{match_id}/", session_key)


def free_port() -> int:
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        return probe.getsockname()[1]


SERVER = "tapete.serve"  # the module run as the server; "daphne" is daphne alone (bench/ws_load.py --server)


@contextmanager
def daphne_servers(
    count: int, env: dict[str, str], application: str = "tapete.asgi:application", server: str = SERVER
):
    """Yield the ports of ``count`` server processes (``python -m server``) serving ``application`` with ``env``
    added."""
    ports = [free_port() for _ in range(count)]
    full_env = child_env(env)
    logs = [_log_file(f"daphne-{port}") for port in ports]
    processes = [
        subprocess.Popen(
            daphne_command(port, application, server),
            cwd=ROOT,
            env=full_env,
            stdout=subprocess.DEVNULL,
            stderr=log,
        )
        for port, log in zip(ports, logs, strict=True)
    ]
    try:
        for port, process, log in zip(ports, processes, logs, strict=True):
            wait_for_port(port, process, log)
        yield ports
    finally:
        for process in processes:
            process.terminate()
        for process in processes:
            try:
                process.wait(10)
            except subprocess.TimeoutExpired:
                process.kill()
        for log in logs:
            log.close()


@contextmanager
def processes(commands: dict[str, tuple[list[str], dict[str, str]]], ports: dict[str, int]):
    """Start every ``name: (command, env)`` at once (each in a process group of its own: Celery forks), wait for
    the named processes' ``ports``, and at the end stop them all at once. Names starting with "celery" get
    Celery's cold shutdown: the warm one waits for its pool, seconds in a test."""
    logs = {name: _log_file(name.split(":")[0]) for name in commands}
    started = {
        name: subprocess.Popen(
            command, cwd=ROOT, env=env, stdout=subprocess.DEVNULL, stderr=logs[name], start_new_session=True
        )
        for name, (command, env) in commands.items()
    }
    try:
        for name, port in ports.items():
            wait_for_port(port, started[name], logs[name])
        yield started
    finally:
        for name, process in started.items():
            _signal_group(process, signal.SIGQUIT if name.startswith("celery") else signal.SIGTERM)
        for process in started.values():
            try:
                process.wait(5)
            except subprocess.TimeoutExpired:
                pass
            _signal_group(process, signal.SIGKILL)
            process.wait()
        for log in logs.values():
            log.close()


def daphne_command(
    port: int, application: str = "tapete.asgi:application", server: str = SERVER
) -> list[str]:
    return [sys.executable, "-m", server, "-b", "127.0.0.1", "-p", str(port), application]


def wait_for_port(port: int, process: subprocess.Popen, log, timeout: float = 30) -> None:
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        if process.poll() is not None:
            log.seek(0)
            raise RuntimeError(f"daphne exited: {log.read().decode(errors='replace')[-2000:]}")
        with socket.socket() as probe:
            if probe.connect_ex(("127.0.0.1", port)) == 0:
                return
        time.sleep(0.1)
    raise RuntimeError(f"daphne did not listen on port {port}")


@contextmanager
def celery_worker(env: dict[str, str], *, beat: bool = True, purge: bool = True, application: str = "tapete"):
    """A real Celery worker (with its beat scheduler) as a subprocess; yields the process so tests can kill it.
    With ``purge``, messages that earlier tests left on the broker are dropped first, so the worker starts on the
    test's own tasks only. ``application`` is the module Celery's ``-A`` loads (the site's, or a test's that wraps it).

    Two threads, as ``./dev serve`` runs it (with one, ``--pool=solo``, every task due at a time waits behind the
    one running: a relay or a database lock held up every computer move and deadline). Its log (info level: each
    task received and done, with times) is in ``test-artifacts/processes/``, and a failing test reports its
    tail."""
    if purge:
        from tapete.celery import app

        app.control.purge()
    full_env = child_env(env)
    command = [
        sys.executable,
        "-m",
        "celery",
        "-A",
        application,
        "worker",
        "--pool=threads",
        "--concurrency=2",
        "--loglevel=info",
        "--without-gossip",
        "--without-mingle",
    ]
    if beat:
        command += ["--beat", f"--schedule={ROOT / 'var' / f'beat-{os.getpid()}'}"]
    log = _log_file("celery-worker")
    # Its own process group: the embedded beat is a child process that would outlive a killed worker.
    process = subprocess.Popen(
        command, cwd=ROOT, env=full_env, stdout=subprocess.DEVNULL, stderr=log, start_new_session=True
    )
    try:
        yield process
    finally:
        _signal_group(process, signal.SIGTERM)
        try:
            process.wait(10)
        except subprocess.TimeoutExpired:
            pass
        _signal_group(process, signal.SIGKILL)  # whatever is left of the group, beat included
        process.wait()
        log.close()


def _signal_group(process: subprocess.Popen, signum: int) -> None:
    try:
        os.killpg(process.pid, signum)
    except ProcessLookupError:
        pass  # the whole group has exited already


@pytest.fixture(autouse=True)
def server_writes_settle_before_the_flush(transactional_db):
    """Live servers that outlast a test (a browser test's, a module's) keep writing while the test database is
    flushed: a socket's disconnection (a short transaction on the match and its seats), a sweep. On PostgreSQL the
    flush's TRUNCATE and such a transaction can deadlock (a CI run lost the deploy recipe's first test to one).
    Before the flush (this fixture is torn down first, since it depends on the database fixture), let the servers'
    transactions finish. Autouse where it is imported: the browser tests' conftest, the deploy recipe's module."""
    yield
    from django.db import connection

    if connection.vendor != "postgresql":
        return
    time.sleep(0.3)  # the server has the closes to read before it starts writing
    deadline = time.monotonic() + 10
    with connection.cursor() as cursor:
        while time.monotonic() < deadline:
            cursor.execute(
                "SELECT count(*) FROM pg_stat_activity WHERE datname = current_database() "
                "AND pid <> pg_backend_pid() AND state NOT IN ('idle')"
            )
            if cursor.fetchone()[0] == 0:
                return
            time.sleep(0.05)


def wait_for_other_database_sessions(connection, timeout: float = 10) -> None:
    """Server and worker processes' PostgreSQL sessions end a moment after the processes: wait for them, so the
    test database can be dropped at the end of the run. Nothing to do on SQLite."""
    if connection.vendor != "postgresql":
        return
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline and other_database_sessions(connection):
        time.sleep(0.05)


def other_database_sessions(connection) -> int:
    """The PostgreSQL sessions open on the test database besides ``connection``'s own."""
    with connection.cursor() as cursor:
        cursor.execute(
            "SELECT count(*) FROM pg_stat_activity WHERE datname = current_database() AND pid <> pg_backend_pid()"
        )
        return cursor.fetchone()[0]
