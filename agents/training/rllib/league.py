"""The self-play league of ``train_rllib.py``: which module plays which seat, and what it learns.

RLlib's own self-play callbacks assume two players and a win reward of 1; the games have 2-6
seats and pay in their own units (Victory Cards, points, margins), so the league is generalised
here, for any registered game:

- Every episode (one round by default) one seat, drawn per episode, is the **learner**'s: the
  module ``learner`` (``--policies shared``) or ``learner_<seat>`` (``--policies per-seat``).
- Every other seat draws an opponent: the **heuristic** (:class:`HeuristicRLModule`, the
  game's rule-based player) with probability ``heuristic_share``, else one of the
  ``snapshot_<k>`` modules, frozen copies of the learner.
- The snapshot slots start as copies of the initial learner; after an iteration in which the
  learner's mean round value beat the pool by a margin, :func:`take_snapshot` copies the
  learner into the oldest slot. Only learner modules are trained.

:class:`LeagueMetricsCallback` logs what tells progress in a zero-sum game (RLlib's mean module
return of a shared policy is always 0): the learner's round value, and the rates of the figures
its game reports of each round (Boon: picks and Leasters; the game's ``rllib`` part).
"""

from __future__ import annotations

import zlib
from dataclasses import dataclass
from typing import Any

import numpy as np
from ray.rllib.callbacks.callbacks import RLlibCallback
from ray.rllib.core import COMPONENT_LEARNER, COMPONENT_LEARNER_GROUP, COMPONENT_RL_MODULE
from ray.rllib.core.columns import Columns
from ray.rllib.core.rl_module.multi_rl_module import MultiRLModuleSpec
from ray.rllib.core.rl_module.rl_module import RLModule, RLModuleSpec
from ray.rllib.utils.metrics import ENV_RUNNER_RESULTS

from agents.registry import game_spec
from agents.training.imitation import fit_imitation, imitation_data
from agents.training.rllib.module import MaskedPPOTorchRLModule

HEURISTIC = "heuristic"
METRICS = "league"  # the namespace of the callback's counts in RLlib's results


def learner_modules(policies: str, num_players: int) -> list[str]:
    """The trained modules: one shared ``learner``, or ``learner_<seat>`` per seat.

    Raises:
        ValueError: ``policies`` is neither ``"shared"`` nor ``"per-seat"``.
    """
    if policies == "shared":
        return ["learner"]
    if policies == "per-seat":
        return [f"learner_{seat}" for seat in range(num_players)]
    raise ValueError(f"policies must be 'shared' or 'per-seat', got {policies!r}")


def snapshot_modules(pool_size: int) -> list[str]:
    """The frozen snapshot slots ``snapshot_0`` ... of the league."""
    return [f"snapshot_{k}" for k in range(pool_size)]


@dataclass(frozen=True)
class LeagueMapping:
    """RLlib's agent-to-module mapping of the league (picklable: it travels to env runners).

    The draws depend only on the episode id and the seat, so every env runner maps an agent
    the same way however often RLlib asks.
    """

    learners: tuple[str, ...]
    snapshots: tuple[str, ...]
    num_players: int
    heuristic_share: float

    def __call__(self, agent_id: str, episode: Any, **kwargs: Any) -> str:
        seat = int(agent_id.rsplit("_", 1)[1])
        draw = np.random.default_rng(zlib.crc32(str(episode.id_).encode()))
        learner_seat = int(draw.integers(self.num_players))
        if seat == learner_seat:
            return self.learners[seat % len(self.learners)]
        seat_draw = np.random.default_rng([zlib.crc32(str(episode.id_).encode()), seat])
        if not self.snapshots or seat_draw.random() < self.heuristic_share:
            return HEURISTIC
        return self.snapshots[int(seat_draw.integers(len(self.snapshots)))]


class HeuristicRLModule(RLModule):
    """A game's rule-based player (its spec's ``heuristic``; the game is ``model_config["game"]``,
    the default game without one) as a frozen RLModule.

    It reads the adapter's observation dict and returns legal actions; it has no weights and is
    never trained.
    """

    def setup(self) -> None:
        """Build the player."""
        self.player = game_spec((self.model_config or {}).get("game")).heuristic()

    def _forward(self, batch: dict[str, Any], **kwargs: Any) -> dict[str, Any]:
        observations = _numpy(batch[Columns.OBS]["observations"])
        masks = _numpy(batch[Columns.OBS]["action_mask"]).astype(np.int8)
        actions = [self.player.act(o, m) for o, m in zip(observations, masks, strict=True)]
        return {Columns.ACTIONS: np.asarray(actions, dtype=np.int64)}

    def _forward_train(self, batch: dict[str, Any], **kwargs: Any) -> dict[str, Any]:
        raise NotImplementedError("the heuristic module is not trained")


def _numpy(values: Any) -> np.ndarray:
    # Env runners hand modules torch tensors; tests may hand numpy arrays.
    return values.cpu().numpy() if hasattr(values, "cpu") else np.asarray(values)


def module_specs(
    learners: list[str],
    snapshots: list[str],
    model_config: dict[str, Any],
    game: str | None = None,
) -> MultiRLModuleSpec:
    """The league's modules: masked PPO networks for learners and snapshots, the heuristic of
    ``game`` (``None``: the default game)."""
    specs: dict[str, RLModuleSpec] = {
        module: RLModuleSpec(module_class=MaskedPPOTorchRLModule, model_config=model_config)
        for module in [*learners, *snapshots]
    }
    specs[HEURISTIC] = RLModuleSpec(module_class=HeuristicRLModule, model_config={"game": game})
    return MultiRLModuleSpec(rl_module_specs=specs)


def take_snapshot(algorithm: Any, learner: str, slot: str) -> None:
    """Copy the weights of module ``learner`` into snapshot module ``slot``."""
    path = f"{COMPONENT_LEARNER}/{COMPONENT_RL_MODULE}/{learner}"
    state = algorithm.learner_group.get_state(components=path)
    set_weights(algorithm, slot, state[COMPONENT_LEARNER][COMPONENT_RL_MODULE][learner])


def set_weights(algorithm: Any, module: str, state: dict[str, Any]) -> None:
    """Give ``module`` the weights ``state``, on the learners and on every env runner."""
    algorithm.set_state(
        {COMPONENT_LEARNER_GROUP: {COMPONENT_LEARNER: {COMPONENT_RL_MODULE: {module: state}}}}
    )
    algorithm.env_runner_group.sync_weights(
        from_worker_or_learner_group=algorithm.learner_group,
        policies=[module],
        inference_only=True,
    )


def imitation_warm_start(
    algorithm: Any,
    spec: RLModuleSpec,
    num_players: int,
    rounds: int,
    epochs: int,
    seed: int,
    game: str | None = None,
) -> dict[str, float]:
    """Fit a module built from ``spec`` to the heuristic decisions of ``game`` (``None``: the
    default game; :func:`fit_heuristic`) and give its weights to every learner and snapshot
    slot of the multi-agent league."""
    module, stats = fit_heuristic(spec, num_players, rounds, epochs, seed, game)
    state = module.get_state()
    for target in algorithm.config.policies:
        if target != HEURISTIC:
            set_weights(algorithm, target, state)
    return stats


def fit_heuristic(
    spec: RLModuleSpec,
    num_players: int,
    rounds: int,
    epochs: int,
    seed: int,
    game: str | None = None,
) -> tuple[RLModule, dict[str, float]]:
    """A module built from ``spec``, fitted to the decisions of ``game``'s heuristic (``None``:
    the default game) on its batch engine, and its critic to their returns, as ``train.py``'s
    warm start is: PPO then refines a competent player instead of first rediscovering how to
    follow suit (and, in Boon, picking is not punished into the all-pass collapse). Returns the
    module and the fit's statistics."""
    module = spec.build()
    data = imitation_data(game_spec(game), num_players, rounds, seed)

    def forward(obs: Any, masks: Any) -> tuple[Any, Any]:
        batch = {Columns.OBS: {"observations": obs, "action_mask": masks.float()}}
        values = module.compute_values(batch)
        return module.forward_train(batch)[Columns.ACTION_DIST_INPUTS], values

    stats = fit_imitation(module.parameters(), forward, data, epochs, seed=seed)
    return module, stats


class LeagueMetricsCallback(RLlibCallback):
    """Counts, per training iteration, the learner's rounds (see :func:`round_metrics`) from the
    infos of the step that ended each (:class:`~agents.training.rllib.vector.LeagueVectorEnv`):
    its ``round_value`` and every other figure its game reports of the round (summed, as
    rates)."""

    def on_episode_end(self, *, episode: Any, metrics_logger: Any, **kwargs: Any) -> None:
        """Record the round a single-agent (vector env) episode ended with."""
        if not hasattr(episode, "get_infos") or hasattr(episode, "agent_episodes"):
            return  # multi-agent episodes are counted step by step, by their game's callback
        info = episode.get_infos(-1)
        if not isinstance(info, dict) or "round_value" not in info:
            return
        counts = {"rounds": 1, "learner_value": info["round_value"]}
        counts.update((k, v) for k, v in info.items() if k != "round_value" and k[0] != "_")
        log_counts(metrics_logger, counts)


def log_counts(metrics_logger: Any, counts: dict[str, Any]) -> None:
    """Add a round's counts (``rounds``, ``learner_value``, the game's figures) to the sums of
    the iteration, which :func:`round_metrics` reads."""
    for key, value in counts.items():
        metrics_logger.log_value((METRICS, key), float(value), reduce="sum")


def round_metrics(result: dict[str, Any], value_name: str = "value") -> dict[str, float]:
    """The iteration's learner figures from an ``algorithm.train()`` result: rounds played, the
    mean round value (``learner_<value_name>_per_round``, uncapped), and the rate of every other
    figure its game counts (``<figure>_rate``: Boon's ``pick_rate``, ``leaster_rate``, ...).
    Empty when no learner round was scored this iteration."""
    counts = dict(result.get(ENV_RUNNER_RESULTS, {}).get(METRICS, {}))
    rounds = float(counts.pop("rounds", 0.0))
    if not rounds > 0:  # none scored, or NaN: no env runner reported this iteration
        return {}
    figures = {"rounds": rounds}
    figures[f"learner_{value_name}_per_round"] = counts.pop("learner_value") / rounds
    figures.update((f"{key}_rate", float(total) / rounds) for key, total in counts.items())
    return figures
