"""The arena's game mode: duplicate whole games, for the games whose spec has
``whole_games`` (:attr:`agents.registry.spec.GameSpec.whole_games`).

``boon arena --episode game --games N`` plays ``N`` games, each once per seat rotation, every
game to its end under its rules, or to the round cap ``--max-rounds``. Game ``g`` is reset with
the same seed in every rotation, so its deals are the same in every rotation for as long as the
rotations last (games end at different rounds once the play differs). The game's
``whole_games(max_rounds)`` says how a game is played and scored: Boon's
(:mod:`agents.games.boon.games`) scores the win, shared between the seats tied for the most
Victory Cards. Per agent spec (seats with the same spec pooled) the report gives the game win
rate with a 95% interval over games (the unit is the game, its rotations being correlated, as
the round arena does with deals) and the game's own figures. Agents are reset once per game.
"""

from __future__ import annotations

import time
from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any

from agents.eval.arena import run_arena
from agents.registry import game_with

DEFAULT_MAX_ROUNDS = 200


@dataclass(frozen=True)
class GameReport:
    """Everything a game-mode run measured."""

    num_players: int
    games: int
    max_rounds: int
    games_per_second: float  # whole games (one rotation each) per second
    results: list[Any]

    @property
    def mean_rounds(self) -> float:
        """Rounds per game (every agent sits in every game, so any entry's figure)."""
        return self.results[0].mean_rounds

    @property
    def truncated_rate(self) -> float:
        """Share of the games the round cap stopped."""
        return self.results[0].truncated_rate

    def to_json(self) -> dict[str, Any]:
        """The ``--episode game --json`` object (see ``docs/cli.md``)."""
        return {
            "episode": "game",
            "num_players": self.num_players,
            "games": self.games,
            "max_rounds": self.max_rounds,
            "mean_rounds": self.mean_rounds,
            "truncated_rate": self.truncated_rate,
            "games_per_second": self.games_per_second,
            "results": [result.to_json() for result in self.results],
        }

    def table(self) -> str:
        """The results as an aligned text table."""
        width = max([28, *(len(r.agent) for r in self.results)])
        header = f"{'agent':<{width}} {self.results[0].header()}"
        lines = [
            f"{self.num_players} players, {self.games} games x {self.num_players} rotations, "
            f"{self.mean_rounds:.1f} rounds per game ({self.truncated_rate:.1%} stopped at the "
            f"{self.max_rounds}-round cap), {self.games_per_second:,.1f} games/s",
            header,
            "-" * len(header),
        ]
        lines.extend(f"{r.agent:<{width}} {r.cells()}" for r in self.results)
        return "\n".join(lines)


def run_game_arena(
    specs: Sequence[str],
    games: int,
    seed: int = 0,
    workers: int = 1,
    max_rounds: int = DEFAULT_MAX_ROUNDS,
    progress: bool = False,
    game: str | None = None,
) -> GameReport:
    """Play ``games`` duplicate whole games of ``game`` (a registered game's name; ``None``:
    the default game) with ``specs`` (one per seat) in every rotation.

    Raises:
        ValueError: a game without whole games (naming those with them), a bad player count,
            game count, worker count, round cap or agent spec.
    """
    whole_games = game_with(game, "whole_games", "the game mode (--episode game)").whole_games
    arena = whole_games(max_rounds)
    start = time.perf_counter()
    report = run_arena(specs, games, seed=seed, workers=workers, progress=progress, game=arena)
    return GameReport(
        num_players=report.num_players,
        games=games,
        max_rounds=max_rounds,
        games_per_second=games * report.num_players / (time.perf_counter() - start),
        results=report.results,
    )
