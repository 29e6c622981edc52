"""The PPO settings ``train.py`` and ``train_rllib.py`` share, declared once: the update's
hyperparameters, the network and the imitation warm start.

Both scripts' arguments subclass :class:`PPOSettings`, so a flag means the same in both and its
default is the same; each game's training recipe may change the defaults
(:func:`ppo_defaults`). A flag is named as stable-baselines3 names the setting
(``--learning-rate``); ``train_rllib.py``'s RLlib names (``--lr``, ``--lambda-``,
``--clip-param``, ...) are aliases of the same flag.
"""

from __future__ import annotations

import math
from dataclasses import dataclass, fields
from typing import Annotated, Any, Literal

import tyro

from agents.registry import game_spec
from agents.training.recipe import recipe_of


def _also(name: str) -> Any:
    # The RLlib name of a setting, accepted as the same flag.
    return tyro.conf.arg(aliases=(name,))


@dataclass
class PPOSettings:
    """The PPO update, the network and the imitation warm start (see the module docstring)."""

    learning_rate: Annotated[float, _also("--lr")] = 2e-4
    """Adam learning rate (low: PPO refines the warm start)."""

    lr_schedule: Literal["constant", "linear", "cosine"] = "constant"
    """How the learning rate moves over --total-timesteps (--iterations in train_rllib.py):
    constant, or down to --lr-final times --learning-rate in a straight line or a half
    cosine."""

    lr_final: float = 0.1
    """The learning rate at the end of a linear or cosine schedule, as a fraction of
    --learning-rate."""

    gamma: float = 1.0
    """Discount; rounds are short and only the last step pays."""

    gae_lambda: Annotated[float, _also("--lambda-")] = 0.95
    """GAE lambda."""

    clip_range: Annotated[float, _also("--clip-param")] = 0.2
    """PPO clipping."""

    ent_coef: Annotated[float, _also("--entropy-coeff")] = 0.003
    """Entropy bonus (also keeps pick/pass exploring)."""

    vf_coef: Annotated[float, _also("--vf-loss-coeff")] = 0.5
    """Value-loss weight."""

    max_grad_norm: Annotated[float, _also("--grad-clip")] = 0.5
    """Gradient clipping (global norm)."""

    batch_size: Annotated[int, _also("--minibatch-size")] = 1024
    """Minibatch size of the PPO update."""

    n_epochs: Annotated[int, _also("--num-epochs")] = 1
    """Passes over each rollout in the PPO update."""

    net_arch: str = "128,128"
    """Hidden layer sizes of the actor and of the critic."""

    bc_rounds: int = 4000
    """Imitation warm start: rounds of heuristic tables whose decisions the fresh policy (and its
    critic) are fitted to before PPO (0: start from scratch)"""

    bc_epochs: int = 2
    """Passes over the imitation data."""

    def hidden_layers(self) -> list[int]:
        """``net_arch`` as layer sizes.

        Raises:
            ValueError: it is not sizes like ``256,256``.
        """
        if not all(part.strip().isdigit() for part in self.net_arch.split(",")):
            raise ValueError(f"--net-arch must be layer sizes like 256,256, got {self.net_arch!r}")
        return [int(part) for part in self.net_arch.split(",")]

    def learning_rate_schedule(self) -> LearningRate:
        """The learning rate over the run (:class:`LearningRate`).

        Raises:
            ValueError: a negative learning rate, or --lr-final outside [0, 1].
        """
        if not self.learning_rate >= 0:
            raise ValueError(f"--learning-rate must be >= 0, got {self.learning_rate}")
        if not 0 <= self.lr_final <= 1:
            raise ValueError(f"--lr-final must be between 0 and 1, got {self.lr_final}")
        return LearningRate(self.learning_rate, self.lr_schedule, self.lr_final)


@dataclass(frozen=True)
class LearningRate:
    """The learning rate as stable-baselines3 asks for it: a function of the progress remaining
    (1 at the start of the run's decisions, 0 at their end; a resumed run goes on where it
    stopped). ``linear`` and ``cosine`` fall from ``start`` to ``final * start``.

    >>> LearningRate(1e-3, "linear", 0.1)(0.5), LearningRate(1e-3, "cosine", 0.0)(0.5)
    (0.00055, 0.0005)
    """

    start: float
    shape: Literal["constant", "linear", "cosine"] = "constant"
    final: float = 0.1

    def __call__(self, progress_remaining: float) -> float:
        done = min(max(1.0 - progress_remaining, 0.0), 1.0)
        if self.shape == "constant":
            return self.start
        fall = done if self.shape == "linear" else (1 - math.cos(math.pi * done)) / 2
        return self.start * (1 - (1 - self.final) * fall)

    def points(self, total: int, count: int = 17) -> float | list[list[float]]:
        """The schedule as RLlib takes it: the rate, or ``count`` ``[timestep, rate]`` points
        over ``total`` timesteps between which it interpolates linearly."""
        if self.shape == "constant":
            return self.start
        steps = [round(total * k / (count - 1)) for k in range(count)]
        return [[step, self(1 - step / total)] for step in steps]


PPO_FIELDS = frozenset(f.name for f in fields(PPOSettings))


def ppo_defaults(game: str) -> dict[str, object]:
    """The PPO settings whose default ``game``'s training recipe changes (none for a game
    without a recipe)."""
    spec = game_spec(game)
    if spec.training is None:
        return {}
    return {k: v for k, v in recipe_of(spec).defaults.items() if k in PPO_FIELDS}
