"""What keeps a server to its own users: the host names it answers to (so that no other web
site reaches a local server by DNS rebinding), the origin of the pages that may open its
WebSocket, the headers that keep its pages to its own files, and the limits on connections.

Connection limits that hold for every kind of connection: plain HTTP, WebSocket, idle and
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

import ipaddress
import re
from collections import Counter
from collections.abc import Sequence
from dataclasses import dataclass, field
from typing import Any
from urllib.parse import urlsplit

import h11
from starlette.datastructures import Headers
from starlette.responses import PlainTextResponse
from starlette.types import ASGIApp, Message, Receive, Scope, Send
from starlette.websockets import WebSocket
from uvicorn.protocols.http.h11_impl import H11Protocol
from uvicorn.protocols.websockets.auto import AutoWebSocketsProtocol

from agents.web.store import Games

LOOPBACK_HOSTS = ("127.0.0.1", "localhost", "::1")
# A Host header: a name or IPv4 address, or an IPv6 address in brackets, then maybe a port.
_HOST_HEADER = re.compile(
    r"(?:\[(?P<ipv6>[0-9A-Fa-f:.]+)\]|(?P<name>[A-Za-z0-9.-]+))(?::(?P<port>\d{1,5}))?"
)


# ------------------------------------------------------------------------------------ serve
def host_names(host: str) -> tuple[str, ...]:
    """The host names a server listening on ``host`` answers to: the loopback names when
    ``host`` is a loopback address (so no other web site reaches it by DNS rebinding), any
    name otherwise."""
    return LOOPBACK_HOSTS if _is_loopback(host) else ("*",)


def _is_loopback(host: str) -> bool:
    if host == "localhost":
        return True
    try:
        return ipaddress.ip_address(host).is_loopback
    except ValueError:
        return False


def split_host(header: str) -> tuple[str, int | None]:
    """The host and port of a ``Host`` header: ``"[::1]:8000"`` is ``("::1", 8000)``,
    ``"localhost"`` is ``("localhost", None)``. Names are lower-cased and IP addresses written
    the standard way, so equal hosts compare equal.

    Raises:
        ValueError: ``header`` is not a host with an optional port.
    """
    match = _HOST_HEADER.fullmatch(header)
    try:
        if match is None or int(match["port"] or 0) > 65535:
            raise ValueError
        host = str(ipaddress.IPv6Address(match["ipv6"])) if match["ipv6"] else match["name"]
    except ValueError:
        raise ValueError(f"not a host and port: {header!r:.80}") from None
    return _normal_host(host), None if match["port"] is None else int(match["port"])


def _normal_host(host: str) -> str:
    try:
        return str(ipaddress.ip_address(host))
    except ValueError:
        return host.lower()


class HostCheck:
    """Requests must name one of ``allowed_hosts`` (``"*"``: any) in their ``Host`` header,
    with any port: a page of another site that reaches a local server by DNS rebinding names
    its own host there."""

    def __init__(self, app: ASGIApp, allowed_hosts: Sequence[str]) -> None:
        self.app = app
        self.allow_any = "*" in allowed_hosts
        self.allowed = frozenset(_normal_host(host) for host in allowed_hosts if host != "*")

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        if self.allow_any or scope["type"] not in ("http", "websocket") or self._allowed(scope):
            await self.app(scope, receive, send)
        else:
            await PlainTextResponse("Invalid host header", status_code=400)(scope, receive, send)

    def _allowed(self, scope: Scope) -> bool:
        try:
            host, _ = split_host(Headers(scope=scope).get("host", ""))
        except ValueError:
            return False
        return host in self.allowed


class SecurityHeaders:
    """Pages may load only this server's own files and talk only to it."""

    HEADERS = (
        (b"content-security-policy", b"default-src 'self'; connect-src 'self'; img-src 'self'"),
        (b"x-content-type-options", b"nosniff"),
        (b"referrer-policy", b"no-referrer"),
        (b"x-frame-options", b"DENY"),
    )

    def __init__(self, app: ASGIApp) -> None:
        self.app = app

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        if scope["type"] != "http":
            await self.app(scope, receive, send)
            return

        async def send_with_headers(message: Message) -> None:
            if message["type"] == "http.response.start":
                message["headers"] = [*message.get("headers", []), *self.HEADERS]
            await send(message)

        await self.app(scope, receive, send_with_headers)


def same_origin(websocket: WebSocket) -> bool:
    """Whether the page that opened the socket (if a browser says) is this server's own: the
    same scheme (an ``https`` page is another origin than this ``http`` server) and host."""
    origin = websocket.headers.get("origin")
    if origin is None:
        return True
    parts = urlsplit(origin)
    scheme = "https" if websocket.url.scheme == "wss" else "http"
    return parts.scheme == scheme and parts.netloc == websocket.headers.get("host")


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


def guard_for(games: Games) -> ConnectionGuard:
    """The connection limits of a server with the limits of ``games``: per client address
    room for each of its games' tab (a WebSocket) and for a browser's few parallel page loads;
    in all, room for every game's tab and more, always above one address's share."""
    per_address = 2 * games.max_per_client + 16
    return ConnectionGuard(per_address, 4 * games.max_games + per_address)
