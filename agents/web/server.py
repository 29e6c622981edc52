"""What one server's handlers share: its settings, the games it offers (the ``hello`` every
connection gets, the choices of the page's setup), its open games, its coach and the coach's
policies, and where finished rounds are saved. Nothing here names a game."""

from __future__ import annotations

import json
import logging
import secrets
import time
from collections.abc import Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import numpy as np

from agents.games.web import WebGame
from agents.players.policy import ModelFileError, NumpyPolicy
from agents.players.trained import default_model
from agents.registry import game_spec
from agents.specs import make_agent
from agents.web.coach import DEFAULT_COACH_BUDGET, Coach
from agents.web.replay import RecordedRound
from agents.web.session import GameSession, load_coach_policy
from agents.web.store import ClientError, Entry, Games

# The opponents the page offers for every game, besides those named on the command line.
OPPONENT_CHOICES = ("heuristic", "random")
_log = logging.getLogger(__name__)


@dataclass(frozen=True)
class Choice:
    """A game the page may start: which game, how many players, the opponents' specs."""

    game: str
    players: int
    opponents: tuple[str, ...]


class Server:
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
        coaching: Coach | None = None,
    ) -> None:
        self.webs = webs
        self.coaching = coaching or Coach(DEFAULT_COACH_BUDGET)
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

    def save(self, game_id: str, entry: Entry) -> None:
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
