"""Learning from search (``train.py --teacher SPEC``): expert iteration inside PPO.

When ``learn`` starts and then every ``--teacher-every`` learner decisions, the current policy is
written to the run's ``teacher/`` folder and the teacher (a search player: ``expert``,
``search:...``) is built on it (``model=`` that file: it reads the play and plays its playouts
with the network as it is now). The teacher plays ``--teacher-rounds`` rounds of self-play on the
game's batch engine (:func:`~agents.training.imitation.imitation_data`: every seat the teacher,
a few random moves for coverage), and each of its decisions is a label: its chosen action, and
the round's return as the value target. The network is fitted to the labels of the last
``--teacher-keep`` iterations (cross-entropy to the teacher's choices plus the value error,
:func:`~agents.training.imitation.behaviour_clone`), then PPO goes on from it. Each iteration
so starts from a stronger network, and the teacher, which searches with that network, is
stronger too.

Each iteration logs (``teacher/...`` in TensorBoard, and a line of the run's log) how many
positions it labelled, the labelling cost per position in CPU and wall seconds, how often the
policy already chose the teacher's action before the fit (``agreement``) and the fit's losses.
"""

from __future__ import annotations

import time
from dataclasses import dataclass, fields, replace
from pathlib import Path
from typing import Any

import numpy as np
from stable_baselines3.common.callbacks import BaseCallback

from agents.players.policy import NumpyPolicy, save_policy
from agents.registry.spec import GameSpec
from agents.specs import make_agent
from agents.training.imitation import ImitationData, behaviour_clone
from agents.training.recipe import recipe_of

_SEED_STEP = 7919  # each iteration's rounds are dealt from a seed of their own


@dataclass(frozen=True)
class TeacherSettings:
    """The ``--teacher*`` flags of a run (see the module docstring)."""

    spec: str
    every: int
    rounds: int
    epochs: int
    keep: int
    learning_rate: float


def teacher_spec(spec: str, model: Path) -> str:
    """``spec`` reading and playing out with the policy file ``model``.

    Raises:
        ValueError: ``spec`` names its own model (the teacher searches with the run's).
    """
    kind, _, arg = spec.partition(":")
    if any(item.strip().startswith("model=") for item in arg.split(",")):
        raise ValueError(f"--teacher {spec}: the teacher searches with the run's own model")
    return f"{kind}:{arg + ',' if arg else ''}model={model}"


class Teacher(BaseCallback):
    """Expert iteration inside PPO (module docstring).

    Args:
        settings: the ``--teacher*`` flags.
        args: the run's arguments (table size, seed, the game's engine settings).
        game: the game.
        folder: where the policy files the teacher searches with are written.
    """

    def __init__(self, settings: TeacherSettings, args: Any, game: GameSpec, folder: Path):
        super().__init__()
        self.settings = settings
        self.args = args
        self.game = game
        self.folder = folder
        self.iterations = 0
        self.history: list[dict[str, float]] = []
        self._data: list[ImitationData] = []
        self._last = 0

    def _on_training_start(self) -> None:
        self.iterate()

    def _on_step(self) -> bool:
        return True

    def _on_rollout_end(self) -> None:
        if self.model.num_timesteps - self._last >= self.settings.every:
            self.iterate()

    def iterate(self) -> dict[str, float]:
        """Label rounds with the teacher on the current policy and fit the policy to the
        labels kept; returns the iteration's figures."""
        self._last = self.model.num_timesteps
        policy = NumpyPolicy.from_sb3(self.model.policy)
        data, cpu, wall = self._label(policy)
        agreement = float(
            np.mean(policy.greedy_batch(data.observations, data.masks) == data.actions)
        )
        self._data = [*self._data, data][-self.settings.keep :]
        stats = behaviour_clone(
            self.model,
            _joined(self._data),
            self.settings.epochs,
            learning_rate=self.settings.learning_rate,
            seed=self.args.seed + self.iterations,
        )
        self.iterations += 1
        row = {
            "teacher/iteration": float(self.iterations),
            "teacher/positions": float(len(data.actions)),
            "teacher/cpu_seconds_per_position": cpu / len(data.actions),
            "teacher/wall_seconds_per_position": wall / len(data.actions),
            "teacher/agreement": agreement,
            **{key.replace("bc/", "teacher/"): value for key, value in stats.items()},
        }
        for key, value in row.items():
            self.logger.record(key, value)
        self.history.append({"timesteps": float(self.model.num_timesteps), **row})
        print(_line(self.model.num_timesteps, row), flush=True)
        return row

    def _label(self, policy: NumpyPolicy) -> tuple[ImitationData, float, float]:
        # The teacher on the current policy plays the iteration's rounds; their decisions
        # with the CPU and wall seconds they took.
        path = save_policy(
            self.folder / f"policy_{self.model.num_timesteps}",
            policy,
            self.args.num_players,
            {"teacher": self.settings.spec, "timesteps": int(self.model.num_timesteps)},
            self.game.name,
        )
        seed = self.args.seed + _SEED_STEP * (self.iterations + 1)
        spec = teacher_spec(self.settings.spec, path)
        teacher = make_agent(spec, seed, self.args.num_players, self.game.name)
        labelling = replace(self.args, bc_rounds=self.settings.rounds, seed=seed)
        cpu, wall = time.process_time(), time.perf_counter()
        data = recipe_of(self.game).imitation(labelling, self.game, teacher)
        return data, time.process_time() - cpu, time.perf_counter() - wall

    def summary(self) -> dict[str, Any]:
        """The iterations for the run's summary."""
        if not self.history:
            return {}
        return {"teacher": {"spec": self.settings.spec, "iterations": self.history}}


def _joined(parts: list[ImitationData]) -> ImitationData:
    return ImitationData(
        *(np.concatenate([getattr(part, f.name) for part in parts]) for f in fields(ImitationData))
    )


def _line(timesteps: int, row: dict[str, float]) -> str:
    return (
        f"teacher at {timesteps:,} decisions: {row['teacher/positions']:.0f} positions, "
        f"{row['teacher/cpu_seconds_per_position'] * 1000:.1f} CPU ms each, agreement "
        f"{row['teacher/agreement']:.3f}, fit accuracy {row['teacher/accuracy']:.3f}"
    )
