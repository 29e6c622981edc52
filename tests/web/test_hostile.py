"""A hostile client against a real server on the loopback address: it may not lock anybody
out, stall another player, lose a game, or make the server fail.

Every probe runs against a uvicorn server on 127.0.0.1 in this process; a second client
address is another loopback address (``127.0.0.2``), as Linux routes all of 127.0.0.0/8 to
the loopback interface. Every loop is bounded in count, and every wait in time.
"""

from __future__ import annotations

import asyncio
import json
import logging
import socket
import sys
import time
from collections.abc import AsyncIterator
from contextlib import asynccontextmanager, suppress
from typing import Any

import pytest
from websockets.asyncio.client import ClientConnection, connect
from websockets.exceptions import ConnectionClosed, InvalidHandshake, InvalidMessage

from agents.web.app import create_app
from tests.helpers.web_server import running

pytestmark = pytest.mark.skipif(sys.platform != "linux", reason="needs all of 127.0.0.0/8")

HOSTILE, OTHER = "127.0.0.1", "127.0.0.2"  # the attacker's address, and another person's
IDLE_SOCKETS = HALF_OPEN = 200
PROBE_SECONDS = 120  # the most any probe here may take


def http_get(base: str, path: str, source: str = OTHER, timeout: float = 10) -> int:
    """The status of ``GET path`` sent from ``source``."""
    port = int(base.rsplit(":", 1)[1])
    with socket.create_connection(("127.0.0.1", port), timeout, (source, 0)) as conn:
        conn.sendall(
            f"GET {path} HTTP/1.1\r\nHost: 127.0.0.1\r\nConnection: close\r\n\r\n".encode()
        )
        head = conn.recv(64)
    return int(head.split()[1])


@asynccontextmanager
async def table(base: str, source: str = OTHER) -> AsyncIterator[ClientConnection]:
    """A WebSocket to the server from ``source``, past its ``hello``."""
    url = base.replace("http://", "ws://") + "/ws"
    async with connect(url, local_addr=(source, 0), open_timeout=10, max_size=2**20) as ws:
        assert json.loads(await ws.recv())["type"] == "hello"
        yield ws


async def ask(ws: ClientConnection, message: dict | str, timeout: float = 30) -> list[dict]:
    """Send a message; the replies up to the last one (an error, a coach or losses reply, or
    a state at the person's turn or the round's end)."""
    await ws.send(message if isinstance(message, str) else json.dumps(message))
    replies: list[dict] = []
    while True:
        reply = json.loads(await asyncio.wait_for(ws.recv(), timeout))
        replies.append(reply)
        if reply["type"] in ("error", "coach", "losses", "frame") or (
            reply["type"] == "state" and (reply["legal"] or reply["summary"])
        ):
            return replies


async def play_round(ws: ClientConnection, game_name: str = "boon") -> tuple[str, list[float]]:
    """Start a game and play its first round to the end; its id and each move's answer time."""
    replies = await ask(ws, {"type": "new", "game_name": game_name})
    game = replies[0]["game"]
    times = []
    for _ in range(200):  # more moves than any round has
        last = replies[-1]
        assert last["type"] == "state", last
        if last["summary"]:
            return game, times
        started = time.monotonic()
        replies = await ask(ws, {"type": "act", "game": game, "action": last["legal"][0]})
        times.append(time.monotonic() - started)
    raise AssertionError("the round did not end")


def no_server_errors(caplog: pytest.LogCaptureFixture) -> None:
    errors = [r for r in caplog.records if r.levelno >= logging.ERROR]
    assert not errors, "\n".join(r.getMessage() for r in errors)


# ------------------------------------------------------------------------------- lock-out
async def hold_idle_sockets(base: str, count: int) -> list[Any]:
    """Up to ``count`` WebSockets from the hostile address that start nothing; returns those
    the server let in (the rest it refused)."""
    url = base.replace("http://", "ws://") + "/ws"
    held = []
    for _ in range(count):
        # One refused at the door raises: the address holds its share.
        with suppress(OSError, InvalidHandshake, InvalidMessage, TimeoutError):
            held.append(await connect(url, local_addr=(HOSTILE, 0), open_timeout=5))
    return held


def hold_half_open(base: str, count: int) -> list[socket.socket]:
    """``count`` TCP connections from the hostile address that send half a request line."""
    port = int(base.rsplit(":", 1)[1])
    sockets = []
    for _ in range(count):
        conn = socket.create_connection(("127.0.0.1", port), 5, (HOSTILE, 0))
        with suppress(OSError):
            conn.sendall(b"GET / HTT")
        sockets.append(conn)
    return sockets


def test_held_sockets_from_one_address_lock_nobody_else_out(caplog):
    caplog.set_level(logging.WARNING)
    app = create_app(seed=31, coach=False, max_games=2, replay_dir=None)

    async def probe(base: str) -> None:
        idle = await hold_idle_sockets(base, IDLE_SOCKETS)
        half_open = await asyncio.to_thread(hold_half_open, base, HALF_OPEN)
        guard = app.state.guard
        try:
            assert guard.open_from(HOSTILE) <= guard.per_address < len(idle) + HALF_OPEN
            for path in ("/", "/rules/boon", "/static/app.js"):
                assert await asyncio.to_thread(http_get, base, path) == 200, path
            async with table(base) as ws:
                _, times = await play_round(ws)
            assert times and max(times) < 5
        finally:
            for ws in idle:
                await ws.close()
            for conn in half_open:
                conn.close()

    with running(app) as base:
        asyncio.run(asyncio.wait_for(probe(base), PROBE_SECONDS))
    no_server_errors(caplog)


def test_half_open_connections_are_closed_after_the_request_timeout():
    app = create_app(seed=32, coach=False, replay_dir=None)
    with running(app) as base:
        app.state.guard.request_timeout = 0.5
        nothing, partial = hold_half_open(base, 2)
        nothing.close()
        nothing = socket.create_connection(("127.0.0.1", int(base.rsplit(":", 1)[1])), 5)
        for conn in (nothing, partial):
            conn.settimeout(10)
            assert conn.recv(1024) == b"", "the server closes it"  # before the 10 s timeout
            conn.close()
        deadline = time.monotonic() + 10
        while len(app.state.guard) and time.monotonic() < deadline:
            time.sleep(0.05)
        assert len(app.state.guard) == 0


def test_an_upgraded_socket_is_counted_until_it_closes():
    app = create_app(seed=33, coach=False, replay_dir=None)

    async def probe(base: str) -> tuple[int, int]:
        async with table(base, HOSTILE):
            during = app.state.guard.open_from(HOSTILE)
        for _ in range(100):
            if not app.state.guard.open_from(HOSTILE):
                break
            await asyncio.sleep(0.05)
        return during, app.state.guard.open_from(HOSTILE)

    with running(app) as base:
        assert asyncio.run(asyncio.wait_for(probe(base), 30)) == (1, 0)


# ---------------------------------------------------------------------------------- stall
def test_the_coachs_costliest_request_from_every_game_stalls_no_other_player(caplog):
    """Every game the server allows (4 addresses x 2) asks for BOYN's round review, the
    coach's costliest request (seconds of CPU each), over and over, while a fifth address
    plays: each of its moves is answered within 1 s."""
    caplog.set_level(logging.WARNING)
    addresses = [f"127.0.0.{k}" for k in range(3, 7)]
    app = create_app(
        game="boyn", opponents=["random"], seed=34, max_games=9, max_games_per_client=2,
        coach_budget=30, replay_dir=None,
    )  # fmt: skip
    replies: list[str] = []

    async def pester(base: str, source: str, stop: asyncio.Event) -> None:
        async with table(base, source) as ws:
            game, _ = await play_round(ws, "boyn")
            while not stop.is_set():
                reply = (await ask(ws, {"type": "losses", "game": game}, timeout=60))[-1]
                replies.append(reply["type"] if reply["type"] == "losses" else reply["error"])
                await asyncio.sleep(0.05)

    async def probe(base: str) -> list[float]:
        stop = asyncio.Event()
        pests = [asyncio.create_task(pester(base, a, stop)) for a in addresses for _ in (0, 1)]
        await asyncio.sleep(3)  # their rounds are over: the reviews are asked for
        times: list[float] = []
        async with table(base) as ws:
            for _ in range(3):
                times += (await play_round(ws, "boyn"))[1]
        stop.set()
        for pest in pests:
            pest.cancel()
        await asyncio.gather(*pests, return_exceptions=True)
        return times

    with running(app) as base:
        times = asyncio.run(asyncio.wait_for(probe(base), PROBE_SECONDS))
        app.state.server.coaching.close()
    assert replies, "the coach was never asked"
    assert all(r in ("losses",) or "coach is busy" in r or "used its" in r for r in replies)
    assert times and max(times) < 1.0, f"slowest move {max(times):.2f} s"
    no_server_errors(caplog)


# ------------------------------------------------------------------------ malformed messages
MESSAGE_KINDS = ("new", "join", "act", "next", "coach", "losses", "frame")
BAD_VALUES = [None, True, -1, 2**70, -(2**70), 1.5, "", "x" * 300, [], {}, ["new"], {"a": 1}]


def malformed(kind: str, game: str, count: int) -> list[str]:
    """``count`` malformed or refused messages of ``kind``: each field given every odd value,
    unknown fields, missing ones, a non-string type, broken JSON, deep nesting."""
    fields = {
        "new": ["game_name", "players", "opponents", "coach", "seed"],
        "join": ["game"], "act": ["game", "action"], "next": ["game"],
        "coach": ["game", "search"], "losses": ["game"], "frame": ["round", "step"],
    }[kind]  # fmt: skip
    base = {"type": kind, **{f: game for f in fields if f == "game"}}
    messages = [json.dumps({**base, f: v}) for f in fields for v in BAD_VALUES]
    messages += [json.dumps({**base, "extra": v}) for v in BAD_VALUES]
    messages += [json.dumps({"type": [kind]}), json.dumps({"type": {kind: 1}})]
    messages += [json.dumps({**base, f: "unknown-" + "x" * k}) for f in fields for k in range(9)]
    messages += [
        json.dumps(base)[:-1],
        "[" * 40 + "]" * 40,
        json.dumps({**base, fields[0]: [[[[1]]]]}),
        json.dumps(base).replace(kind, kind.upper()),
        json.dumps({"type": kind, "game": game, "action": "pick", "players": 3}),
    ]
    return (messages * (count // len(messages) + 1))[:count]


def test_a_hundred_malformed_messages_of_each_kind_lose_nothing(caplog):
    caplog.set_level(logging.WARNING)
    app = create_app(seed=35, replay_dir=None)

    async def probe(base: str) -> None:
        async with table(base) as ws:
            game, _ = await play_round(ws)
            for kind in MESSAGE_KINDS:
                for message in malformed(kind, game, 100):
                    reply = (await ask(ws, message))[-1]
                    if reply["type"] == "error":
                        assert "internal error" not in reply["error"], (message, reply)
                        assert "\n" not in reply["error"]
                    else:  # a valid request after all: answered, or a new game started
                        assert reply["type"] in ("state", "coach", "losses"), (message, reply)
                        if reply.get("game") != game:
                            game = reply["game"]
                joined = await ask(ws, {"type": "join", "game": game})
                assert joined[0]["type"] == "joined", (kind, joined)
        assert len(app.state.server.games) == 1, "a game was lost or leaked"

    with running(app) as base:
        asyncio.run(asyncio.wait_for(probe(base), PROBE_SECONDS))
    no_server_errors(caplog)


def test_binary_and_oversized_frames_are_refused_and_the_game_kept():
    app = create_app(seed=36, coach=False, replay_dir=None)

    async def probe(base: str) -> None:
        async with table(base) as ws:
            game, _ = await play_round(ws)
            for frame in (b"\x00" * 10, b"{}", "x" * 2000, "\u00e9" * 600):
                await ws.send(frame)
                reply = json.loads(await asyncio.wait_for(ws.recv(), 10))
                assert reply["type"] == "error" and "internal" not in reply["error"]
            assert (await ask(ws, {"type": "join", "game": game}))[0]["type"] == "joined"
        with suppress(ConnectionClosed):
            async with table(base) as ws:
                await ws.send("x" * 100_000)  # over the frame limit: the connection closes
                await asyncio.wait_for(ws.recv(), 10)
        async with table(base) as ws:
            assert (await ask(ws, {"type": "join", "game": game}))[0]["type"] == "joined"

    with running(app) as base:
        asyncio.run(asyncio.wait_for(probe(base), PROBE_SECONDS))
