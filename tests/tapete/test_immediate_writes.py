"""The server's TCP transport writes at once (platform/tapete/immediate_writes.py), on real connected sockets: a
write with nothing waiting reaches the peer without the reactor's help, a rest the kernel does not take waits in
order behind it, a lost connection fails through Twisted's own ``doWrite``, an aborted one sends nothing more, and
``tapete.serve`` installs the transport on the ports it listens on.

Twisted's stock transport is the control in the first test: each assertion there fails if the override stops
working, or if Twisted renames an attribute it reads (its write then raises).
"""

from __future__ import annotations

import socket

import pytest
from twisted.internet import main, tcp
from twisted.internet.protocol import Protocol
from twisted.internet.testing import MemoryReactorClock

from tapete.immediate_writes import ImmediateWriteServer
from tests.servers import server_probe


@pytest.fixture
def connection():
    """(a transport's class → the transport on one end of a connected pair, its reactor, the other end)."""
    made = []

    def make(transport_class):
        ours, peer = socket.socketpair()
        peer.setblocking(False)
        reactor = MemoryReactorClock()
        transport = transport_class(ours, Protocol(), ("127.0.0.1", 1), None, 1, reactor)
        made.append((ours, peer))
        return transport, reactor, peer

    yield make
    for ours, peer in made:
        ours.close()
        peer.close()


def _read_all(peer: socket.socket) -> bytes:
    chunks = []
    while True:
        try:
            chunk = peer.recv(1 << 20)
        except BlockingIOError:
            return b"".join(chunks)
        if not chunk:
            return b"".join(chunks)
        chunks.append(chunk)


def test_a_write_with_nothing_waiting_reaches_the_peer_at_once(connection):
    transport, reactor, peer = connection(ImmediateWriteServer)
    transport.write(b"a frame")
    assert _read_all(peer) == b"a frame"
    assert transport not in reactor.getWriters()  # no add and remove of a writer on the loop
    assert not transport.dataBuffer and not transport._tempDataLen

    stock, stock_reactor, stock_peer = connection(tcp.Server)
    stock.write(b"a frame")
    # Twisted's own: buffered until the reactor reports the socket writable.
    assert _read_all(stock_peer) == b""
    assert stock in stock_reactor.getWriters()


def test_what_the_kernel_does_not_take_waits_in_order_behind_it(connection):
    transport, reactor, peer = connection(ImmediateWriteServer)
    transport.socket.setsockopt(socket.SOL_SOCKET, socket.SO_SNDBUF, 4096)
    big = bytes(range(256)) * 4096  # 1 MiB: more than the kernel takes at once
    transport.write(big)
    transport.write(b"the next frame")  # behind the rest: buffered, not sent ahead of it
    assert transport in reactor.getWriters()
    received = b""
    while transport in reactor.getWriters():
        received += _read_all(peer)
        assert transport.doWrite() is None
    received += _read_all(peer)
    assert received == big + b"the next frame"
    transport.write(b"and one more")  # the buffer drained: at once again
    assert _read_all(peer) == b"and one more"


def test_a_lost_connection_fails_through_twisteds_own_write(connection):
    transport, reactor, peer = connection(ImmediateWriteServer)
    peer.close()
    transport.write(b"to nobody")  # no exception here: the reactor's write finds the loss
    assert transport in reactor.getWriters()
    assert transport.doWrite() is main.CONNECTION_LOST


def test_an_aborted_connection_sends_nothing_more(connection):
    transport, reactor, peer = connection(ImmediateWriteServer)
    transport.abortConnection()
    transport.write(b"after the abort")  # Twisted's own write, whose buffer an aborted connection never sends
    assert _read_all(peer) == b""


def test_the_server_installs_it_on_the_tcp_ports_it_listens_on():
    probe = (
        "import tapete.serve;"
        "from twisted.internet import reactor;"
        "from twisted.internet.protocol import Factory;"
        "port = reactor.listenTCP(0, Factory(), interface='127.0.0.1');"
        "tapete.serve.BoundedServer(application=None, endpoints=['tcp:port=0']).listen_success(port);"
        "print(port.transport.__name__)"
    )
    assert server_probe(probe) == ["ImmediateWriteServer"]
