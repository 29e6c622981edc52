"""Connection limits that hold for every kind of connection: plain HTTP, WebSocket, idle and
half-open ones.

uvicorn's own cap (``limit_concurrency``) counts WebSockets but answers only plain HTTP with
503 once it is reached, so one client that holds sockets open makes the page unavailable to
everybody, and nothing closes a connection that never finishes its request. Here each
connection is admitted by a :class:`ConnectionGuard` as it is made, before any byte is read:
at most ``per_address`` open connections from one client address and ``total`` in all (the
rest are closed at once), and a connection that has not sent a whole request within
``request_timeout`` seconds is closed (a WebSocket, once upgraded, answers to the app's own
start and idle timeouts and to uvicorn's pings instead).
"""

from __future__ import annotations

from collections import Counter
from dataclasses import dataclass, field
from typing import Any

import h11
from uvicorn.protocols.http.h11_impl import H11Protocol
from uvicorn.protocols.websockets.auto import AutoWebSocketsProtocol


@dataclass
class ConnectionGuard:
    """The open connections by client address, and the limits on them.

    Attributes:
        per_address: open connections one client address may hold.
        total: open connections in all; larger than ``per_address``, so that one address
            reaching its limit leaves room for others.
        request_timeout: seconds a connection may take to send a whole request.
    """

    per_address: int
    total: int
    request_timeout: float = 10.0
    _open: dict[Any, str] = field(default_factory=dict)  # transport -> its client's address
    _by_address: Counter[str] = field(default_factory=Counter)

    def __post_init__(self) -> None:
        if not 1 <= self.per_address < self.total or not self.request_timeout > 0:
            raise ValueError("need 1 <= per_address < total and request_timeout > 0")

    def admit(self, transport: Any) -> bool:
        """Count ``transport``'s connection in, if its address and the server have room."""
        if transport in self._open:
            return True  # the same connection, upgraded to a WebSocket
        peer = transport.get_extra_info("peername")
        address = str(peer[0]) if isinstance(peer, tuple) and peer else ""
        if self._by_address[address] >= self.per_address or len(self._open) >= self.total:
            return False
        self._open[transport] = address
        self._by_address[address] += 1
        return True

    def release(self, transport: Any) -> None:
        """Count a closed connection out (nothing happens if it was not counted)."""
        address = self._open.pop(transport, None)
        if address is not None:
            self._by_address[address] -= 1
            if not self._by_address[address]:
                del self._by_address[address]

    def open_from(self, address: str) -> int:
        """Open connections from ``address``."""
        return self._by_address[address]

    def __len__(self) -> int:
        return len(self._open)

    def protocols(self) -> tuple[type, type]:
        """The HTTP and WebSocket protocol classes for ``uvicorn.Config(http=..., ws=...)``
        that keep to this guard's limits."""
        guard = self

        class GuardedHTTP(H11Protocol):
            def connection_made(self, transport: Any) -> None:  # type: ignore[override]
                super().connection_made(transport)
                if not guard.admit(transport):
                    transport.abort()  # before reading a byte: the client's limit is reached
                    return
                self._waiting_since = self.loop.time()
                self._check = self.loop.call_later(guard.request_timeout, self._close_if_stuck)

            def on_response_complete(self) -> None:
                self._waiting_since = self.loop.time()  # the next request's time starts now
                super().on_response_complete()

            def _close_if_stuck(self) -> None:
                # No whole request within the time (nothing, or only part of one), and not
                # upgraded to a WebSocket: a half-open connection holding a place for nobody.
                # An idle keep-alive connection is uvicorn's to close, sooner.
                if self.transport.is_closing() or self.transport.get_protocol() is not self:
                    return
                waited = self.loop.time() - self._waiting_since
                if self.conn.their_state is h11.IDLE and waited >= guard.request_timeout:
                    self.transport.close()
                    return
                self._check = self.loop.call_later(guard.request_timeout, self._close_if_stuck)

            def connection_lost(self, exc: Exception | None) -> None:
                guard.release(self.transport)
                check = getattr(self, "_check", None)
                if check is not None:
                    check.cancel()
                super().connection_lost(exc)

        class GuardedWebSocket(AutoWebSocketsProtocol):  # type: ignore[misc, valid-type]
            def connection_lost(self, exc: Exception | None) -> None:
                guard.release(self.transport)
                super().connection_lost(exc)

        return GuardedHTTP, GuardedWebSocket
