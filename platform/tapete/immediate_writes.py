"""A TCP connection that writes at once: the transport of the server's accepted connections, which sends what it is
given straight to the socket when nothing waits before it.

Twisted's own TCP transport never writes when asked: ``FileDescriptor.write`` appends to the connection's buffer and
asks the reactor to report the socket writable (``addWriter``), writes when the reactor reports it, and stops
listening for that once the buffer is empty (``removeWriter``). On the asyncio reactor that is two changes to the
loop's poller and one more pass of the loop for every websocket frame sent, about 6 % of a server's CPU at 500 games
(``bench/RESULTS.md``, 2026-12-07). asyncio's own transports try the socket first and keep only what it did not take;
:class:`ImmediateWriteServer` does the same and leaves everything else to Twisted: a write behind buffered bytes, a
rest the kernel did not take, a connection closing or lost (whose write Twisted's ``doWrite`` finds failing and
closes as it always does), an aborted connection (whose buffered bytes Twisted drops), the producer's pause (which
only a buffer past its ``bufferSize`` triggers).

``tapete.serve`` installs it through the port's ``transport`` attribute, which Twisted's ``tcp.Port`` documents as
the class to replace for another sort of transport. It reads four of Twisted's implementation attributes
(``dataBuffer``, ``_tempDataLen``, ``_writeDisconnected``, ``_aborting``): ``tests/tapete/test_immediate_writes.py``
pins them.
"""

from __future__ import annotations

from twisted.internet import tcp


class ImmediateWriteServer(tcp.Server):
    """Twisted's server-side TCP connection, writing at once when its buffer is empty."""

    def write(self, data: bytes) -> None:
        if (
            type(data) is not bytes
            or not data
            or self.TLS
            or not self.connected
            or self.disconnecting
            or self._aborting
            or self._writeDisconnected
            or self.dataBuffer
            or self._tempDataLen
        ):
            super().write(data)  # Twisted's own write: its checks, its buffer, its order
            return
        sent = self.writeSomeData(data)
        if isinstance(sent, Exception):
            # Lost: buffered as Twisted would, whose doWrite meets the same error and closes the connection.
            super().write(data)
        elif sent < len(data):
            super().write(data[sent:])
