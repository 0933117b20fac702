"""Fault injection for the tests: a TCP proxy that can cut a service off, as a network outage would, a websocket
client that misbehaves as a stalled or broken peer does, and a channel layer that loses the heartbeat's probes
(``lose_probes``), as Redis does while a process is not subscribed.

``TcpProxy`` listens on a free local port and forwards every connection to a target (Redis, PostgreSQL, daphne).
``drop()`` drops every open connection once; ``cut()`` drops them and refuses new ones until ``restore()``;
``slow(seconds)`` holds every chunk of data that much before passing it on, either way (a slow network or a loaded
server: a request and its answer take twice that more). The service itself keeps running and keeps its data, as
it does when a network path or a load balancer fails (a restarted Redis without persistence would also lose its
queues, which is a different fault).
"""

from __future__ import annotations

import asyncio
import base64
import os
import socket
import struct
import threading
import time

from realtime.layerwatch import MESSAGE_TYPE
from tests.servers import free_port


class TcpProxy:
    def __init__(self, target_host: str, target_port: int) -> None:
        self.target = (target_host, target_port)
        self.port = free_port()
        self._down = threading.Event()
        self._closing = threading.Event()
        self._lock = threading.Lock()
        self._sockets: set[socket.socket] = set()
        self.latency = 0.0
        self._listener = socket.create_server(("127.0.0.1", self.port))
        self._thread = threading.Thread(target=self._accept_loop, name="tcp-proxy", daemon=True)

    def __enter__(self) -> TcpProxy:
        self._thread.start()
        return self

    def __exit__(self, *exc_info) -> None:
        self._closing.set()
        self._listener.close()
        self._drop_all()
        self._thread.join(5)

    def cut(self) -> None:
        """Drop every connection and refuse new ones."""
        self._down.set()
        self._drop_all()

    def restore(self) -> None:
        self._down.clear()

    def slow(self, seconds: float) -> None:
        """Delay every chunk by ``seconds`` from now on (0: full speed again)."""
        self.latency = seconds

    def drop(self) -> None:
        """Drop every open connection once, as a network blip does; new ones go through."""
        self._drop_all()

    def _drop_all(self) -> None:
        with self._lock:
            sockets, self._sockets = self._sockets, set()
        for sock in sockets:
            try:
                sock.shutdown(socket.SHUT_RDWR)
            except OSError:
                pass
            sock.close()

    def _accept_loop(self) -> None:
        while not self._closing.is_set():
            try:
                client, _ = self._listener.accept()
            except OSError:
                return
            if self._down.is_set():
                client.close()
                continue
            try:
                upstream = socket.create_connection(self.target, timeout=5)
            except OSError:
                client.close()
                continue
            upstream.settimeout(None)
            with self._lock:
                self._sockets.update((client, upstream))
            for source, sink in ((client, upstream), (upstream, client)):
                threading.Thread(target=self._pump, args=(source, sink), daemon=True).start()

    def _pump(self, source: socket.socket, sink: socket.socket) -> None:
        try:
            while data := source.recv(65536):
                if self.latency:
                    time.sleep(self.latency)
                sink.sendall(data)
        except OSError:
            pass
        finally:
            for sock in (source, sink):
                try:
                    sock.shutdown(socket.SHUT_RDWR)
                except OSError:
                    pass


class RawWebSocket:
    """A websocket client on a bare TCP socket, for what no websocket library does: it reads only when told to
    (with as small a receive buffer as asked, so the server's frames pile up on the server's side) and it never
    answers a ping."""

    def __init__(
        self, port: int, path: str, headers: dict[str, str], receive_buffer: int | None = None
    ) -> None:
        self.sock = socket.socket()
        if receive_buffer is not None:  # before connecting: it sets the window the connection starts with
            self.sock.setsockopt(socket.SOL_SOCKET, socket.SO_RCVBUF, receive_buffer)
        self.sock.settimeout(10)
        self.sock.connect(("127.0.0.1", port))
        key = base64.b64encode(os.urandom(16)).decode()
        lines = [
            f"GET {path} HTTP/1.1",
            f"Host: 127.0.0.1:{port}",
            "Upgrade: websocket",
            "Connection: Upgrade",
            f"Sec-WebSocket-Key: {key}",
            "Sec-WebSocket-Version: 13",
            *(f"{name}: {value}" for name, value in headers.items()),
        ]
        self.sock.sendall(("\r\n".join(lines) + "\r\n\r\n").encode())
        self.pending = b""
        while b"\r\n\r\n" not in self.pending:
            chunk = self.sock.recv(4096)
            if not chunk:
                raise ConnectionError("the server closed the connection during the handshake")
            self.pending += chunk
        head, self.pending = self.pending.split(b"\r\n\r\n", 1)
        if not head.startswith(b"HTTP/1.1 101"):
            raise ConnectionError(f"handshake refused: {head.splitlines()[0].decode()}")

    def send_text(self, text: str) -> None:
        """One masked text frame (payloads under 64 KiB)."""
        payload = text.encode()
        mask = os.urandom(4)
        size = len(payload)
        header = (
            struct.pack("!BB", 0x81, 0x80 | size)
            if size < 126
            else struct.pack("!BBH", 0x81, 0x80 | 126, size)
        )
        masked = bytes(byte ^ mask[index % 4] for index, byte in enumerate(payload))
        self.sock.sendall(header + mask + masked)

    def read_until_closed(
        self, timeout: float = 30, stop_at_text: bool = False
    ) -> tuple[int, list[tuple[int, bytes]]]:
        """Read every frame until the server's close frame or the end of the connection (or, with
        ``stop_at_text``, the first text frame): returns the total bytes read and the frames as (opcode, payload);
        a close frame's payload starts with its code."""
        frames: list[tuple[int, bytes]] = []
        data, received = self.pending, len(self.pending)
        deadline = time.monotonic() + timeout
        self.sock.settimeout(1)
        while time.monotonic() < deadline:
            while (frame := _parse_frame(data)) is not None:
                opcode, payload, data = frame
                frames.append((opcode, payload))
                if opcode == 0x8 or (stop_at_text and opcode == 0x1):
                    return received, frames
            try:
                chunk = self.sock.recv(65536)
            except TimeoutError:
                continue
            except OSError:  # reset: the server dropped the connection
                return received, frames
            if not chunk:
                return received, frames
            received += len(chunk)
            data += chunk
        raise TimeoutError("the server neither closed the socket nor the connection")

    def close(self) -> None:
        self.sock.close()


def close_code(frames: list[tuple[int, bytes]]) -> int | None:
    """The code of the server's close frame among ``frames`` (None if the connection ended without one)."""
    for opcode, payload in frames:
        if opcode == 0x8 and len(payload) >= 2:
            return struct.unpack("!H", payload[:2])[0]
    return None


def _parse_frame(data: bytes) -> tuple[int, bytes, bytes] | None:
    """One unmasked server frame from the front of ``data``: (opcode, payload, the rest), or None if incomplete."""
    if len(data) < 2:
        return None
    opcode, size, offset = data[0] & 0x0F, data[1] & 0x7F, 2
    if size == 126:
        if len(data) < 4:
            return None
        size, offset = struct.unpack("!H", data[2:4])[0], 4
    elif size == 127:
        if len(data) < 10:
            return None
        size, offset = struct.unpack("!Q", data[2:10])[0], 10
    if len(data) < offset + size:
        return None
    return opcode, data[offset : offset + size], data[offset + size :]


def lose_probes(monkeypatch, layer, count: float = float("inf")) -> None:
    """``layer`` takes the next ``count`` probes of the heartbeat's watch (``realtime.layerwatch``) and never delivers
    them, as Redis does while this process is not subscribed; every other message goes through."""
    send = layer.send
    left = [count]

    async def lossy(channel, message):
        if message.get("type") == MESSAGE_TYPE and left[0] > 0:
            left[0] -= 1
            return
        await send(channel, message)

    monkeypatch.setattr(layer, "send", lossy)


async def watch_answers(watch, since: int) -> list[tuple[bool, bool]]:
    """Tick ``watch`` (a ``realtime.layerwatch.LayerWatch``) every 0.1 s until it has asked for nothing three ticks in
    a row (at most 100 ticks): each tick's answer (heal every match?), with whether a probe sent after probe number
    ``since`` had come back when it answered."""
    answers: list[tuple[bool, bool]] = []
    while len(answers) < 100 and not (len(answers) >= 3 and not any(heal for heal, _ in answers[-3:])):
        heal = await watch.tick()
        answers.append((heal, watch.heard > since))
        await asyncio.sleep(0.1)
    return answers


def assert_heals_until_heard(answers: list[tuple[bool, bool]]) -> None:
    """Every tick asked to heal until one answered after a probe had come back, and none after that."""
    heals = [heal for heal, _ in answers]
    quiet = heals.index(False)
    assert quiet > 0 and all(heals[:quiet]) and not any(heals[quiet:]), answers
    assert answers[quiet - 1][1], f"the last heal comes once a probe came back: {answers}"
