"""The site's server (``python -m tapete.serve``, platform/tapete/serve.py) bounds its websockets, on real server
processes: a peer that stops answering pings is dropped however much it sends, a peer that answers them stays, and
a client that stops reading is closed with 4008 before a megabyte waits for it.

These also pin what the launcher relies on in daphne and autobahn (daphne's ``ready_callable`` after its websocket
factory is built, its idle ping in ``check_timeouts``, autobahn's ping options and Twisted's producer pause, and
its ``create_application``, which the launcher copies to give a websocket a consumer inbox): each test fails if a
release changes one of them. The lobby and echo sockets need no database, so these run on the
embedded default too. Real seconds pass here, by nature.
"""

from __future__ import annotations

import asyncio
import socket
import subprocess
import threading
import time

import websockets

from realtime.sockets import CLOSE_RESTARTING, CLOSE_SLOW_READER
from tests.faults import RawWebSocket, close_code
from tests.servers import (
    ROOT,
    child_env,
    daphne_command,
    daphne_servers,
    free_port,
    server_probe,
    wait_for_port,
)

PING_INTERVAL, PING_TIMEOUT = 1, 2
PINGS = {"TAPETE_WS_PING_INTERVAL": str(PING_INTERVAL), "TAPETE_WS_PING_TIMEOUT": str(PING_TIMEOUT)}


def _keep_sending(ws: RawWebSocket, text: str, per_second: float, stop: threading.Event) -> None:
    while not stop.is_set():
        try:
            ws.send_text(text)
        except OSError:
            return  # the server dropped the connection
        time.sleep(1 / per_second)


def test_a_peer_that_keeps_sending_but_never_answers_pings_is_dropped():
    with daphne_servers(1, PINGS) as [port]:
        ws = RawWebSocket(port, "/ws/lobby/", {"Origin": f"http://127.0.0.1:{port}"})
        stop = threading.Event()
        # Five frames a second: daphne alone restarts its ping wait on each one, so it would never ping this peer.
        sender = threading.Thread(target=_keep_sending, args=(ws, "{}", 5, stop), daemon=True)
        opened = time.monotonic()
        sender.start()
        try:
            _, frames = ws.read_until_closed(timeout=30)
        finally:
            stop.set()
            sender.join(5)
            ws.close()
        dropped_after = time.monotonic() - opened
    assert any(opcode == 0x9 for opcode, _ in frames), "the server never pinged a peer that keeps sending"
    assert dropped_after < PING_INTERVAL + PING_TIMEOUT + 3, f"dropped only after {dropped_after:.1f} s"


def test_a_peer_that_answers_pings_stays_connected():
    """Idle long enough for several pings: one ping in flight at a time (daphne's own idle ping, if it still fired
    beside autobahn's, would leave a pong timeout armed and drop this healthy peer)."""

    async def idle(port: int) -> None:
        async with websockets.connect(
            f"ws://127.0.0.1:{port}/ws/lobby/", origin=f"http://127.0.0.1:{port}", ping_interval=None
        ) as ws:
            await asyncio.sleep(3 * (PING_INTERVAL + PING_TIMEOUT))
            await asyncio.wait_for(await ws.ping(), 5)  # still open, both ways

    with daphne_servers(1, PINGS) as [port]:
        asyncio.run(idle(port))


def test_a_client_that_does_not_read_is_closed_with_4008_before_a_megabyte_waits():
    frame = "x" * 16000
    with daphne_servers(1, {}, "bench.echo:application") as [
        port
    ]:  # the site with bench/echo.py's echo route
        # A 4 KiB receive buffer: what the server sends piles up on the server's side.
        ws = RawWebSocket(port, "/ws/echo/", {"Origin": f"http://127.0.0.1:{port}"}, receive_buffer=4096)
        stop = threading.Event()
        sender = threading.Thread(target=_keep_sending, args=(ws, frame, 15, stop), daemon=True)
        sender.start()
        time.sleep(10)  # about 2.4 MB echoed to a client that reads none of it
        stop.set()
        sender.join(5)
        received, frames = ws.read_until_closed(timeout=30)
        ws.close()
    assert close_code(frames) == CLOSE_SLOW_READER
    assert received < 1024 * 1024, f"{received} bytes waited for the client"


def test_a_half_sent_handshake_is_dropped_after_the_idle_timeout():
    with daphne_servers(1, {"TAPETE_HTTP_IDLE_TIMEOUT": "1"}) as [port]:
        half = socket.create_connection(("127.0.0.1", port))
        half.sendall(b"GET /ws/lobby/ HTTP/1.1\r\nHost: 127.0.0.1\r\nUpgrade: websocket\r\n")  # and nothing more
        half.settimeout(15)
        opened = time.monotonic()
        try:
            assert half.recv(1024) == b"", "the server answered a request it never fully received"
        finally:
            half.close()
        held = time.monotonic() - opened
    assert held < 1 + 3, f"a half-sent handshake was held {held:.1f} s"  # the timeout, plus Twisted's timer slack


def test_sigterm_closes_open_sockets_with_server_restarting_and_exits_within_two_seconds(tmp_path):
    port = free_port()
    with open(tmp_path / "daphne.log", "w") as log:
        process = subprocess.Popen(daphne_command(port), cwd=ROOT, env=child_env({}), stderr=log)
        try:
            wait_for_port(port, process, log)
            sockets = [RawWebSocket(port, "/ws/lobby/", {"Origin": f"http://127.0.0.1:{port}"}) for _ in range(5)]
            time.sleep(0.5)  # every socket accepted
            stopping = time.monotonic()
            process.terminate()
            codes = []
            for ws in sockets:
                _, frames = ws.read_until_closed(timeout=10)
                codes.append(close_code(frames))
                ws.close()
            process.wait(10)
            exited_after = time.monotonic() - stopping
        finally:
            process.kill()
            process.wait()
    assert codes == [CLOSE_RESTARTING] * len(sockets)
    assert exited_after < 2, f"the server took {exited_after:.1f} s to exit"


def test_the_server_runs_on_uvloop():
    """Daphne makes its loop when its server module is imported; the launcher's policy must be in force by then."""
    probe = (
        "import tapete.serve, daphne.server;"
        "from twisted.internet import reactor;"
        "print(type(daphne.server.twisted_loop).__module__, type(reactor).__name__)"
    )
    assert server_probe(probe) == ["uvloop", "AsyncioSelectorReactor"]


# Daphne 4.2's Server.create_application, which tapete.serve's BoundedServer copies with a websocket's input queue
# a consumer inbox.
STOCK_CREATE_APPLICATION = '''
def create_application(self, protocol, scope):
    """
    Creates a new application instance that fronts a Protocol instance
    for one of our supported protocols. Pass it the protocol,
    and it will work out the type, supply appropriate callables, and
    return you the application's input queue
    """
    # Make sure the protocol has not had another application made for it
    assert "application_instance" not in self.connections[protocol]
    # Make an instance of the application
    input_queue = asyncio.Queue()
    scope.setdefault("asgi", {"version": "3.0"})
    application_instance = self.application(
        scope=scope,
        receive=input_queue.get,
        send=partial(self.handle_reply, protocol),
    )
    # Run it, and stash the future for later checking
    if protocol not in self.connections:
        return None
    self.connections[protocol]["application_instance"] = asyncio.ensure_future(
        application_instance,
        loop=asyncio.get_event_loop(),
    )
    return input_queue
'''


def test_daphnes_create_application_is_the_method_the_server_copies():
    source = server_probe(
        "import inspect, textwrap, daphne.server;"
        "print(textwrap.dedent(inspect.getsource(daphne.server.Server.create_application)).encode().hex())"
    )
    assert bytes.fromhex(source[0]).decode().strip() == STOCK_CREATE_APPLICATION.strip(), (
        "daphne changed Server.create_application: check tapete/serve.py's copy against it, then update this one"
    )


def test_the_server_gives_a_websocket_an_inbox_and_an_http_request_daphnes_queue():
    """The inbox is what the site's consumers read their client and their channel from (``realtime.dispatch``)."""
    probe = (
        "import asyncio, tapete.serve;"
        "server = tapete.serve.BoundedServer(application=lambda scope, receive, send: asyncio.sleep(0), endpoints=['tcp:port=0']);"
        "server.connections = {'ws': {}, 'http': {}};"
        "loop = asyncio.new_event_loop(); asyncio.set_event_loop(loop);"
        "queues = [server.create_application(p, {'type': p if p == 'http' else 'websocket'}) for p in ('ws', 'http')];"
        "loop.run_until_complete(asyncio.sleep(0.01));"
        "print(*(type(queue).__module__ + '.' + type(queue).__name__ for queue in queues))"
    )
    assert server_probe(probe) == ["realtime.dispatch.Inbox", "asyncio.queues.Queue"]
