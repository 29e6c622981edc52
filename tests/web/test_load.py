"""One uvicorn server on 127.0.0.1 serves 50 games at once against heuristic opponents, over
real WebSocket connections, without errors or cross-talk, and frees them all once they are
idle: its memory comes back. Bounded in games and time; loopback only."""

from __future__ import annotations

import asyncio
import gc
import json
import logging
import os
import time
import weakref
from pathlib import Path

from websockets.asyncio.client import connect
from websockets.exceptions import ConnectionClosed

from agents.web.app import create_app
from agents.web.session import GameSession
from tests.helpers.web_server import running

GAMES = 50
ROUNDS = 2  # per game (fewer if the game ends sooner)
IDLE_TIMEOUT = 5.0  # seconds: finished games are freed this long after their last message
TIME_LIMIT = 60.0  # seconds per batch of games; one takes about a second on an idle machine
# Allowed growth of the resident memory over a second batch of games, once they are freed: the
# first batch fills the thread pool and bounded caches (about 12 MB); a batch's games hold
# under 1 MB, so this catches what grows with the traffic (buffers, connections), while the
# weak references below catch any game kept alive.
RSS_MARGIN = 16 * 2**20


async def play(url: str, rounds: int) -> dict:
    """Play ``rounds`` rounds of one game; check every message belongs to it, and that the
    server's game ends where the client's view of it does."""
    async with connect(url, max_size=2**20) as websocket:
        hello = json.loads(await websocket.recv())
        assert hello["type"] == "hello"
        game = None
        played = 0
        moves = 0
        request: dict = {"type": "new"}
        while True:
            await websocket.send(json.dumps(request))
            last = None
            while last is None or not (last["legal"] or last["summary"]):
                message = json.loads(await websocket.recv())
                assert message["type"] in ("joined", "state"), message
                if message["type"] == "joined":
                    game = message["game"]
                    continue
                assert message["game"] == game, "a message of another game"
                assert message["table"]["hands"][1:] == [None] * 3, "another seat's hand"
                hand = message["table"]["hands"][0]
                if last is not None and message["table"]["phase"] == "play":
                    assert set(hand) <= set(last["table"]["hands"][0]), "hand grew in play"
                last = message
            if last["summary"]:
                played += 1
                if played == rounds or last["game_over"]:
                    break
                request = {"type": "next", "game": game}
            else:
                request = {"type": "act", "game": game, "action": last["legal"][0]}
                moves += 1
        await websocket.send(json.dumps({"type": "join", "game": game}))
        joined, state = [json.loads(await websocket.recv()) for _ in range(2)]
        assert joined["type"] == "joined" and joined["game"] == game
        assert state["table"] == last["table"], "the server's game is not where the client is"
        return {"game": game, "rounds": played, "moves": moves}


async def play_all(url: str) -> list[dict]:
    return await asyncio.wait_for(
        asyncio.gather(*(play(url, ROUNDS) for _ in range(GAMES))), TIME_LIMIT
    )


def resident_bytes() -> int:
    """This process's resident memory: the server runs in it, in a thread."""
    pages = int(Path("/proc/self/statm").read_text().split()[1])
    return pages * os.sysconf("SC_PAGE_SIZE")


def wait_until_freed(app) -> None:
    deadline = time.monotonic() + IDLE_TIMEOUT + 30
    while len(app.state.server.games) and time.monotonic() < deadline:
        time.sleep(0.05)  # the app's sweeper drops each game as it expires
    assert len(app.state.server.games) == 0
    gc.collect()


def test_fifty_concurrent_games_end_without_errors_and_are_freed(caplog):
    caplog.set_level(logging.WARNING)
    app = create_app(
        4,
        ["heuristic"],
        seed=20,
        coach=False,
        idle_timeout=IDLE_TIMEOUT,
        max_games=GAMES,
        max_games_per_client=GAMES,  # every client here has the address 127.0.0.1
    )
    server = app.state.server
    sessions: list[weakref.ref[GameSession]] = []
    new_session = server.new_session

    def recorded_session(*args: object) -> GameSession:
        session = new_session(*args)
        sessions.append(weakref.ref(session))
        return session

    server.new_session = recorded_session
    with running(app) as base:
        url = base.replace("http://", "ws://") + "/ws"
        asyncio.run(play_all(url))  # the first batch fills the thread pool and the caches
        wait_until_freed(app)
        before = resident_bytes()
        del sessions[:]
        results = asyncio.run(play_all(url))
        assert len({result["game"] for result in results}) == GAMES == len(sessions)
        assert all(result["rounds"] >= 1 and result["moves"] > 0 for result in results)
        wait_until_freed(app)
        assert [ref for ref in sessions if ref() is not None] == [], "games kept alive"
        growth = resident_bytes() - before
        assert growth < RSS_MARGIN, f"resident memory grew {growth / 2**20:.1f} MB"
    assert not [r for r in caplog.records if r.levelno >= logging.WARNING], caplog.text


def test_a_real_server_bounds_message_sizes():
    """Over 1 KiB: an error reply, the connection stays; over 64 KiB: uvicorn closes it."""

    async def probe(url: str) -> tuple[dict, dict, int | None]:
        async with connect(url, max_size=2**20) as websocket:
            await websocket.recv()  # hello
            await websocket.send("x" * 2000)
            too_large = json.loads(await websocket.recv())
            await websocket.send(json.dumps({"type": "new"}))
            joined = json.loads(await websocket.recv())
            await websocket.send("x" * 100_000)
            try:
                while True:
                    await websocket.recv()
            except ConnectionClosed as closed:
                return too_large, joined, closed.rcvd.code if closed.rcvd else None

    app = create_app(seed=21, coach=False)
    with running(app) as base:
        url = base.replace("http://", "ws://") + "/ws"
        too_large, joined, code = asyncio.run(asyncio.wait_for(probe(url), 60))
    assert too_large["type"] == "error" and "message too large" in too_large["error"]
    assert joined["type"] == "joined"
    assert code == 1009  # "message too big"
