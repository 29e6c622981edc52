"""The WebSocket protocol (``docs/web.md``): a ``hello``, then a reply to every client message,
in order. The server is the authority: each client message is size-limited, parsed and checked
(:func:`parse_message`) before anything changes, a refused one changes nothing and gets an
``error`` reply, and a client only ever receives what :mod:`agents.web.session` shows the
person's seat."""

from __future__ import annotations

import asyncio
import contextlib
import json
import logging
from collections.abc import Callable
from dataclasses import dataclass
from functools import partial
from typing import Any

import anyio.to_thread
from starlette.types import Message
from starlette.websockets import WebSocket, WebSocketDisconnect

from agents.games.web import WebGame
from agents.untrusted import nesting
from agents.web.security import same_origin
from agents.web.server import Server
from agents.web.session import RefusedError
from agents.web.store import ClientError, Entry

# The largest client message accepted: every valid one is well under 200 bytes.
MAX_MESSAGE_BYTES = 1024
# Deepest nesting of arrays and objects accepted: every valid message is one flat object.
# Deeper ones are refused before parsing, as json.loads recurses once per level and a 1 KiB
# message would reach Python's recursion limit.
MAX_NESTING = 2
# Fields each client message type carries (besides "type"); anything else is malformed.
_FIELDS: dict[str, dict[str, tuple[type, ...]]] = {
    "new": {
        "game_name": (str,),
        "players": (int,),
        "opponents": (str,),
        "coach": (bool,),
        "seed": (int,),
    },
    "join": {"game": (str,)},
    "act": {"game": (str,), "action": (str,)},
    "next": {"game": (str,)},
    "coach": {"game": (str,), "search": (bool,)},
    "losses": {"game": (str,)},
    "frame": {"round": (int,), "step": (int,)},
}
_OPTIONAL = frozenset({"search", "game_name", "players", "opponents", "coach", "seed"})
MAX_SEED = 2**32 - 1
_log = logging.getLogger(__name__)


def parse_message(text: str | None, data: bytes | None = None) -> dict[str, Any]:
    """A client message checked for size, JSON syntax, type and fields.

    Raises:
        ClientError: naming what is wrong.
    """
    if text is None:
        size = len(data or b"")
        if size > MAX_MESSAGE_BYTES:
            raise ClientError(f"message too large ({size} bytes; the limit is {MAX_MESSAGE_BYTES})")
        raise ClientError("messages must be JSON text, not binary")
    size = len(text.encode("utf-8", "replace"))
    if size > MAX_MESSAGE_BYTES:
        raise ClientError(f"message too large ({size} bytes; the limit is {MAX_MESSAGE_BYTES})")
    if nesting(text) > MAX_NESTING:
        raise ClientError(f"malformed message: nested deeper than {MAX_NESTING} levels")
    try:
        request = json.loads(text)
    except json.JSONDecodeError as error:
        raise ClientError(f"malformed message: not JSON ({error.msg})") from None
    kind = request.get("type") if isinstance(request, dict) else None
    if not isinstance(kind, str) or kind not in _FIELDS:
        raise ClientError(f"malformed message: 'type' must be one of {', '.join(_FIELDS)}")
    fields = _FIELDS[request["type"]]
    for name, value in request.items():
        if name == "type":
            continue
        if name not in fields:
            raise ClientError(f"malformed message: unexpected field {name!r:.40}")
        if not isinstance(value, fields[name]) or (
            isinstance(value, bool) and bool not in fields[name]
        ):
            raise ClientError(f"malformed message: {name!r} has the wrong type")
    missing = [name for name in fields if name not in request and name not in _OPTIONAL]
    if missing:
        raise ClientError(f"malformed message: {request['type']!r} needs {', '.join(missing)}")
    return request


# ---------------------------------------------------------------------------------- protocol
async def play_socket(server: Server, websocket: WebSocket) -> None:
    """One connection: ``hello``, then a reply to every client message, in order."""
    if not same_origin(websocket):
        await websocket.close(code=1008)  # another site's page may not drive a local game
        return
    await websocket.accept()
    await websocket.send_json(server.hello())
    tab = _Tab(websocket.client.host if websocket.client else "")
    try:
        await _serve_tab(server, websocket, tab)
    finally:
        server.games.hold(tab.game, False)  # a closed tab's game no longer counts as held


@dataclass
class _Tab:
    """One connection's state: its client's address, the game it started or joined last, and
    whether it started or joined one, or asked for a replay's frame."""

    owner: str
    game: str | None = None
    started: bool = False


async def _serve_tab(server: Server, websocket: WebSocket, tab: _Tab) -> None:
    loop = asyncio.get_running_loop()
    start_by = loop.time() + server.start_timeout
    while True:
        # A connection that starts nothing, or then stays silent until its game would be
        # dropped, holds one of the server's bounded connections for nobody: close it.
        timeout = server.games.idle_timeout if tab.started else start_by - loop.time()
        try:
            message = await asyncio.wait_for(websocket.receive(), timeout)
        except TimeoutError:
            why = (
                f"no message for {timeout:g} s"
                if tab.started
                else f"no game started within {server.start_timeout:g} s"
            )
            error = f"connection closed: {why}; reload the page to go on"
            with contextlib.suppress(WebSocketDisconnect):
                await websocket.send_json({"type": "error", "error": error})
                await websocket.close(code=1000)
            return
        if message["type"] == "websocket.disconnect":
            return
        replies = await _reply(server, message, tab)
        try:
            for reply in replies:
                await websocket.send_json(reply)
        except WebSocketDisconnect:
            return  # the tab closed while its replies were being prepared


async def _reply(server: Server, message: Message, tab: _Tab) -> list[dict[str, Any]]:
    """The replies to one client message; a refused one changes nothing."""
    try:
        request = parse_message(message.get("text"), message.get("bytes"))
        replies = await _handle(server, request, tab.owner, tab.game)
    except ClientError as error:
        return [{"type": "error", "error": str(error)}]
    except Exception:
        _log.exception("error while handling a message")
        return [{"type": "error", "error": "internal error (the server's log has it)"}]
    if replies[0]["type"] == "joined" and replies[0]["game"] != tab.game:
        server.games.hold(tab.game, False)
        tab.game = replies[0]["game"]
        server.games.hold(tab.game, True)
    tab.started |= replies[0]["type"] in ("joined", "frame")
    return replies


async def _handle(
    server: Server, request: dict[str, Any], owner: str, current: str | None = None
) -> list[dict[str, Any]]:
    """The replies to a parsed request from ``owner``'s tab playing ``current``."""
    kind = request["type"]
    if kind == "frame":
        return [_frame(server, request["round"], request["step"])]
    if server.replay is not None:
        raise ClientError("this server shows a replay; games cannot be played on it")
    if kind == "new":
        return await _new_game(server, request, owner, current)
    game_id = request["game"]
    entry = server.games.get(game_id)
    async with entry.lock:  # one move at a time per game, whichever connection sends it
        session = entry.session
        if kind == "join":
            return [_joined(game_id, entry), _tagged(game_id, [session.message()])[0]]
        if kind in ("coach", "losses"):
            return [await _coached(server, entry, owner, game_id, request)]
        if kind == "act":
            action = _parsed_action(session.web, request["action"])
            replies = _tagged(game_id, await _run(session.act, action))
        else:
            replies = _tagged(game_id, await _run(session.next_round))
        server.save(game_id, entry)
        return replies


async def _coached(
    server: Server, entry: Entry, owner: str, game_id: str, request: dict[str, Any]
) -> dict[str, Any]:
    """The reply to a ``coach`` or ``losses`` request, worked out by the server's coach."""
    if not server.coach:
        raise ClientError("the coach is off on this server")
    session = entry.session
    if request["type"] == "losses":
        # The review of the last finished round: the same until another round ends.
        key: tuple = ("losses", len(session.records))
        answer = await server.coaching.run(entry, owner, key, session.round_review)
        return {"type": "losses", "game": game_id, **answer}
    search = bool(request.get("search"))
    policy = server.policy(session.web.name, session.num_players)
    key = ("coach", session.decisions, search)  # advice on this decision of the person's
    advice = await server.coaching.run(entry, owner, key, partial(session.coach, policy, search))
    return {"type": "coach", "game": game_id, **advice}


async def _new_game(
    server: Server, request: dict[str, Any], owner: str, current: str | None
) -> list[dict[str, Any]]:
    """Start the game a ``new`` message asks for, in place of the tab's ``current`` game: only
    once every check has passed is that one dropped (a refused ``new`` changes nothing)."""
    choice = server.choice(request)
    seed = request.get("seed")
    if seed is not None and not 0 <= seed <= MAX_SEED:
        raise ClientError(f"seed must be 0-{MAX_SEED}")
    server.games.admit(owner, current)  # before building the game: some opponents load a model
    session = await anyio.to_thread.run_sync(server.new_session, choice, seed)
    game_id = server.games.add(session, owner, current)
    entry = server.games.get(game_id)
    entry.coach = server.coach and request.get("coach", False)
    async with entry.lock:
        opening = await anyio.to_thread.run_sync(session.start)
    server.save(game_id, entry)
    return [_joined(game_id, entry), *_tagged(game_id, opening)]


async def _run(method: Callable[..., Any], *args: Any) -> Any:
    """Run a session method (agents think there) off the event loop; what the session refuses
    is the client's mistake (and left the game unchanged)."""
    try:
        return await anyio.to_thread.run_sync(method, *args)
    except RefusedError as error:
        raise ClientError(str(error)) from None


def _parsed_action(web: WebGame, text: str) -> int:
    try:
        return web.parse_action(text)
    except ValueError as error:
        raise ClientError(str(error)) from None


def _joined(game_id: str, entry: Entry) -> dict[str, Any]:
    """Which game this is: its id, and what the page's setup chose."""
    session = entry.session
    return {
        "type": "joined",
        "game": game_id,
        "game_name": session.web.name,
        "players": session.num_players,
        "seats": session.seats,
        "coach": entry.coach,
    }


def _tagged(game_id: str, messages: list[dict[str, Any]]) -> list[dict[str, Any]]:
    return [{**message, "game": game_id} for message in messages]


def _frame(server: Server, index: int, step: int) -> dict[str, Any]:
    if server.replay is None:
        raise ClientError("this server plays games; it has no replay to show")
    rounds = server.replay
    if not 0 <= index < len(rounds):
        raise ClientError(f"round must be 0-{len(rounds) - 1}, got {index}")
    recorded = rounds[index]
    try:
        frame = recorded.frame(step)
    except RefusedError as error:
        raise ClientError(str(error)) from None
    return {
        "type": "frame",
        "round": index,
        "rounds": len(rounds),
        "step": step,
        "steps": len(recorded.actions),
        "seats": list(recorded.seats),
        "game_name": recorded.web.name,
        "deal_index": recorded.deal_index,
        "rotation": recorded.rotation,
        **frame,
    }
