"""Fault injection for the tests: a TCP proxy that can cut a service off, as a network outage would.

``TcpProxy`` listens on a free local port and forwards every connection to a target (Redis, PostgreSQL, daphne).
``drop()`` drops every open connection once; ``cut()`` drops them and refuses new ones until ``restore()``;
``slow(seconds)`` holds every chunk of data that much before passing it on, either way (a slow network or a loaded
server: a request and its answer take twice that more). The service itself keeps running and keeps its data, as
it does when a network path or a load balancer fails (a restarted Redis without persistence would also lose its
queues, which is a different fault).
"""

from __future__ import annotations

import socket
import threading
import time

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
