"""The server's addresses: the page, each game's rules panel, the page's own files and the
WebSocket (:mod:`agents.web.protocol`). No request names a file: ``/rules/GAME`` takes a served
game's name."""

from __future__ import annotations

from pathlib import Path

from starlette.requests import Request
from starlette.responses import FileResponse, JSONResponse, PlainTextResponse, Response
from starlette.routing import BaseRoute, Mount, Route, WebSocketRoute
from starlette.staticfiles import StaticFiles
from starlette.websockets import WebSocket

from agents.registry import game_spec
from agents.web.protocol import play_socket
from agents.web.server import Server

STATIC = Path(__file__).parent / "static"


def routes(server: Server) -> list[BaseRoute]:
    """The routes of ``server``'s app."""

    async def socket_route(websocket: WebSocket) -> None:
        await play_socket(server, websocket)

    async def rules_route(request: Request) -> Response:
        return _rules(server, request.path_params["game"])

    return [
        Route("/", _index),
        Route("/rules/{game}", rules_route),
        WebSocketRoute("/ws", socket_route),
        Mount("/static", StaticFiles(directory=STATIC), name="static"),
    ]


def _rules(server: Server, game: str) -> Response:
    """A game's rules panel: its rules section of the docs, as Markdown in JSON."""
    web = server.webs.get(game)
    if web is None:
        return PlainTextResponse("no such game", status_code=404)
    return JSONResponse(
        {"game": game, "title": game_spec(web.name).title, "markdown": web.rules.markdown()}
    )


async def _index(request: Request) -> Response:
    return FileResponse(STATIC / "index.html")
