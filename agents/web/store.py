"""The open games of one server: each a :class:`~agents.web.session.GameSession` under an
unguessable id, with its owner (the client address that started it), the tabs that hold it
and what its coach has spent, within the server's limits on games in all, per client address
and idle time."""

from __future__ import annotations

import asyncio
import math
import secrets
import time
from collections.abc import Callable
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from agents.web.session import GameSession


class ClientError(ValueError):
    """A client message the server refuses; its text is sent back as the error reply."""


@dataclass
class Entry:
    """One open game and what the server keeps beside it."""

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
        self._entries: dict[str, Entry] = {}

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
        self._entries[game_id] = Entry(session, owner, self._clock())
        if replacing is not None:
            self.remove(replacing)
        return game_id

    def hold(self, game_id: str | None, held: bool) -> None:
        """Count one more (``held``) or one fewer tab playing ``game_id`` (if still open)."""
        entry = self._entries.get(game_id) if game_id is not None else None
        if entry is not None:
            entry.tabs += 1 if held else -1

    def get(self, game_id: str) -> Entry:
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

    def _expired(self, entry: Entry) -> bool:
        return self._clock() >= self._deadline(entry)

    def _deadline(self, entry: Entry) -> float:
        return entry.last_used + self.idle_timeout


async def sweep(games: Games) -> None:
    """Drop ``games``' idle games as each expires, until cancelled. (They are also dropped
    whenever a game is created; this frees them on a quiet server too. A game used meanwhile
    expires later: the loop looks again.)"""
    while True:
        await asyncio.sleep(games.next_expiry())
        games.expire()
