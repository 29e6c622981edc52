"""The web table: a Starlette app serving the page and one WebSocket protocol (``docs/web.md``),
and its start-up.

:func:`create_app` builds the app for one server: every game is a
:class:`~agents.web.session.GameSession` of any game served in the browser (the registry's
games with a ``web`` entry), against the opponents named on the command line or chosen in the
page, or, with ``replay``, the viewer of a recorded file of any of them. Nothing here names a
game. The package is split by role: the games served (:mod:`~agents.web.catalog`), the open
games (:mod:`~agents.web.store`), the coach's thread (:mod:`~agents.web.coach`), what the
handlers share (:mod:`~agents.web.server`), the WebSocket protocol
(:mod:`~agents.web.protocol`), the addresses (:mod:`~agents.web.routes`), the checks and limits
on clients (:mod:`~agents.web.security`) and the command line's options
(:mod:`~agents.web.start`). :func:`open_table` readies the table that ``boon serve`` serves;
:func:`run` serves an app under uvicorn, on a socket from :func:`listen`.
"""

from __future__ import annotations

import asyncio
import contextlib
import math
import socket
from collections.abc import AsyncIterator, Sequence
from dataclasses import dataclass
from functools import partial
from pathlib import Path
from typing import Any

from starlette.applications import Starlette
from starlette.middleware import Middleware

from agents.games.web import WebGame
from agents.registry import game_spec
from agents.specs import make_agent
from agents.web.catalog import web_games
from agents.web.coach import DEFAULT_COACH_BUDGET, Coach
from agents.web.protocol import MAX_MESSAGE_BYTES
from agents.web.replay import load_replay
from agents.web.routes import routes
from agents.web.security import (
    LOOPBACK_HOSTS,
    HostCheck,
    SecurityHeaders,
    guard_for,
    host_names,
)
from agents.web.server import Choice, Server
from agents.web.store import Games, sweep


def create_app(
    players: int | None = None,
    opponents: Sequence[str] = ("heuristic",),
    replay: str | Path | None = None,
    *,
    game: str | None = None,
    seed: int | None = None,
    start_timeout: float = 60.0,
    idle_timeout: float = 300.0,
    max_games: int = 64,
    max_games_per_client: int = 8,
    coach: bool = True,
    coach_model: str | Path | None = None,
    replay_dir: str | Path | None = None,
    allowed_hosts: Sequence[str] = LOOPBACK_HOSTS,
    coach_budget: float = DEFAULT_COACH_BUDGET,
) -> Starlette:
    """The web table app.

    Args:
        players: seats at the default game's table (``None``: the game's default); the
            person sits at seat 0.
        opponents: one agent spec for every other seat, or one per seat.
        replay: a ``boon arena --save`` file to show instead of playing (read once, here).
        game: the game the page starts with (``None``: the registry's default), or the game
            of the ``replay`` file (``None``: the game its deals show).
        seed: seed of the deals and agents (``None``: fresh games every time).
        start_timeout: seconds a connection may take to start or join a game (or, for a
            replay, to ask for a frame) before it is closed.
        idle_timeout: seconds without a message after which a game is dropped, and its
            connection closed.
        max_games: games open at once; a new game beyond it is refused.
        max_games_per_client: games open at once started from one client address; a new
            game beyond it is refused.
        coach: whether the person may ask the coach for advice (each move's expected value
            by the game's evaluator of decisions, with the expert's budget, and a shipped
            model's probabilities where one ships) and for the points each seat lost per
            decision in a finished round.
        coach_model: the model whose probabilities the coach shows for the default game;
            ``None``: the shipped model for the game and table size, if one ships.
        replay_dir: where every game's finished rounds are saved, one ``boon arena --save``
            file per game (``None``: nowhere).
        allowed_hosts: host names the page may be reached by (``"*"``: any), which keeps
            other web sites from reaching a local server by DNS rebinding.
        coach_budget: CPU seconds the coach may think about each game, in all; a question
            beyond it is refused. The coach thinks in a thread of its own, one question per
            client address and a few in all at a time, and answers a repeated one from memory.

    Raises:
        ValueError: a bad game, table size, agent spec or limit, or an unreadable replay file
            (one line).
    """
    for name, seconds in (("start_timeout", start_timeout), ("coach_budget", coach_budget)):
        if not 0 < seconds < math.inf:
            raise ValueError(f"{name} must be a finite number of seconds > 0, got {seconds}")
    webs = web_games()
    rounds = load_replay(replay, game) if replay is not None else None
    server = Server(
        webs,
        _default_choice(webs, game, players, opponents),
        rounds,
        Games(max_games, idle_timeout, max_games_per_client),
        start_timeout,
        seed,
        coach,
        coach_model,
        None if replay_dir is None else Path(replay_dir),
        Coach(coach_budget),
    )
    app = Starlette(
        routes=routes(server),
        middleware=[
            Middleware(HostCheck, allowed_hosts=allowed_hosts),
            Middleware(SecurityHeaders),
        ],
        lifespan=partial(_lifespan, server),
    )
    app.state.server = server
    return app


def _default_choice(
    webs: dict[str, WebGame], game: str | None, players: int | None, opponents: Sequence[str]
) -> Choice:
    """The game the page starts with, checked: a served game, a table size it allows, and
    one good agent spec for every opponent, or one per opponent.

    Raises:
        ValueError: naming what is wrong.
    """
    name = game or next(iter(webs))
    if name not in webs:
        raise ValueError(f"{name} is not served in the browser; these are: {', '.join(webs)}")
    spec = game_spec(webs[name].name)
    players = spec.default_players if players is None else players
    spec.check_players(players)
    specs = list(opponents)
    if len(specs) == 1:
        specs *= players - 1
    if len(specs) != players - 1:
        raise ValueError(
            f"opponents takes 1 spec or {players - 1} (one per opponent), got {len(specs)}"
        )
    for agent_spec in dict.fromkeys(specs):
        make_agent(agent_spec, num_players=players, game=name)  # a bad spec is an error now
    return Choice(name, players, tuple(specs))


@contextlib.asynccontextmanager
async def _lifespan(server: Server, app: Starlette) -> AsyncIterator[None]:
    sweeper = asyncio.create_task(sweep(server.games))
    try:
        yield
    finally:
        sweeper.cancel()
        server.coaching.close()


# ------------------------------------------------------------------------------------ start-up
@dataclass
class Table:
    """A web table ready to serve: its app, the socket it listens on, and what to tell the
    person who started it (where it is, and what anyone who reaches it may do)."""

    app: Starlette
    listener: socket.socket
    notes: list[str]

    def serve(self) -> None:
        """Print the notes, then serve until interrupted (Ctrl+C); the socket is closed then."""
        for line in self.notes:
            print(line, flush=True)
        run(self.app, self.listener)


def open_table(
    host: str = "127.0.0.1",
    port: int = 8000,
    *,
    replay: str | Path | None = None,
    replay_dir: str | Path | None = None,
    **settings: Any,
) -> Table:
    """The web table of ``boon serve``, listening on ``host``:``port`` (``port`` 0: any free
    port): :func:`create_app` with ``replay``, ``replay_dir`` and ``settings`` (its other
    keyword arguments but ``allowed_hosts``, which follows from ``host``: :func:`host_names`).

    Raises:
        ValueError: a bad setting, replay file or address, in one line; nothing is served.
    """
    names = host_names(host)
    replay_dir = replay_dir or None  # '' (the command line's "save nothing") is no folder
    app = create_app(replay=replay, replay_dir=replay_dir, allowed_hosts=names, **settings)
    listener = listen(host, port)
    title = game_spec(app.state.server.default.game).title
    what = f"replay of {replay}" if replay else f"{title} table"
    notes = [f"{what} at {url_of(listener)} (Ctrl+C to stop)"]
    if replay_dir and not replay:
        notes.append(f"finished rounds are saved in {replay_dir}")
    if "*" in names:
        notes.append(f"warning: listening on {host}: anyone who can reach it can use this table")
    return Table(app, listener, notes)


def url_of(listener: socket.socket) -> str:
    """The address to open in a browser for a listening socket."""
    host, port = listener.getsockname()[:2]
    return f"http://{f'[{host}]' if ':' in host else host}:{port}/"


def run(app: Starlette, listener: socket.socket) -> None:
    """Serve ``app`` on ``listener`` until interrupted (Ctrl+C), then close the socket."""
    with listener:
        uvicorn_server(app).run(sockets=[listener])


def uvicorn_server(app: Starlette) -> Any:
    """The ``uvicorn.Server`` that runs ``app``: quiet, with WebSocket frames bounded (frames
    over ``MAX_MESSAGE_BYTES`` but within the frame limit get an error reply from the app;
    larger ones close the connection) and every connection kept to the limits of
    :func:`~agents.web.security.guard_for` its games (``app.state.guard``)."""
    import uvicorn

    guard = app.state.guard = guard_for(app.state.server.games)
    http, ws = guard.protocols()
    config = uvicorn.Config(
        app,
        log_level="warning",
        access_log=False,
        ws_max_size=64 * MAX_MESSAGE_BYTES,
        http=http,
        ws=ws,
    )
    return uvicorn.Server(config)


def listen(host: str, port: int) -> socket.socket:
    """A listening socket on ``host``:``port`` (``port`` 0: any free port).

    Raises:
        ValueError: the address cannot be listened on, with the reason.
    """
    if not 0 <= port <= 65535:
        raise ValueError(f"port must be 0-65535, got {port}")
    try:
        infos = socket.getaddrinfo(host, port, type=socket.SOCK_STREAM, flags=socket.AI_PASSIVE)
        family, kind, proto, _, address = infos[0]
        listener = socket.socket(family, kind, proto)
    except OSError as error:
        raise ValueError(f"cannot listen on {host}:{port}: {error.strerror or error}") from None
    try:
        listener.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
        listener.bind(address)
        listener.listen(128)
    except OSError as error:
        listener.close()
        raise ValueError(f"cannot listen on {host}:{port}: {error.strerror or error}") from None
    return listener
