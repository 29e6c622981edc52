"""One uvicorn server on 127.0.0.1 serves 20 games at once against heuristic opponents, over
real WebSocket connections, without errors or cross-talk. Bounded in time; loopback only."""

from __future__ import annotations

import asyncio
import json

from web_server import running
from websockets.asyncio.client import connect
from websockets.exceptions import ConnectionClosed

from agents.web.app import create_app

GAMES = 20
ROUNDS = 2  # per game (fewer if the game ends sooner)
TIME_LIMIT = 240.0  # seconds for everything; the run takes a few seconds when the machine is idle


async def play(url: str, rounds: int) -> dict:
    """Play ``rounds`` rounds of one game; check every message belongs to it."""
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
                    return {"game": game, "rounds": played, "moves": moves, "last": last}
                request = {"type": "next", "game": game}
            else:
                request = {"type": "act", "game": game, "action": last["legal"][0]}
                moves += 1


async def play_all(url: str) -> list[dict]:
    return await asyncio.wait_for(
        asyncio.gather(*(play(url, ROUNDS) for _ in range(GAMES))), TIME_LIMIT
    )


def test_twenty_concurrent_games_on_one_server():
    app = create_app(
        4, ["heuristic"], seed=20, coach=False, max_games=GAMES, max_games_per_client=GAMES
    )
    with running(app, max_games=GAMES) as base:
        results = asyncio.run(play_all(base.replace("http://", "ws://") + "/ws"))
        assert len({result["game"] for result in results}) == GAMES
        assert all(result["rounds"] >= 1 and result["moves"] > 0 for result in results)
        assert len(app.state.server.games) == GAMES
        for result in results:  # each client ends where its own game on the server stands
            session = app.state.server.games.get(result["game"]).session
            assert session.message()["table"] == result["last"]["table"]


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
