"""High Card's registry entry: its players, arena records, variance-reduction features, bench
loop and training recipe (``training``); its batch engine is ``vector.VectorToy``."""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any, NamedTuple

import numpy as np

from agents.players.base import Agent, PlayerRequest
from agents.players.builders import ppo_player, random_player
from agents.registry.spec import (
    ArenaBaseline,
    ArenaGame,
    GameSpec,
    PlayedRound,
    RulesPlay,
    pooled,
    result_json,
)
from boon_env.games import EnvSpec
from tests.helpers.toy import env
from tests.helpers.toy.rules import (
    PLAYER_COUNTS,
    Game,
    GameConfig,
    new_game,
    random_hands,
)


class HighestCard:
    """The toy's heuristic: play the highest card held, at one table or many (a batched
    player that reads the masks alone)."""

    name = "heuristic"
    batched = True
    observes = False

    def act(self, observation: np.ndarray, action_mask: np.ndarray) -> int:
        """The highest legal card."""
        return int(np.flatnonzero(action_mask)[-1])

    def act_batch(
        self, observations: np.ndarray | None, masks: np.ndarray, tables: np.ndarray
    ) -> np.ndarray:
        """The highest legal card of every row of ``masks``."""
        legal = np.asarray(masks) != 0
        return legal.shape[1] - 1 - np.argmax(legal[:, ::-1], axis=1)

    def reset(self, seed: int | None = None) -> None:
        """Nothing to reset."""

    def reset_batch(self, seeds: Sequence[int]) -> None:
        """Nothing to reset."""


def heuristic_player(request: PlayerRequest) -> Agent:
    """``heuristic``: :class:`HighestCard`."""
    request.no_arg()
    return HighestCard()


class Record(NamedTuple):
    """One seat of a round."""

    slot: int
    value: float


@dataclass(frozen=True)
class Result:
    """One agent's mean value per round."""

    agent: str
    mean_value: float
    ci95: tuple[float, float]

    @staticmethod
    def header() -> str:
        """The column titles."""
        return f"{'tricks':>8} {'95% CI':>17}"

    def cells(self) -> str:
        """One row of the table."""
        return f"{self.mean_value:>+8.3f} [{self.ci95[0]:+.3f}, {self.ci95[1]:+.3f}]"

    def to_json(self) -> dict[str, Any]:
        """The ``--json`` entry."""
        return result_json(self)


def deal_options(num_players: int, seed: int, index: int) -> dict[str, Any]:
    """Deal ``index`` of a run seeded ``seed``."""
    hands = random_hands(num_players, np.random.default_rng([seed, index]))
    return {"deal": {"hands": hands}, "leader": index % num_players}


def records(played: PlayedRound) -> list[Record]:
    """Each seat's value."""
    return [Record(slot, played.info["value"][s]) for s, slot in enumerate(played.slots)]


def summarize(specs: Sequence[str], per_deal: Sequence[Sequence[Record]]) -> list[Result]:
    """Pooled by spec."""
    return [Result(spec, m, (m - h, m + h)) for spec, m, h, _ in pooled(specs, per_deal)]


def opening(num_players: int) -> int:
    """The features read the first trick."""
    return num_players


def seat_features(options: dict[str, Any], actions: Sequence[int], seat: int) -> np.ndarray:
    """Whether the seat won the first trick and whether it holds the highest card left after
    it (which takes the second, last trick): the round's result, read off its opening."""
    hands = options["deal"]["hands"]
    n = len(hands)
    leader = options["leader"]
    played = {(leader + k) % n: card for k, card in enumerate(actions[:n])}
    left = {s: max(set(hand) - {played[s]}) for s, hand in enumerate(hands)}
    return np.array(
        [played[seat] == max(played.values()), left[seat] == max(left.values())], dtype=float
    )


def new_round(num_players: int, index: int, rng: np.random.Generator) -> Game:
    """A game of random cards (one round is the game), the lead passing left."""
    return new_game(GameConfig(num_players), random_hands(num_players, rng), index % num_players)


def winners(game: Game) -> list[int]:
    """The seats with the most tricks (what ``boon bench`` scores)."""
    return game.winners


TOY = GameSpec(
    env=EnvSpec("toy", "High Card", "tests.helpers.toy", vector="VectorToy"),
    arena=ArenaGame(
        "toy",
        env.raw_env,
        deal_options,
        records,
        summarize,
        PLAYER_COUNTS,
        baseline=ArenaBaseline(opening, seat_features),
    ),
    players={"random": random_player, "heuristic": heuristic_player, "ppo": ppo_player},
    heuristic=HighestCard,
    terminal=None,
    rules_play=RulesPlay(new_round, winners),
    unit="tricks",
    value_name="tricks",
    value_of="mean_value",
    default_players=2,
    training="tests.helpers.toy.training:RECIPE",
)
