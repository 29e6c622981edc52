"""The arena's game mode: duplicate whole games of Boon, won on Victory Cards.

``boon arena --episode game --games N`` plays ``N`` games, each once per seat rotation, every
game to its end under the rules (``RULES.md``, "End of the game"): rounds follow each other, the
deal passing left, until after a round's payments some player holds no Victory Cards. The
player holding the most Victory Cards then wins; players tied for the most **share** the win,
each scoring ``1 / k`` of it when ``k`` tie, so the win shares of a game add up to 1 and an agent
no better than the others wins ``1 / n`` of its games.

**Duplicate.** Game ``g`` is played through ``boon_v0`` with ``episode="game"``, reset with the
same seed in every rotation (and the first dealer ``g mod n``): the environment draws each
round's deal from that seed's generator and from nothing else, so round ``r`` of game ``g`` is
the same deal in every rotation for as long as the rotations last (games end at different rounds
once the play differs). Payments are those of the rules: capped by what players hold
(:func:`boon_env.games.boon.rules.settle`), and the agents see the real holdings in their
observations.

**Cap.** A simulator may cap a game (``max_rounds``, a truncation; ``RULES.md``): a truncated
game is scored like a finished one, by who holds the most, and the report counts them.

Per agent spec (seats with the same spec pooled) the report gives the game win rate with a 95%
interval over games (the unit is the game, its rotations being correlated, as the round arena
does with deals), the mean final Victory Cards, the rate of going bust (ending the game with
none), and the mean rounds per game. Agents are reset once per game.
"""

from __future__ import annotations

import functools
import time
from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any, NamedTuple

import numpy as np

from agents.eval.arena import ArenaGame, PlayedRound, pooled, result_json, run_arena
from boon_env import boon_v0
from boon_env.games.boon.rules import game_winners

DEFAULT_MAX_ROUNDS = 200


class GameRecord(NamedTuple):
    """One agent's part in one game."""

    slot: int  # index of the agent in the arena's spec list
    value: float  # its share of the win: 1 / (number of seats tied for the most), else 0
    victory_cards: int  # held at the end
    rounds: int  # rounds the game lasted
    truncated: bool  # the round cap stopped it


def game_records(played: PlayedRound) -> list[GameRecord]:
    """One :class:`GameRecord` per seat of a game played to its end (or its cap)."""
    holdings = played.info["victory_cards"]
    winners = game_winners(holdings)
    truncated = min(holdings) > 0  # the game ends under the rules only when someone has none
    rounds = played.info["game"]["rounds"]
    return [
        GameRecord(
            slot=slot,
            value=1 / len(winners) if seat in winners else 0.0,
            victory_cards=holdings[seat],
            rounds=rounds,
            truncated=truncated,
        )
        for seat, slot in enumerate(played.slots)
    ]


@dataclass(frozen=True)
class GameResult:
    """The game arena's figures for one agent spec (the JSON ``results`` entries)."""

    agent: str
    win_rate: float
    ci95: tuple[float, float]
    mean_victory_cards: float  # held at the end of a game
    bust_rate: float  # share of its games it ended with no Victory Cards
    mean_rounds: float  # rounds per game, over the games it played
    truncated_rate: float  # share of its games the round cap stopped

    @staticmethod
    def header() -> str:
        """The column titles of :meth:`cells`."""
        return f"{'win rate':>9} {'95% CI':>17} {'final VC':>9} {'bust':>6}"

    def cells(self) -> str:
        """The figures as one row of the table."""
        return (
            f"{self.win_rate:>9.1%} "
            f"{f'[{self.ci95[0]:.1%}, {self.ci95[1]:.1%}]':>17} "
            f"{self.mean_victory_cards:>9.2f} {self.bust_rate:>6.1%}"
        )

    def to_json(self) -> dict[str, Any]:
        """The ``--json`` entry (see ``docs/cli.md``)."""
        return result_json(self)


def summarize_games(
    specs: Sequence[str], per_game: Sequence[Sequence[GameRecord]]
) -> list[GameResult]:
    """The game mode's result entries: pool the records of each distinct spec."""
    results = []
    for spec, mean, half, mine in pooled(specs, per_game):
        results.append(
            GameResult(
                agent=spec,
                win_rate=mean,
                ci95=(mean - half, mean + half),
                mean_victory_cards=float(np.mean([r.victory_cards for r in mine])),
                bust_rate=float(np.mean([r.victory_cards == 0 for r in mine])),
                mean_rounds=float(np.mean([r.rounds for r in mine])),
                truncated_rate=float(np.mean([r.truncated for r in mine])),
            )
        )
    return results


def game_options(num_players: int, seed: int, index: int) -> dict[str, Any]:
    """The reset options of game ``index``: only its first dealer (the deal passing round the
    table from one game to the next); the deals come from the reset seed."""
    return {"dealer": index % num_players}


def game_seed(seed: int, index: int) -> int:
    """The ``env.reset`` seed of game ``index`` of a run seeded ``seed``, the same in every
    rotation: it draws every deal of the game."""
    return int(np.random.SeedSequence([seed, index]).generate_state(1)[0])


def boon_games(max_rounds: int = DEFAULT_MAX_ROUNDS) -> ArenaGame:
    """The :class:`~agents.eval.arena.ArenaGame` of whole Boon games capped at ``max_rounds``.

    Raises:
        ValueError: ``max_rounds`` is not an integer >= 1.
    """
    if isinstance(max_rounds, bool) or not isinstance(max_rounds, int) or max_rounds < 1:
        raise ValueError(f"max_rounds must be an integer >= 1, got {max_rounds!r}")
    return ArenaGame(
        "boon",
        functools.partial(boon_v0.raw_env, episode="game", max_rounds=max_rounds),
        game_options,
        game_records,
        summarize_games,
        reset_seed=game_seed,
    )


@dataclass(frozen=True)
class GameReport:
    """Everything a game-mode run measured."""

    num_players: int
    games: int
    max_rounds: int
    games_per_second: float  # whole games (one rotation each) per second
    results: list[GameResult]

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
        header = f"{'agent':<{width}} {GameResult.header()}"
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
) -> GameReport:
    """Play ``games`` duplicate games of Boon with ``specs`` (one per seat) in every rotation.

    Raises:
        ValueError: a bad player count, game count, worker count, round cap or agent spec.
    """
    game = boon_games(max_rounds)
    start = time.perf_counter()
    report = run_arena(specs, games, seed=seed, workers=workers, progress=progress, game=game)
    return GameReport(
        num_players=report.num_players,
        games=games,
        max_rounds=max_rounds,
        games_per_second=games * report.num_players / (time.perf_counter() - start),
        results=report.results,
    )
