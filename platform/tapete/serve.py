"""Tapete's ASGI server: daphne, with bounded websockets. Run it as daphne's own command line, which it is:
``python -m tapete.serve -b 127.0.0.1 -p 8000 tapete.asgi:application`` (every daphne option works).

Daphne alone bounds neither of two things a client controls:

* **What waits to be sent to a client that does not read.** Twisted buffers whatever a socket is given, without
  limit, behind a kernel send buffer that Linux grows to megabytes. Here each websocket's kernel send buffer is set
  to ``TAPETE_WS_SEND_BUFFER_BYTES``, and the socket registers a streaming producer with its transport (Twisted's
  public ``registerProducer`` API): the transport pauses it once its own buffer passes its ``bufferSize``
  (64 KiB), and resumes it once the buffer has drained. What the application sends meanwhile is counted; past
  ``TAPETE_WS_SEND_BUFFER_BYTES`` the socket closes with code 4008 (``realtime.sockets.CLOSE_SLOW_READER``),
  the frame that did not fit and every later one dropped. A client that reads again within the close handshake
  timeout (the ping timeout) reads the close frame; one that does not is cut off then.
* **A peer that stopped answering.** Daphne pings only a socket that sent nothing for ``--ping-interval`` seconds
  (it restarts that wait on every frame received), so a client that keeps sending is never pinged, and never
  dropped. Here autobahn's own ping/pong does it instead: a ping every ``--ping-interval`` seconds whatever the
  client sends, and a peer whose pong does not come within ``--ping-timeout`` seconds is dropped; daphne's idle
  ping is switched off so that the two do not overlap. The intervals default to ``TAPETE_WS_PING_INTERVAL`` and
  ``TAPETE_WS_PING_TIMEOUT``; daphne's options, given, win.

And two things daphne does not do at all:

* **Time out a request that never completes.** Twisted's HTTP channel drops a connection that sends nothing for
  its factory's ``timeOut``, which daphne leaves at Twisted's default of 12 hours, so a client that sends half a
  handshake and stops holds its connection (and a file descriptor) all that time. Here it is
  ``TAPETE_HTTP_IDLE_TIMEOUT`` (10 s): it applies while a request, a websocket handshake included, is being
  received, and between two requests of a kept-alive connection, never while a request is handled nor to an open
  websocket. (A client that sends a byte every few seconds is not stopped by it: behind the deployment recipe,
  nginx's ``client_header_timeout`` bounds the whole header.)
* **Close sockets on shutdown.** On SIGTERM daphne cancels the applications and drops the connections without a
  close frame. Here every open websocket is first sent close code 4012 (``realtime.sockets.CLOSE_RESTARTING``,
  "server restarting"), on which clients reconnect at once rather than after their back-off, and the shutdown
  waits at most ``TAPETE_SHUTDOWN_GRACE`` seconds (1.5) for the applications to end: the process exits within
  two seconds.

Its event loop is uvloop's (Twisted's asyncio reactor runs on any asyncio loop): the server's CPU a move is about
5 % lower than on asyncio's own loop and its p99 lower (``bench/RESULTS.md``).

Its connections write at once (``tapete.immediate_writes``): Twisted's own TCP transport asks the loop to report
the socket writable before it writes each frame.

A websocket's input queue is a consumer inbox (``realtime.dispatch.Inbox``, in ``BoundedServer.create_application``):
the site's consumers read their client's events and their channel's messages from that one inbox, with no task
and no ``asyncio.Queue`` per source in between.

Daphne builds its websocket factory inside ``Server.run`` and calls its ``ready_callable`` just before the reactor
starts: that is where the factory gets this module's protocol class (Twisted's ``Factory.protocol``) and its ping
options (autobahn's ``setProtocolOptions``), and the HTTP factory its ``timeOut``. The close on shutdown runs in
daphne's own "before shutdown" trigger (``Server.kill_all_applications``), overridden here. ``tests/tapete/test_serve.py`` pins the daphne and autobahn behaviour
this relies on against real server processes.
"""

from __future__ import annotations

import asyncio
import logging
import os
import socket
import sys
import time
from functools import partial

import uvloop

# Daphne makes its event loop when its server module is imported, from the policy in force: uvloop's, so that every
# task, future and callback of the server (Channels' dispatch, the Redis client, the database thread's hand-back)
# runs on uvloop rather than on asyncio's own loop, written in Python.
asyncio.set_event_loop_policy(uvloop.EventLoopPolicy())

# Importing daphne's server installs Twisted's asyncio reactor, as daphne's own command does.
from daphne.cli import CommandLineInterface  # noqa: E402  (after the loop policy)
from daphne.server import Server  # noqa: E402  (after the loop policy)
from daphne.ws_protocol import WebSocketProtocol  # noqa: E402  (after the loop policy)
from twisted.internet import defer, tcp  # noqa: E402  (after the loop policy)
from twisted.internet.interfaces import IPushProducer  # noqa: E402  (after the loop policy)
from zope.interface import implementer  # noqa: E402  (after the loop policy)

from realtime.dispatch import Inbox  # noqa: E402  (after the loop policy)
from tapete.immediate_writes import ImmediateWriteServer  # noqa: E402  (after the loop policy)

logger = logging.getLogger("tapete.websocket")


@implementer(IPushProducer)
class SendBacklog:
    """Counts the bytes a socket is given while its transport says its buffer is full."""

    def __init__(self, limit: int) -> None:
        self.limit = limit
        self.paused = False
        self.bytes = 0

    def pauseProducing(self) -> None:  # the transport's buffer passed its bufferSize
        self.paused = True

    def resumeProducing(self) -> None:  # the transport's buffer is empty again
        self.paused = False
        self.bytes = 0

    def stopProducing(self) -> None:
        self.paused = True

    def admits(self, size: int) -> bool:
        """Whether ``size`` more bytes fit; counted if they do."""
        if not self.paused:
            return True
        if self.bytes + size > self.limit:
            return False
        self.bytes += size
        return True


class BoundedWebSocketProtocol(WebSocketProtocol):
    """daphne's websocket protocol with a bounded send backlog; pings are autobahn's (see the module docstring)."""

    backlog: SendBacklog | None = None

    def onOpen(self) -> None:
        super().onOpen()
        self.backlog = SendBacklog(self.factory.send_backlog_limit)
        # daphne's HTTP channel, which read the handshake, is still the transport's producer: this socket's replaces
        # it (that one would only stop reading from the client, and nothing would bound what is written).
        self.transport.unregisterProducer()
        self.transport.registerProducer(self.backlog, True)
        # The kernel's send buffer would otherwise grow to megabytes for a peer that does not read (Linux's
        # autotuning, on loopback to nginx too): held to the same size (Linux doubles it for its bookkeeping).
        handle = getattr(self.transport, "getHandle", None)
        sock = handle() if handle is not None else None
        if isinstance(sock, socket.socket):
            sock.setsockopt(socket.SOL_SOCKET, socket.SO_SNDBUF, self.backlog.limit)

    def sendMessage(self, payload: bytes, isBinary: bool = False, *args, **kwargs) -> None:
        if self.state in (self.STATE_CLOSING, self.STATE_CLOSED):
            return  # closing: nothing more goes out (autobahn would raise into the application)
        if self.backlog is not None and not self.backlog.admits(len(payload)):
            self.close_slow_reader()
            return
        super().sendMessage(payload, isBinary, *args, **kwargs)

    def close_slow_reader(self) -> None:
        from realtime.sockets import CLOSE_SLOW_READER

        logger.warning(
            "websocket %s closed (%d): over %d bytes waited to be sent to it",
            self.client_addr,
            CLOSE_SLOW_READER,
            self.backlog.limit,
        )
        self.sendClose(code=CLOSE_SLOW_READER)

    def onMessage(self, payload: bytes, isBinary: bool) -> None:
        if self.state != self.STATE_OPEN:
            return  # closing: the client's requests (a sync is a database read) would be answered to no one
        super().onMessage(payload, isBinary)

    def check_timeouts(self) -> None:
        # daphne's check also sends its own ping when nothing came for ping_interval: autobahn pings here, and a
        # second ping in flight would replace the first one's pending pong and leave its timeout armed.
        self.last_ping = time.time()
        super().check_timeouts()


class BoundedServer(Server):
    def __init__(self, *args, **kwargs) -> None:
        super().__init__(*args, **kwargs)
        self._ready = self.ready_callable
        self.ready_callable = self._bound_websockets

    def create_application(self, protocol, scope):
        """Daphne's own (4.2), with a websocket's input queue a consumer inbox (``realtime.dispatch.Inbox``)
        rather than an ``asyncio.Queue``: the site's consumers read their client's events and their channel's
        messages from it, with no task and no queue in between (``realtime.dispatch`` says what that saves).
        ``tests/tapete/test_serve.py`` pins daphne's method against this copy."""
        assert "application_instance" not in self.connections[protocol]
        input_queue = Inbox() if scope.get("type") == "websocket" else asyncio.Queue()
        scope.setdefault("asgi", {"version": "3.0"})
        application_instance = self.application(
            scope=scope,
            receive=input_queue.get,
            send=partial(self.handle_reply, protocol),
        )
        if protocol not in self.connections:
            return None
        self.connections[protocol]["application_instance"] = asyncio.ensure_future(
            application_instance,
            loop=asyncio.get_event_loop(),
        )
        return input_queue

    def listen_success(self, port):
        # Connections accepted on a TCP port write at once (tapete.immediate_writes says why).
        if isinstance(port, tcp.Port) and port.transport is tcp.Server:
            port.transport = ImmediateWriteServer
        super().listen_success(port)

    def kill_all_applications(self):
        """Daphne's "before shutdown" step: close every open websocket with "server restarting", cancel every
        application, and wait until both are done or ``TAPETE_SHUTDOWN_GRACE`` seconds passed. (Daphne's own
        version sends no close frame, and fails on a connection that has no application yet.)"""
        from django.conf import settings

        from realtime.sockets import CLOSE_RESTARTING

        for protocol in list(self.connections):
            if isinstance(protocol, WebSocketProtocol) and protocol.state == protocol.STATE_OPEN:
                protocol.sendClose(code=CLOSE_RESTARTING)
        for details in self.connections.values():
            application = details.get("application_instance")
            if application is not None:
                application.cancel()
        deadline = time.monotonic() + settings.TAPETE_SHUTDOWN_GRACE
        return defer.Deferred.fromFuture(asyncio.ensure_future(self._wound_down(deadline)))

    async def _wound_down(self, deadline: float) -> None:
        """Until every application ended and every websocket's close handshake is over (its close frame written: the
        reactor drops the connections without writing what waits), or until ``deadline``."""

        def busy() -> bool:
            return any(
                not details["application_instance"].done()
                for details in self.connections.values()
                if "application_instance" in details
            ) or any(
                protocol.state != protocol.STATE_CLOSED
                for protocol in self.connections
                if isinstance(protocol, WebSocketProtocol)
            )

        while busy() and time.monotonic() < deadline:
            await asyncio.sleep(0.02)

    def _bound_websockets(self) -> None:
        """Runs once ``Server.run`` has built the websocket factory, before the first connection."""
        from django.conf import settings

        self.http_factory.timeOut = settings.TAPETE_HTTP_IDLE_TIMEOUT
        factory = self.ws_factory
        factory.protocol = BoundedWebSocketProtocol
        factory.send_backlog_limit = settings.TAPETE_WS_SEND_BUFFER_BYTES
        factory.setProtocolOptions(
            autoPingInterval=self.ping_interval,
            autoPingTimeout=self.ping_timeout,
            autoPingRestartOnAnyTraffic=False,  # a client that sends but does not read must still answer pings
            closeHandshakeTimeout=self.ping_timeout,  # a closed socket's last frames get as long as a ping
        )
        if self._ready is not None:
            self._ready()


class BoundedCommandLine(CommandLineInterface):
    server_class = BoundedServer


def main(argv: list[str] | None = None) -> None:
    os.environ.setdefault("DJANGO_SETTINGS_MODULE", "tapete.settings")
    from django.conf import settings

    defaults = [
        f"--ping-interval={settings.TAPETE_WS_PING_INTERVAL}",
        f"--ping-timeout={settings.TAPETE_WS_PING_TIMEOUT}",
    ]
    # argparse keeps an option's last value: the command line's own wins over these defaults.
    BoundedCommandLine().run([*defaults, *(sys.argv[1:] if argv is None else argv)])


if __name__ == "__main__":
    main()
