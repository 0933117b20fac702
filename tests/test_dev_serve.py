"""``./dev serve``, the README's first command: its server and its Celery worker stop with it, however it is stopped:
Ctrl+C in its terminal (every process of the terminal's foreground group gets SIGINT), or a signal to the script
alone, as a process manager sends (SIGTERM). A TERM to the script once left the server running, holding the port."""

import os
import signal
import subprocess
import time
import urllib.error
import urllib.request

import pytest

from tests.servers import ROOT, free_port

STARTED_WITHIN_S = 180  # a fresh folder's SQLite database is migrated first
STOPPED_WITHIN_S = 30  # the worker gets 10 s to finish its task before it is killed


@pytest.fixture(scope="module")
def var_dir(tmp_path_factory):
    return tmp_path_factory.mktemp("dev-serve-var")  # migrated once, by the first test


def _serve(var_dir, port: int) -> subprocess.Popen:
    env = {
        key: value
        for key, value in os.environ.items()
        if key not in {"DATABASE_URL", "REDIS_URL", "DJANGO_SETTINGS_MODULE"}  # the embedded default, as a newcomer
    }
    env.update(TAPETE_PORT=str(port), TAPETE_VAR_DIR=str(var_dir))
    # A signal a process ignores stays ignored in what it starts, and a script cannot trap one it was started
    # ignoring: start the script as a terminal would, with Ctrl+C's signal not ignored.
    previous = signal.signal(signal.SIGINT, signal.default_int_handler)
    try:
        return subprocess.Popen(
            ["./dev", "serve"],
            cwd=ROOT,
            env=env,
            stdout=subprocess.DEVNULL,
            stderr=subprocess.DEVNULL,
            start_new_session=True,  # its own session and process group, as a terminal gives it
        )
    finally:
        signal.signal(signal.SIGINT, previous)


def _answers(port: int) -> bool:
    try:
        with urllib.request.urlopen(f"http://127.0.0.1:{port}/", timeout=5) as response:
            return response.status == 200
    except (urllib.error.URLError, OSError):
        return False


def _in_session(session: int) -> list[int]:
    """The processes still alive in ``session`` (zombies, already dead, left out)."""
    alive = []
    for entry in os.listdir("/proc"):
        if not entry.isdigit():
            continue
        try:
            if os.getsid(int(entry)) != session:
                continue
            with open(f"/proc/{entry}/stat") as stat:
                if stat.read().rsplit(")", 1)[1].split()[0] != "Z":
                    alive.append(int(entry))
        except (ProcessLookupError, FileNotFoundError):
            continue
    return alive


@pytest.mark.parametrize("stop", ["ctrl_c", "term_to_the_script"])
def test_the_server_and_its_worker_stop_with_the_script(var_dir, stop):
    port = free_port()
    script = _serve(var_dir, port)
    try:
        deadline = time.monotonic() + STARTED_WITHIN_S
        while not _answers(port):
            assert script.poll() is None, "./dev serve exited before it served"
            assert time.monotonic() < deadline, "./dev serve did not answer in time"
            time.sleep(0.5)
        assert len(_in_session(script.pid)) >= 3  # the script, its worker and its server

        if stop == "ctrl_c":
            os.killpg(script.pid, signal.SIGINT)
        else:
            script.send_signal(signal.SIGTERM)
        script.wait(timeout=STOPPED_WITHIN_S)
        deadline = time.monotonic() + STOPPED_WITHIN_S
        while _in_session(script.pid) and time.monotonic() < deadline:
            time.sleep(0.2)
        assert _in_session(script.pid) == []
        assert not _answers(port)
    finally:
        for pid in _in_session(script.pid):
            os.kill(pid, signal.SIGKILL)
