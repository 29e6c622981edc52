"""Whole games of Boon in the arena's game mode (:mod:`agents.eval.game_arena`): won on Victory
Cards.

Every game goes to its end under the rules (``RULES.md``, "End of the game"): rounds follow
each other, the deal passing left, until after a round's payments some player holds no Victory
Cards. The player holding the most Victory Cards then wins; players tied for the most **share**
the win, each scoring ``1 / k`` of it when ``k`` tie, so the win shares of a game add up to 1 and
an agent no better than the others wins ``1 / n`` of its games. The environment draws each
round's deal from the game's reset seed and from nothing else; its first dealer is ``g mod n``.
Payments are those of the rules: capped by what players hold
(:func:`boon_env.games.boon.rules.settle`), and the agents see the real holdings in their
observations.

**Cap.** A simulator may cap a game (``max_rounds``, a truncation; ``RULES.md``): a truncated
game is scored like a finished one, by who holds the most, and the report counts them. Besides
the win rate, a result gives the mean final Victory Cards, the rate of going bust (ending the
game with none), and the mean rounds per game.
"""

from __future__ import annotations

import functools
from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any, NamedTuple

import numpy as np

from agents.registry.spec import ArenaGame, PlayedRound, pooled, result_json
from boon_env import boon_v0
from boon_env.games.boon.rules import PLAYER_COUNTS, game_winners


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


def whole_games(max_rounds: int) -> ArenaGame:
    """The :class:`~agents.registry.spec.ArenaGame` of whole Boon games capped at ``max_rounds``.

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
        player_counts=PLAYER_COUNTS,
        reset_seed=game_seed,
    )
