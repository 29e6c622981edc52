"""The self-play league of ``train_rllib.py``: which module plays which seat, and what it learns.

RLlib's own self-play callbacks assume two players and a win reward of 1; Boon has 3-5 seats
and pays Victory Cards, so the league is generalised here:

- Every episode (one round by default) one seat, drawn per episode, is the **learner**'s: the
  module ``learner`` (``--policies shared``) or ``learner_<seat>`` (``--policies per-seat``).
- Every other seat draws an opponent: the **heuristic** (:class:`HeuristicRLModule`, the
  project's rule-based player) with probability ``heuristic_share``, else one of the
  ``snapshot_<k>`` modules, frozen copies of the learner.
- The snapshot slots start as copies of the initial learner; after an iteration in which the
  learner's mean Victory Cards per round beat the pool by a margin, :func:`take_snapshot`
  copies the learner into the oldest slot. Only learner modules are trained.

:class:`BoonMetricsCallback` logs what tells progress in a zero-sum game (RLlib's mean module
return of a shared policy is always 0): the learner's Victory Cards per round and the pick and
Leaster rates of its rounds.
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

from agents.games.boon.heuristic import HeuristicAgent
from agents.training.imitation import fit_imitation, imitation_data
from agents.training.rllib.module import MaskedPPOTorchRLModule

HEURISTIC = "heuristic"


METRICS = ("rounds", "learner_victory_cards", "picks", "learner_picks", "leasters")


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
    """The rule-based player (:class:`~agents.games.boon.heuristic.HeuristicAgent`) as a frozen
    RLModule.

    It reads the adapter's observation dict and returns legal actions; it has no weights and is
    never trained.
    """

    def setup(self) -> None:
        """Build the player."""
        self.player = HeuristicAgent(name=HEURISTIC)

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
    learners: list[str], snapshots: list[str], model_config: dict[str, Any]
) -> MultiRLModuleSpec:
    """The league's modules: masked PPO networks for learners and snapshots, the heuristic."""
    specs: dict[str, RLModuleSpec] = {
        module: RLModuleSpec(module_class=MaskedPPOTorchRLModule, model_config=model_config)
        for module in [*learners, *snapshots]
    }
    specs[HEURISTIC] = RLModuleSpec(module_class=HeuristicRLModule)
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
    algorithm: Any, spec: RLModuleSpec, num_players: int, rounds: int, epochs: int, seed: int
) -> dict[str, float]:
    """Fit a module built from ``spec`` to heuristic decisions (:func:`fit_heuristic`) and give
    its weights to every learner and snapshot slot of the multi-agent league."""
    module, stats = fit_heuristic(spec, num_players, rounds, epochs, seed)
    state = module.get_state()
    for target in algorithm.config.policies:
        if target != HEURISTIC:
            set_weights(algorithm, target, state)
    return stats


def fit_heuristic(
    spec: RLModuleSpec, num_players: int, rounds: int, epochs: int, seed: int
) -> tuple[RLModule, dict[str, float]]:
    """A module built from ``spec``, fitted to heuristic decisions (and its critic to their
    returns) as ``train.py``'s warm start is: PPO then refines a competent player instead of
    first rediscovering how to follow suit, and picking is not punished into the all-pass
    collapse. Returns the module and the fit's statistics."""
    module = spec.build()
    data = imitation_data(num_players, rounds, seed)

    def forward(obs: Any, masks: Any) -> tuple[Any, Any]:
        batch = {Columns.OBS: {"observations": obs, "action_mask": masks.float()}}
        values = module.compute_values(batch)
        return module.forward_train(batch)[Columns.ACTION_DIST_INPUTS], values

    stats = fit_imitation(module.parameters(), forward, data, epochs, seed=seed)
    return module, stats


class BoonMetricsCallback(RLlibCallback):
    """Counts, per training iteration, the learner's rounds (see :func:`round_metrics`): from
    the multi-agent adapter's round records, or from the infos of the vector env's last step
    (:class:`~agents.training.rllib.vector.LeagueVectorEnv`)."""

    def on_episode_end(self, *, episode: Any, metrics_logger: Any, **kwargs: Any) -> None:
        """Record the round a single-agent (vector env) episode ended with."""
        if not hasattr(episode, "get_infos") or hasattr(episode, "agent_episodes"):
            return  # multi-agent episodes are counted step by step
        info = episode.get_infos(-1)
        if not isinstance(info, dict) or "round_value" not in info:
            return
        counts = {
            "rounds": 1,
            "learner_victory_cards": info["round_value"],
            "picks": info.get("picked", 0),
            "learner_picks": info.get("learner_picked", 0),
            "leasters": info.get("leaster", 0),
        }
        for key, value in counts.items():
            metrics_logger.log_value(("boon", key), float(value), reduce="sum")

    def on_episode_step(self, *, episode: Any, metrics_logger: Any, **kwargs: Any) -> None:
        """Record every round the learner saw scored on this step (multi-agent episodes)."""
        if not hasattr(episode, "agent_episodes"):
            return  # single-agent episodes are counted at their end
        for agent_id in episode.get_agents_that_stepped():
            if not str(episode.module_for(agent_id)).startswith("learner"):
                continue
            info = episode.agent_episodes[agent_id].get_infos(-1)
            scored = info.get("round") if isinstance(info, dict) else None
            if scored is None:
                continue
            seat = int(agent_id.rsplit("_", 1)[1])
            counts = {
                "rounds": 1,
                "learner_victory_cards": scored["value"][seat],
                "picks": scored["picker"] >= 0,
                "learner_picks": scored["picker"] == seat,
                "leasters": bool(scored["leaster"]),
            }
            for key, value in counts.items():
                metrics_logger.log_value(("boon", key), float(value), reduce="sum")


def round_metrics(result: dict[str, Any]) -> dict[str, float]:
    """The iteration's learner figures from an ``algorithm.train()`` result: rounds played,
    mean Victory Cards per round (uncapped round value), and the pick, learner-pick and Leaster
    rates of those rounds. Empty when no learner round was scored this iteration."""
    counts = result.get(ENV_RUNNER_RESULTS, {}).get("boon", {})
    rounds = float(counts.get("rounds", 0.0))
    if not rounds > 0:  # none scored, or NaN: no env runner reported this iteration
        return {}
    return {
        "rounds": rounds,
        "learner_vc_per_round": counts["learner_victory_cards"] / rounds,
        "pick_rate": counts["picks"] / rounds,
        "learner_pick_rate": counts["learner_picks"] / rounds,
        "leaster_rate": counts["leasters"] / rounds,
    }
