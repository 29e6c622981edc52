"""Determinized search (Perfect-Information Monte Carlo) for any game of the registry.

At a decision with more than one legal action the player rebuilds, from its observation, the
round as it sees it (:meth:`SearchGame.infostate`), samples ``samples`` worlds through the
game's ``resample_from_infostate`` (the cards it cannot see dealt again, consistent with what it
has seen), tries every legal action on every world (the same worlds for all actions, so their
comparison is not blurred by sampling noise), plays each world out with a rollout policy (the
game's heuristic, or a trained policy greedily with one forward pass per step for all the
worlds at once) and plays the action of best mean outcome in the game's unit. Ties, and
advantages smaller than ``margin`` paired standard errors, go to the rollout player's own
choice. A decision with one legal action costs no playout.

A game takes part through a :class:`SearchGame`: how an observation becomes a round of its
rules engine, how to sample worlds of it, how its heuristic and its policy act on the engine,
and what a finished round is worth to a seat. Nothing here names a game; a game may subclass
:class:`SearchGame` to search otherwise (Boon reads the play: it weights worlds by how likely
a trained policy makes the play seen so far, :mod:`agents.games.boon.inference`).
"""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass, replace
from functools import partial
from typing import Any, NamedTuple

import numpy as np

from agents.players.base import Agent, PlayerRequest, legal_bits
from agents.players.policy import NumpyPolicy
from agents.players.reading import PlayerModel, PlayReading, log_likelihoods, resample
from agents.players.trained import PPOAgent, default_model
from boon_env.core.bits import bits_of

ROLLOUTS = ("heuristic", "ppo")
INFERENCES = ("none", "ppo")


@dataclass(frozen=True)
class SearchParams:
    """Settings of the search player (``search:name=value,...``).

    Attributes:
        samples: sampled worlds per decision (the budget).
        rollout: who plays the playouts: ``"heuristic"`` (the game's) or ``"ppo"`` (a trained
            policy, greedy).
        inference: ``"none"``: worlds drawn as the game's sampler draws them; ``"ppo"``:
            ``candidates`` worlds weighted by how likely the policy makes the public play seen
            so far, ``samples`` of them resampled (:mod:`agents.players.reading`; a game whose
            search can read the play only, :attr:`SearchRules.reading`).
        margin: how sure the search must be to overrule its default move (the rollout
            player's own choice): another action is played only when its mean advantage over
            the default, paired over the worlds, exceeds ``margin`` standard errors (0: any
            advantage).
        model: the policy file for ``ppo`` (empty: the game's shipped model for the table
            size).
        candidates: worlds drawn per decision before resampling (``inference=ppo``).
        epsilon: weight of uniform play in the model of the other seats (keeps every world
            possible).
        temperature: softmax temperature of that model (> 1 flattens the policy).
    """

    samples: int = 20
    rollout: str = "heuristic"
    inference: str = "none"
    margin: float = 0.0
    model: str = ""
    candidates: int = 100
    epsilon: float = 0.1
    temperature: float = 1.0

    def __post_init__(self) -> None:
        if type(self.samples) is not int or self.samples < 1:
            raise ValueError(f"samples must be an integer >= 1, got {self.samples!r}")
        if self.rollout not in ROLLOUTS:
            raise ValueError(f"rollout must be one of {ROLLOUTS}, got {self.rollout!r}")
        if self.inference not in INFERENCES:
            raise ValueError(f"inference must be one of {INFERENCES}, got {self.inference!r}")
        if not self.margin >= 0:
            raise ValueError(f"margin must be >= 0, got {self.margin!r}")
        if type(self.candidates) is not int or self.candidates < 1:
            raise ValueError(f"candidates must be an integer >= 1, got {self.candidates!r}")
        if not 0 <= self.epsilon <= 1:
            raise ValueError(f"epsilon must be between 0 and 1, got {self.epsilon!r}")
        if not self.temperature > 0:
            raise ValueError(f"temperature must be > 0, got {self.temperature!r}")

    @property
    def uses_policy(self) -> bool:
        """Whether a trained policy plays a part (the playouts or the reading)."""
        return self.rollout == "ppo" or self.inference == "ppo"


class Infostate(NamedTuple):
    """What the searching seat knows, as the search uses it: ``round``, a round of the rules
    engine that shows the seat exactly what its observation shows (the cards it cannot see
    placed anyhow), the seat's number in it, and ``sample(rng)``, a world drawn from it (the
    game's ``resample_from_infostate`` of ``round`` for ``seat``)."""

    round: Any
    seat: int
    sample: Callable[[np.random.Generator], Any]


@dataclass(frozen=True)
class Outcomes:
    """Playout outcomes of every legal action on the same sampled worlds: ``values[j, k]`` is
    the outcome of ``actions[j]`` on world ``k``, which counts ``weights[k]`` times."""

    actions: tuple[int, ...]
    values: np.ndarray
    weights: np.ndarray

    def means(self) -> np.ndarray:
        """The weighted mean outcome of each action."""
        return self.values @ self.weights / self.weights.sum()

    def best(self, default: int, margin: float = 0.0) -> int:
        """The action of highest mean; ``default`` when it is among the best, or when no
        better action beats it by more than ``margin`` paired standard errors."""
        means = self.means()
        d = self.actions.index(default)
        advantage = means - means[d]
        better = advantage > 1e-9
        if margin > 0 and better.any():
            better &= advantage > margin * self._paired_errors(d, advantage)
        if not better.any():
            return default
        return self.actions[int(np.argmax(np.where(better, means, -np.inf)))]

    def _paired_errors(self, d: int, advantage: np.ndarray) -> np.ndarray:
        # The standard error of each action's mean advantage over action d, the worlds paired;
        # resampled worlds count as their weight (Kish's effective sample size); with a single
        # distinct world nothing is known of the spread, so no advantage is sure.
        w = self.weights
        spread = (self.values - self.values[d] - advantage[:, None]) ** 2 @ w / w.sum()
        effective = w.sum() ** 2 / (w**2).sum()
        if effective <= 1:
            return np.full(len(self.actions), np.inf)
        return np.sqrt(spread / (effective - 1))


@dataclass(frozen=True)
class SearchRules:
    """How the search plays one game on its rules engine (all functions of a round of it).

    Attributes:
        infostate: an observation vector -> the :class:`Infostate` of the observing seat.
        heuristic: a round -> the game's heuristic action for the seat to act.
        observe: ``(round, seat)`` -> that seat's observation vector (for a policy).
        value: ``(round, seat)`` -> the round's value for the seat in the game's unit (the
            arena's), of a finished round or of one a playout stopped (``max_steps``).
        max_steps: a playout still going after this many decisions is scored as it stands
            (``None``: played to the end).
        reading: how the search reads the play (``inference=ppo``); ``None``: the game's
            observations do not let a seat keep the round's public actions.
    """

    infostate: Callable[[np.ndarray], Infostate]
    heuristic: Callable[[Any], int]
    observe: Callable[[Any, int], np.ndarray]
    value: Callable[[Any, int], float]
    max_steps: int | None = None
    reading: PlayReading | None = None


class SearchGame:
    """A game as the search sees it: :class:`SearchRules` and the settings it takes. A game
    that searches otherwise (Boon) subclasses it and overrides the hooks."""

    def __init__(
        self,
        game: str,
        rules: SearchRules,
        expert: Mapping[int, Any],
        params_type: type = SearchParams,
    ) -> None:
        self.game = game
        self.rules = rules
        self.expert = expert  # the ``expert`` settings per table size
        self.params_type = params_type  # the settings ``search`` takes, with the game's defaults

    def policy(self, params: Any, num_players: int) -> NumpyPolicy | None:
        """The policy the search plays out with (``params.model``, else the game's shipped
        model for the table size), or ``None`` when ``params`` need none.

        Raises:
            ValueError: the model cannot be loaded or is made for another table size
                (:class:`~agents.players.policy.ModelFileError`).
        """
        if not params.uses_policy:
            return None
        path = params.model or default_model(num_players, self.game)
        return PPOAgent(path, num_players=num_players, game=self.game).policy

    def make_player(
        self, params: Any, seed: int | None, name: str, num_players: int
    ) -> SearchPlayer:
        """The game's search player with ``params`` (what ``search`` and ``expert`` build).

        Raises:
            ValueError: ``params`` ask to read the play of a game whose search cannot.
        """
        if params.inference != "none" and self.rules.reading is None:
            raise ValueError(
                f"inference={params.inference}: {self.game}'s search cannot read the play (a "
                f"seat's observations do not show the round's public actions); use "
                f"inference=none"
            )
        return SearchPlayer(self, params, seed=seed, name=name, num_players=num_players)

    def new_round(self, player: SearchPlayer) -> None:
        """A new round starts for ``player`` (a game that follows the play forgets it)."""

    def observe(self, player: SearchPlayer, observation: np.ndarray) -> Any:
        """What ``player`` takes from an observation before it acts (at every turn, forced
        moves too): the observation itself, and when it reads the play, the round's public
        actions brought up to date in its memory."""
        if player.params.inference == "ppo":
            player.memory["log"] = self.rules.reading.follow(player.memory.get("log"), observation)
        return observation

    def decide(
        self,
        player: SearchPlayer,
        known: Any,
        actions: Sequence[int],
        observation: np.ndarray,
        mask: np.ndarray,
    ) -> int:
        """The action ``player`` plays at a decision of several legal ``actions``: the best
        over ``params.samples`` sampled worlds (:meth:`Outcomes.best`) against the rollout
        player's own choice."""
        info = self.rules.infostate(known)
        table = info.round.config.num_players
        if player.policy is not None and table != player.num_players:
            raise ValueError(
                f"{player.name}: its policy is for {player.num_players} players, the table has "
                f"{table}"
            )
        worlds, weights = self._worlds(player, info)
        values = play_out(worlds, actions, info.seat, self.rules, player.policy)
        outcomes = Outcomes(tuple(actions), values, weights)
        if player.policy is not None and player.params.rollout == "ppo":
            default = player.policy.greedy(observation, mask)
        else:
            default = self.rules.heuristic(info.round)
        return outcomes.best(default, player.params.margin)

    def _worlds(self, player: SearchPlayer, info: Infostate) -> tuple[list[Any], np.ndarray]:
        """The worlds to search and how many times each counts: ``samples`` draws of the
        sampler; when reading the play, ``samples`` resampled from ``candidates`` draws by their
        likelihood (each distinct world once, counted as often as it was drawn), or the first
        ``samples`` candidates when the log does not know the whole round or no candidate
        explains the play."""
        params = player.params
        if params.inference != "ppo":
            worlds = [info.sample(player.rng) for _ in range(params.samples)]
            return worlds, np.ones(len(worlds))
        candidates = [info.sample(player.rng) for _ in range(params.candidates)]
        model = PlayerModel(player.policy, params.epsilon, params.temperature)
        log_weights = log_likelihoods(
            candidates, player.memory.get("log"), self.rules.reading, self.rules.observe,
            model, info.seat,
        )  # fmt: skip
        if log_weights is None or not np.isfinite(log_weights.max()):
            worlds = candidates[: params.samples]
            return worlds, np.ones(len(worlds))
        kept, counts = np.unique(
            resample(log_weights, params.samples, player.rng), return_counts=True
        )
        return [candidates[k] for k in kept], counts.astype(float)


def play_out(
    worlds: Sequence[Any],
    actions: Sequence[int],
    seat: int,
    rules: SearchRules,
    policy: NumpyPolicy | None,
) -> np.ndarray:
    """The value for ``seat`` of each action played on each world (all at ``seat``'s turn),
    every seat then playing the heuristic (``policy`` ``None``) or ``policy`` greedily; the
    worlds step together, so that a policy decides for all of them in one forward pass.
    Returns an array of shape ``(len(actions), len(worlds))``."""
    tables = []
    for action in actions:
        for world in worlds:
            table = world.clone()
            table.apply(action)
            tables.append(table)
    live = [t for t in tables if not t.is_over]
    steps = 0
    while live and (rules.max_steps is None or steps < rules.max_steps):
        forced = [t for t in live if _is_forced(t.legal_mask())]
        free = [t for t in live if not _is_forced(t.legal_mask())]
        for table in forced:
            table.apply(_only_action(table.legal_mask()))
        if free:
            for table, action in zip(free, _choices(free, rules, policy), strict=True):
                table.apply(action)
        live = [t for t in live if not t.is_over]
        steps += 1
    values = [rules.value(table, seat) for table in tables]
    return np.asarray(values, dtype=float).reshape(len(actions), len(worlds))


def _is_forced(legal: int) -> bool:
    return not legal & (legal - 1)


def _only_action(legal: int) -> int:
    """The one action of a forced move's legal bitmask."""
    return legal.bit_length() - 1


def _choices(tables: Sequence[Any], rules: SearchRules, policy: NumpyPolicy | None) -> list[int]:
    """The rollout player's action at each table (each with more than one legal action)."""
    if policy is None:
        return [rules.heuristic(table) for table in tables]
    obs = np.stack([rules.observe(table, table.current) for table in tables])
    logits = policy.batch_logits(obs)
    choices = []
    for row, table in enumerate(tables):
        legal = bits_of(table.legal_mask())
        choices.append(legal[int(np.argmax(logits[row, list(legal)]))])
    return choices


# -------------------------------------------------------------------------------------- agent
class SearchPlayer:
    """The ``search`` player of any game (see the module docstring).

    Raises:
        ValueError: the policy file cannot be loaded or is made for another table size than
            ``num_players`` (:class:`~agents.players.policy.ModelFileError`).
    """

    def __init__(
        self,
        game: SearchGame,
        params: Any = None,
        seed: int | None = None,
        name: str = "search",
        num_players: int = 4,
    ) -> None:
        self.game = game
        self.params = params if params is not None else game.params_type()
        self.name = name
        self.num_players = num_players
        self.policy = game.policy(self.params, num_players)
        self.rng = np.random.default_rng(seed)  # draws the worlds
        self.memory: dict[Any, Any] = {}  # what a game's search keeps within a round

    def act(self, observation: np.ndarray, action_mask: np.ndarray) -> int:
        """Search from what the observation shows."""
        known = self.game.observe(self, observation)  # also at forced moves
        actions = bits_of(legal_bits(action_mask))
        if len(actions) == 1:
            return actions[0]
        return self.game.decide(self, known, actions, observation, action_mask)

    def reset(self, seed: int | None = None) -> None:
        """Start a new round; reseed the sampling generator (``None`` keeps the current
        stream)."""
        self.memory.clear()
        self.game.new_round(self)
        if seed is not None:
            self.rng = np.random.default_rng(seed)


# ------------------------------------------------------------------------------------ builders
def search_builder(game: SearchGame) -> Callable[[PlayerRequest], Agent]:
    """The builder of ``search[:name=value,...]`` for ``game`` (picklable: a game's spec goes
    to worker processes)."""
    return partial(_build_search, game)


def expert_builder(game: SearchGame) -> Callable[[PlayerRequest], Agent]:
    """The builder of ``expert`` for ``game``: its search at the settings chosen per table
    size (picklable)."""
    return partial(_build_expert, game)


def _build_search(game: SearchGame, request: PlayerRequest) -> Agent:
    params = request.params(game.params_type)
    return game.make_player(params, request.seed, request.spec, request.num_players)


@dataclass(frozen=True)
class ExpertOptions:
    """What ``expert[:model=PATH]`` may change of its settings.

    Attributes:
        model: the policy file it reads the play and plays out with (empty: the shipped one).
    """

    model: str = ""


def _build_expert(game: SearchGame, request: PlayerRequest) -> Agent:
    options = request.params(ExpertOptions)
    if request.num_players not in game.expert:
        raise ValueError(f"'expert' plays {tuple(game.expert)} players, not {request.num_players}")
    params = game.expert[request.num_players]
    if options.model:
        params = replace(params, model=options.model)
    return game.make_player(params, request.seed, request.spec, request.num_players)
