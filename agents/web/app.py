"""The web table: a Starlette app serving the page and one WebSocket protocol (``docs/web.md``).

:func:`create_app` builds the app for one server: every game is a
:class:`~agents.web.session.GameSession` of any game served in the browser (the registry's
games with a ``web`` entry), against the opponents named on the command line or chosen in the
page, or, with ``replay``, the viewer of a recorded file of any of them. Nothing here names a
game. The server is the authority: each client message
is size-limited, parsed and checked against the game before anything changes, and a client only
ever receives what :mod:`agents.web.session` shows the person's seat. :func:`run` serves it under
uvicorn.
"""

from __future__ import annotations

import asyncio
import contextlib
import ipaddress
import json
import logging
import math
import re
import secrets
import socket
import threading
import time
from collections import Counter
from collections.abc import AsyncIterator, Callable, Sequence
from dataclasses import dataclass, field
from functools import partial
from pathlib import Path
from queue import SimpleQueue
from typing import Any
from urllib.parse import urlsplit

import anyio.to_thread
import numpy as np
from starlette.applications import Starlette
from starlette.datastructures import Headers
from starlette.middleware import Middleware
from starlette.requests import Request
from starlette.responses import FileResponse, JSONResponse, PlainTextResponse, Response
from starlette.routing import Mount, Route, WebSocketRoute
from starlette.staticfiles import StaticFiles
from starlette.types import ASGIApp, Message, Receive, Scope, Send
from starlette.websockets import WebSocket, WebSocketDisconnect

from agents.games import game_spec
from agents.games.web import WebGame
from agents.players.policy import ModelFileError, NumpyPolicy
from agents.players.trained import default_model
from agents.specs import make_agent
from agents.untrusted import nesting
from agents.web.games import web_games
from agents.web.guard import ConnectionGuard
from agents.web.replay import RecordedRound, load_replay
from agents.web.session import GameSession, RefusedError, load_coach_policy

STATIC = Path(__file__).parent / "static"
# The largest client message accepted: every valid one is well under 200 bytes.
MAX_MESSAGE_BYTES = 1024
# Deepest nesting of arrays and objects accepted: every valid message is one flat object.
# Deeper ones are refused before parsing, as json.loads recurses once per level and a 1 KiB
# message would reach Python's recursion limit.
MAX_NESTING = 2
LOOPBACK_HOSTS = ("127.0.0.1", "localhost", "::1")
# A Host header: a name or IPv4 address, or an IPv6 address in brackets, then maybe a port.
_HOST_HEADER = re.compile(
    r"(?:\[(?P<ipv6>[0-9A-Fa-f:.]+)\]|(?P<name>[A-Za-z0-9.-]+))(?::(?P<port>\d{1,5}))?"
)
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
# The opponents the page offers for every game, besides those named on the command line.
OPPONENT_CHOICES = ("heuristic", "random")
MAX_SEED = 2**32 - 1
DEFAULT_COACH_BUDGET = 120.0  # CPU seconds per game: eight BOYN round reviews
_log = logging.getLogger(__name__)


class ClientError(ValueError):
    """A client message the server refuses; its text is sent back as the error reply."""


@dataclass
class _Entry:
    session: GameSession
    owner: str
    last_used: float
    lock: asyncio.Lock = field(default_factory=asyncio.Lock)
    coach: bool = False  # the person turned the coach on in the page's setup (the page's box)
    saved: int = 0  # finished rounds written to the replay file
    tabs: int = 0  # connections playing it now (a reload resumes a game no tab holds)
    coach_seconds: float = 0.0  # CPU seconds the coach spent on this game
    coached: dict[tuple, Any] = field(default_factory=dict)  # its answers, by question
    replay_file: Path | None = None


class Games:
    """The open games, keyed by unguessable ids: at most ``max_games``, at most
    ``max_per_client`` of them started by one client (``None``: no such limit), each dropped
    once it has been idle (no message) for ``idle_timeout`` seconds."""

    def __init__(
        self,
        max_games: int,
        idle_timeout: float,
        max_per_client: int | None = None,
        clock: Callable[[], float] = time.monotonic,
    ) -> None:
        self.max_per_client = max_games if max_per_client is None else max_per_client
        if max_games < 1 or self.max_per_client < 1 or not 0 < idle_timeout < math.inf:
            raise ValueError(
                "max_games and max_per_client must be >= 1 and idle_timeout finite and > 0"
            )
        self.max_games = max_games
        self.idle_timeout = idle_timeout
        self._clock = clock
        self._entries: dict[str, _Entry] = {}

    def __len__(self) -> int:
        return len(self._entries)

    def admit(self, owner: str, replacing: str | None = None) -> None:
        """Check that ``owner`` (a client's address) may start a game now, in place of its
        game ``replacing`` if given. Only games a connection holds count against ``owner``'s
        limit: when it is reached, ``owner``'s oldest game that no tab holds (a closed tab's)
        is dropped to make room.

        Raises:
            ClientError: ``max_games`` games are open, or ``max_per_client`` of ``owner``'s
                held by open tabs, and none has expired.
        """
        self.expire()
        mine = sorted(
            (entry.last_used, game_id)
            for game_id, entry in self._entries.items()
            if entry.owner == owner and game_id != replacing
        )
        while not self._room(replacing) or len(mine) >= self.max_per_client:
            closed = [item for item in mine if not self._entries[item[1]].tabs]
            if not closed:
                break
            del self._entries[closed[0][1]]  # the oldest game of a closed tab of owner's
            mine.remove(closed[0])
        if not self._room(replacing):
            raise ClientError(f"the server is full ({self.max_games} games); try again later")
        if len(mine) >= self.max_per_client:
            raise ClientError(
                f"too many games open from your address (the limit is {self.max_per_client}); "
                f"finish one, or wait: an idle game is dropped after {self.idle_timeout:g} s"
            )

    def _room(self, replacing: str | None) -> bool:
        return len(self._entries) - (replacing in self._entries) < self.max_games

    def add(self, session: GameSession, owner: str = "", replacing: str | None = None) -> str:
        """Register a new game started by ``owner`` and return its id; the game ``replacing``
        (the one the starting tab played) is dropped once the new one is in.

        Raises:
            ClientError: as :meth:`admit`.
        """
        self.admit(owner, replacing)
        game_id = secrets.token_urlsafe(16)
        self._entries[game_id] = _Entry(session, owner, self._clock())
        if replacing is not None:
            self.remove(replacing)
        return game_id

    def hold(self, game_id: str | None, held: bool) -> None:
        """Count one more (``held``) or one fewer tab playing ``game_id`` (if still open)."""
        entry = self._entries.get(game_id) if game_id is not None else None
        if entry is not None:
            entry.tabs += 1 if held else -1

    def get(self, game_id: str) -> _Entry:
        """The game ``game_id``, marked as used now.

        Raises:
            ClientError: no such game is open (never was, or it expired).
        """
        entry = self._entries.get(game_id)
        if entry is None or self._expired(entry):
            self._entries.pop(game_id, None)
            raise ClientError("unknown game (it may have expired); start a new one")
        entry.last_used = self._clock()
        return entry

    def remove(self, game_id: str) -> None:
        """Drop a game (nothing happens if it is not open)."""
        self._entries.pop(game_id, None)

    def expire(self) -> int:
        """Drop every idle game; returns how many were dropped."""
        stale = [game_id for game_id, entry in self._entries.items() if self._expired(entry)]
        for game_id in stale:
            del self._entries[game_id]
        return len(stale)

    def next_expiry(self) -> float:
        """Seconds until the next open game expires if left idle (``idle_timeout`` when none
        is open: a game started later expires later)."""
        now = self._clock()
        deadline = min((self._deadline(entry) for entry in self._entries.values()), default=None)
        return self.idle_timeout if deadline is None else max(0.0, deadline - now)

    def _expired(self, entry: _Entry) -> bool:
        return self._clock() >= self._deadline(entry)

    def _deadline(self, entry: _Entry) -> float:
        return entry.last_used + self.idle_timeout


class _Coach:
    """Where the coach thinks: one thread of its own (never the pool that plays the games'
    moves), at most ``queue`` requests waiting or running, one per client address, and at
    most ``budget`` CPU seconds per game; a request beyond any of these is refused at once.

    The thread is a daemon: a server told to stop does not wait for a review it started.
    """

    def __init__(self, budget: float, queue: int = 4) -> None:
        self.budget = budget
        self.queue = queue
        self._jobs: SimpleQueue[tuple[Callable[[], Any], Callable[..., None]] | None] = (
            SimpleQueue()
        )
        self._thread: threading.Thread | None = None
        self._waiting: Counter[str] = Counter()

    async def run(self, entry: _Entry, owner: str, key: tuple, work: Callable[[], Any]) -> Any:
        """``work()``'s result, cached in ``entry`` under ``key`` (a repeated request is free).

        Raises:
            ClientError: the game's budget is spent, the coach is busy, or ``work`` refused.
        """
        if key in entry.coached:
            return entry.coached[key]
        if entry.coach_seconds >= self.budget:
            raise ClientError(
                f"the coach has used its {self.budget:g} s of thinking for this game; "
                "start a new game to ask again"
            )
        if self._waiting[owner] or self._waiting.total() >= self.queue:
            raise ClientError("the coach is busy with other questions; ask again in a moment")
        if self._thread is None:
            self._thread = threading.Thread(target=self._work, name="coach", daemon=True)
            self._thread.start()
        loop = asyncio.get_running_loop()
        done: asyncio.Future[tuple[Any, float]] = loop.create_future()

        def settle(outcome: Any, failed: bool) -> None:
            if not done.done():
                done.set_exception(outcome) if failed else done.set_result(outcome)

        self._waiting[owner] += 1
        try:
            self._jobs.put((work, partial(loop.call_soon_threadsafe, settle)))
            result, seconds = await done
        finally:
            self._waiting[owner] -= 1
        entry.coach_seconds += seconds
        entry.coached[key] = result
        return result

    def _work(self) -> None:
        while (job := self._jobs.get()) is not None:
            work, reply = job
            try:
                reply(_timed(work), False)
            except Exception as error:  # handed to the request that asked, as it is
                reply(error, True)

    def close(self) -> None:
        """Let the coach's thread end once its current request ends."""
        if self._thread is not None:
            self._jobs.put(None)


def _timed(work: Callable[[], Any]) -> tuple[Any, float]:
    """``work()`` and the CPU seconds this thread spent on it; a refusal is the client's."""
    start = time.thread_time()
    try:
        return work(), time.thread_time() - start
    except RefusedError as error:
        raise ClientError(str(error)) from None


@dataclass(frozen=True)
class Choice:
    """A game the page may start: which game, how many players, the opponents' specs."""

    game: str
    players: int
    opponents: tuple[str, ...]


class _Server:
    """What the app's handlers share: the settings, the open games, the coach's policies."""

    def __init__(
        self,
        webs: dict[str, WebGame],
        default: Choice,
        replay: list[RecordedRound] | None,
        games: Games,
        start_timeout: float,
        seed: int | None,
        coach: bool,
        coach_model: str | Path | None,
        replay_dir: Path | None,
        coaching: _Coach | None = None,
    ) -> None:
        self.webs = webs
        self.coaching = coaching or _Coach(DEFAULT_COACH_BUDGET)
        self.default = default
        self.replay = replay
        self.games = games
        self.start_timeout = start_timeout
        self.coach = coach
        self.replay_dir = replay_dir
        self.boot = secrets.token_urlsafe(8)  # tells a page whether the server restarted
        self._seeds = np.random.SeedSequence(seed)  # one child per game: seeded servers repeat
        self._policies: dict[tuple[str, int], NumpyPolicy | None] = {}
        if coach and replay is None:  # a bad model file is an error now, not in a game
            key = (default.game, default.players)
            self._policies[key] = _coach_policy(coach_model, *key)

    @property
    def opponents(self) -> list[str]:
        """The default game's opponents, one spec per seat."""
        return list(self.default.opponents)

    def hello(self) -> dict[str, Any]:
        """The first message of every connection: what this server offers."""
        message: dict[str, Any] = {
            "type": "hello",
            "mode": "replay" if self.replay is not None else "play",
            "server": self.boot,
            "idle_timeout": self.games.idle_timeout,
        }
        if self.replay is not None:
            web = self.replay[0].web
            message["rounds"] = len(self.replay)
            message["game"] = web.name
            message["games"] = {web.name: self._offer(web)}
            return message
        default = self.default
        message["game"] = default.game
        message["games"] = {name: self._offer(web) for name, web in self.webs.items()}
        message["players"] = default.players
        message["seats"] = ["you", *default.opponents]
        message["coach"] = self.coach
        message["coach_policy"] = (
            self.coach and self.policy(default.game, default.players) is not None
        )
        return message

    def _offer(self, web: WebGame) -> dict[str, Any]:
        spec = game_spec(web.name)
        choices = list(OPPONENT_CHOICES)
        if web.name == self.default.game:
            choices.insert(0, _opponents_text(self.default.opponents))
        return {
            "title": spec.title,
            "unit": spec.unit,
            "players": list(spec.player_counts),
            "default_players": self.default.players
            if web.name == self.default.game
            else spec.default_players,
            "opponents": list(dict.fromkeys(choices)),
            "faces": web.faces(),
        }

    def choice(self, request: dict[str, Any]) -> Choice:
        """The game a ``new`` message asks for (what it leaves out: the server's default).

        Raises:
            ClientError: an unknown game, a table size it does not allow, opponents the page
                does not offer.
        """
        name = request.get("game_name", self.default.game)
        if name not in self.webs:
            raise ClientError(
                f"unknown game {name!r:.40}; this server plays {', '.join(self.webs)}"
            )
        spec = game_spec(self.webs[name].name)
        same = name == self.default.game
        players = request.get("players", self.default.players if same else spec.default_players)
        if players not in spec.player_counts:
            raise ClientError(f"a {spec.title} table has {_counts(spec.player_counts)} players")
        offered = self._offer(self.webs[name])["opponents"]
        text = request.get("opponents", offered[0])
        if text not in offered:
            raise ClientError(f"opponents must be one of: {'; '.join(offered)}")
        opponents = tuple(part.strip() for part in text.split(","))
        if len(opponents) == 1:
            opponents *= players - 1
        if len(opponents) != players - 1:
            raise ClientError(f"{text!r} names opponents for another table size")
        return Choice(name, players, opponents)

    def new_session(self, choice: Choice, seed: int | None = None) -> GameSession:
        """A game at seat 0 against fresh opponents (built here: some load a model)."""
        if seed is None:
            seed = int(self._seeds.spawn(1)[0].generate_state(1)[0])
        agents = {
            seat: make_agent(spec, seed + seat, choice.players, choice.game)
            for seat, spec in enumerate(choice.opponents, 1)
        }
        seats = ["you", *choice.opponents]
        return GameSession(self.webs[choice.game], choice.players, agents, 0, seed, seats)

    def policy(self, game: str, players: int) -> NumpyPolicy | None:
        """The coach's policy for a game and table size: its shipped model, if one ships."""
        key = (game, players)
        if key not in self._policies:
            self._policies[key] = _coach_policy(None, game, players)
        return self._policies[key]

    def save(self, game_id: str, entry: _Entry) -> None:
        """Append the game's newly finished rounds to its replay file (one per game)."""
        records = entry.session.records
        if self.replay_dir is None or entry.saved == len(records):
            return
        if entry.replay_file is None:
            stamp = time.strftime("%Y%m%d-%H%M%S")
            name = f"{stamp}-{entry.session.web.name}-{game_id[:8]}.jsonl"
            entry.replay_file = self.replay_dir / name
        try:
            self.replay_dir.mkdir(parents=True, exist_ok=True)
            with entry.replay_file.open("a", encoding="utf-8") as file:
                for record in records[entry.saved :]:
                    file.write(json.dumps(record) + "\n")
        except OSError as error:  # a full disk must not end the game being played
            _log.warning("cannot save the replay %s: %s", entry.replay_file, error)
            return
        entry.saved = len(records)


def _opponents_text(specs: Sequence[str]) -> str:
    distinct = list(dict.fromkeys(specs))
    return distinct[0] if len(distinct) == 1 else ", ".join(specs)


def _counts(counts: Sequence[int]) -> str:
    return f"{counts[0]}-{counts[-1]}"


def _coach_policy(path: str | Path | None, game: str, players: int) -> NumpyPolicy | None:
    """The coach's policy: the given model file (a bad one is an error), else the shipped model
    for the game and table size, if one ships."""
    if path is None:
        try:
            path = default_model(players, game)
        except ModelFileError:
            return None
    return load_coach_policy(path, players, game)


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
    server = _Server(
        webs,
        Choice(name, players, tuple(specs)),
        rounds,
        Games(max_games, idle_timeout, max_games_per_client),
        start_timeout,
        seed,
        coach,
        coach_model,
        None if replay_dir is None else Path(replay_dir),
        _Coach(coach_budget),
    )

    @contextlib.asynccontextmanager
    async def lifespan(app: Starlette) -> AsyncIterator[None]:
        sweeper = asyncio.create_task(_sweep(server.games))
        try:
            yield
        finally:
            sweeper.cancel()
            server.coaching.close()

    async def socket_route(websocket: WebSocket) -> None:
        await _play_socket(server, websocket)

    async def rules_route(request: Request) -> Response:
        return _rules(server, request.path_params["game"])

    app = Starlette(
        routes=[
            Route("/", _index),
            Route("/rules/{game}", rules_route),
            WebSocketRoute("/ws", socket_route),
            Mount("/static", StaticFiles(directory=STATIC), name="static"),
        ],
        middleware=[
            Middleware(_HostCheck, allowed_hosts=allowed_hosts),
            Middleware(_SecurityHeaders),
        ],
        lifespan=lifespan,
    )
    app.state.server = server
    return app


def _rules(server: _Server, game: str) -> Response:
    """A game's rules panel: its rules section of the docs, as Markdown in JSON."""
    web = server.webs.get(game)
    if web is None:
        return PlainTextResponse("no such game", status_code=404)
    return JSONResponse(
        {"game": game, "title": game_spec(web.name).title, "markdown": web.rules.markdown()}
    )


async def _index(request: Request) -> Response:
    return FileResponse(STATIC / "index.html")


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


class _HostCheck:
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


class _SecurityHeaders:
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


async def _sweep(games: Games) -> None:
    # Idle games are also dropped whenever a game is created; this frees them on a quiet
    # server too, as each expires (a game used meanwhile expires later: the loop looks again).
    while True:
        await asyncio.sleep(games.next_expiry())
        games.expire()


# ---------------------------------------------------------------------------------- protocol
async def _play_socket(server: _Server, websocket: WebSocket) -> None:
    """One connection: ``hello``, then a reply to every client message, in order."""
    if not _same_origin(websocket):
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


async def _serve_tab(server: _Server, websocket: WebSocket, tab: _Tab) -> None:
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


async def _reply(server: _Server, message: Message, tab: _Tab) -> list[dict[str, Any]]:
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


def _same_origin(websocket: WebSocket) -> bool:
    """Whether the page that opened the socket (if a browser says) is this server's own: the
    same scheme (an ``https`` page is another origin than this ``http`` server) and host."""
    origin = websocket.headers.get("origin")
    if origin is None:
        return True
    parts = urlsplit(origin)
    scheme = "https" if websocket.url.scheme == "wss" else "http"
    return parts.scheme == scheme and parts.netloc == websocket.headers.get("host")


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


async def _handle(
    server: _Server, request: dict[str, Any], owner: str, current: str | None = None
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
    server: _Server, entry: _Entry, owner: str, game_id: str, request: dict[str, Any]
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
    server: _Server, request: dict[str, Any], owner: str, current: str | None
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


def _joined(game_id: str, entry: _Entry) -> dict[str, Any]:
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


def _frame(server: _Server, index: int, step: int) -> dict[str, Any]:
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


# ------------------------------------------------------------------------------------ serve
def host_names(host: str) -> tuple[str, ...]:
    """The host names a server listening on ``host`` answers to: the loopback names when
    ``host`` is a loopback address (so no other web site reaches it by DNS rebinding), any
    name otherwise."""
    return LOOPBACK_HOSTS if _is_loopback(host) else ("*",)


def url_of(listener: socket.socket) -> str:
    """The address to open in a browser for a listening socket."""
    host, port = listener.getsockname()[:2]
    return f"http://{f'[{host}]' if ':' in host else host}:{port}/"


def run(app: Starlette, listener: socket.socket) -> None:
    """Serve ``app`` on ``listener`` until interrupted (Ctrl+C), then close the socket."""
    with listener:
        uvicorn_server(app).run(sockets=[listener])


def connection_guard(app: Starlette) -> ConnectionGuard:
    """The connection limits of ``app``'s server, from its game limits: per client address
    room for each of its games' tab (a WebSocket) and for a browser's few parallel page
    loads; in all, room for every game's tab and more, always above one address's share."""
    games = app.state.server.games
    per_address = 2 * games.max_per_client + 16
    return ConnectionGuard(per_address, 4 * games.max_games + per_address)


def uvicorn_server(app: Starlette) -> Any:
    """The ``uvicorn.Server`` that runs ``app``: quiet, with WebSocket frames bounded (frames
    over ``MAX_MESSAGE_BYTES`` but within the frame limit get an error reply from the app;
    larger ones close the connection) and every connection kept to :func:`connection_guard`'s
    limits (``app.state.guard``)."""
    import uvicorn

    guard = app.state.guard = connection_guard(app)
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


def _is_loopback(host: str) -> bool:
    if host == "localhost":
        return True
    try:
        return ipaddress.ip_address(host).is_loopback
    except ValueError:
        return False
