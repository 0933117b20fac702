"""Websocket limits: a token bucket for frames, and this process's register of open sockets.

* Frames: at most ``TAPETE_WS_RATE_PER_SECOND`` a second on average, bursts up to ``TAPETE_WS_RATE_BURST``, counted
  per user (per IP address for visitors who are not logged in): every socket of one user draws from one bucket,
  so opening more sockets buys no more frames.
* Sockets: at most ``TAPETE_WS_SOCKETS_PER_USER`` per user and ``TAPETE_WS_SOCKETS_PER_IP`` per IP address.

The register lives in the ASGI process (the event loop's thread; no lock needed). With N processes behind a load
balancer a user can therefore hold at most N times these figures, which still bounds what one user costs; a
shared count would add a Redis round trip to every frame (measured about a hundred times the local check at the
median, and milliseconds at the tail: ``bench/RESULTS.md``, 2026-12-04) and leak counts when a process dies.
docs/protocol.md says so.
"""

from __future__ import annotations

import time
from dataclasses import dataclass, field

from realtime.weakgroups import WeakGroups


class TokenBucket:
    __slots__ = ("burst", "clock", "rate", "tokens", "updated")  # up to three per socket

    def __init__(self, rate: float, burst: int, clock=time.monotonic) -> None:
        self.rate = rate
        self.burst = burst
        self.clock = clock
        self.tokens = float(burst)
        self.updated = clock()

    def _refill(self) -> None:
        now = self.clock()
        self.tokens = min(self.burst, self.tokens + (now - self.updated) * self.rate)
        self.updated = now

    def allow(self) -> bool:
        self._refill()
        if self.tokens >= 1:
            self.tokens -= 1
            return True
        return False

    @property
    def full(self) -> bool:
        self._refill()
        return self.tokens >= self.burst


@dataclass
class SocketRegister:
    """Open sockets by user and by IP address, and each user's frame bucket. Keys are the caller's, and user keys
    and IP keys must not collide (the sockets use ``user:<id>`` and ``ip:<address>``).

    Sockets are held weakly: a consumer that went away without its ``release`` (a process-level failure) stops
    counting once it is collected. A user's bucket outlives their sockets until it has refilled, so closing and
    reopening a socket does not buy a fresh burst.
    """

    by_user: WeakGroups = field(default_factory=WeakGroups)
    by_ip: WeakGroups = field(default_factory=WeakGroups)
    buckets: dict = field(default_factory=dict)

    def admit(self, socket, *, user_key: str | None, ip: str | None, per_user: int, per_ip: int) -> bool:
        """Count ``socket`` for its user and IP if both are under their limits; False (nothing counted) if not."""
        if user_key is not None and self.by_user.count(user_key) >= per_user:
            return False
        if ip is not None and self.by_ip.count(ip) >= per_ip:
            return False
        if user_key is not None:
            self.by_user.add(user_key, socket)
        if ip is not None:
            self.by_ip.add(ip, socket)
        return True

    def release(self, socket, *, user_key: str | None, ip: str | None) -> None:
        for register, key in ((self.by_user, user_key), (self.by_ip, ip)):
            if key is not None:
                register.discard(key, socket)
        self._prune()

    def bucket(self, key: str, *, rate: float, burst: int) -> TokenBucket:
        """The frame bucket every socket of ``key`` (a user's key, or an IP address's for visitors) draws from."""
        bucket = self.buckets.get(key)
        if bucket is None:
            bucket = self.buckets[key] = TokenBucket(rate, burst)
        return bucket

    def _prune(self) -> None:
        """Forget the buckets of keys without sockets once they are full again (they would start full anyway)."""
        if len(self.buckets) < 256:
            return
        for key in [key for key, bucket in self.buckets.items() if self._idle(key) and bucket.full]:
            del self.buckets[key]

    def _idle(self, key: str) -> bool:
        return key not in self.by_user and key not in self.by_ip
