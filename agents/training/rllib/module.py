"""The masked PPO network of ``train_rllib.py``: RLlib's default PPO module behind the legal mask.

:class:`MaskedPPOTorchRLModule` subclasses RLlib's current PPO module
(``DefaultPPOTorchRLModule``, built from keyword arguments as RLlib's new API stack expects)
and reads the Dict observation of the RLlib envs: ``"observations"`` (the game's vector) and
``"action_mask"`` (1.0 where legal). The network sees the vector only; the mask sets illegal
logits to the lowest float before any distribution is built, so PPO never samples, and never
scores, an illegal action. It replaces RLlib's example ``ActionMaskingTorchRLModule``, which
imports PPO's module by a deprecated name.

:func:`numpy_policy` copies the actor (encoder MLP and policy head) into a
:class:`~agents.players.policy.NumpyPolicy`: the league's snapshot opponents inside the vector
env, and the pickle-free ``.npz`` player ``train_rllib.py`` exports.
"""

from __future__ import annotations

import logging
from typing import Any

import gymnasium as gym
import numpy as np
import torch
from ray.rllib.algorithms.ppo.torch.default_ppo_torch_rl_module import DefaultPPOTorchRLModule
from ray.rllib.core.columns import Columns
from ray.rllib.utils.torch_utils import FLOAT_MIN

from agents.players.policy import NumpyPolicy

OBSERVATIONS, ACTION_MASK = "observations", "action_mask"
ACTIVATIONS = {"tanh": "tanh", "relu": "relu"}
# RLlib 2.60's RLModule.__init__ builds the deprecated RLModuleConfig itself, so building any
# module the current way (keyword arguments) logs that "RLModule(config=...)" is deprecated
# (ray-project/ray#51630): the one warning is dropped, every other one is kept.
FALSE_DEPRECATION = "RLModule(config=[RLModuleConfig object])"


class _DropFalseDeprecation(logging.Filter):
    def filter(self, record: logging.LogRecord) -> bool:
        return FALSE_DEPRECATION not in record.getMessage()


def _drop_false_deprecation() -> None:
    log = logging.getLogger("ray._common.deprecation")
    if not any(isinstance(f, _DropFalseDeprecation) for f in log.filters):
        log.addFilter(_DropFalseDeprecation())


_drop_false_deprecation()  # in every process that imports the module class (env runners too)


class MaskedPPOTorchRLModule(DefaultPPOTorchRLModule):
    """RLlib's default PPO module on ``obs["observations"]``, its logits masked by
    ``obs["action_mask"]`` (see the module docstring).

    Raises:
        ValueError: the observation space is not a Dict with those two keys.
    """

    def __init__(self, *, observation_space: gym.Space | None = None, **kwargs: Any) -> None:
        if observation_space is not None and not (
            isinstance(observation_space, gym.spaces.Dict)
            and {OBSERVATIONS, ACTION_MASK} <= set(observation_space.spaces)
        ):
            raise ValueError(
                f"the observation space must be a Dict of {OBSERVATIONS!r} and {ACTION_MASK!r}, "
                f"got {observation_space}"
            )
        self._with_mask = observation_space
        # The catalog builds the networks for the vector alone.
        vector = None if observation_space is None else observation_space[OBSERVATIONS]
        super().__init__(observation_space=vector, **kwargs)

    def setup(self) -> None:
        """Build the networks, then show RLlib (and checkpoints) the Dict space it reads."""
        super().setup()
        self.observation_space = self._with_mask

    def _forward(self, batch: dict[str, Any], **kwargs: Any) -> dict[str, Any]:
        mask, batch = _split(batch)
        return _masked(super()._forward(batch, **kwargs), mask)

    def _forward_train(self, batch: dict[str, Any], **kwargs: Any) -> dict[str, Any]:
        mask, batch = _split(batch)
        return _masked(super()._forward_train(batch, **kwargs), mask)

    def compute_values(self, batch: dict[str, Any], embeddings: Any = None) -> Any:
        """The critic's value of each observation (the mask is not read)."""
        return super().compute_values(_split(batch)[1], embeddings)


def _split(batch: dict[str, Any]) -> tuple[Any, dict[str, Any]]:
    # The mask, and a shallow copy of the batch whose OBS is the vector (the caller's batch is
    # left as it was: RLlib reuses it).
    obs = batch[Columns.OBS]
    if not isinstance(obs, dict):
        return None, batch
    return obs[ACTION_MASK], {**batch, Columns.OBS: obs[OBSERVATIONS]}


def _masked(output: dict[str, Any], mask: Any) -> dict[str, Any]:
    if mask is not None:
        logits = output[Columns.ACTION_DIST_INPUTS]
        output[Columns.ACTION_DIST_INPUTS] = torch.where(
            mask > 0, logits, torch.full_like(logits, FLOAT_MIN)
        )
    return output


def actor_layers(module: MaskedPPOTorchRLModule) -> list[torch.nn.Linear]:
    """The actor's linear layers in order: the actor encoder's hidden layers, then the policy
    head (RLlib's default ``vf_share_layers=False`` keeps the critic apart)."""
    encoder = getattr(module.encoder, "actor_encoder", module.encoder)
    return [
        layer
        for part in (encoder, module.pi)
        for layer in part.modules()
        if isinstance(layer, torch.nn.Linear)
    ]


def numpy_policy(module: MaskedPPOTorchRLModule) -> NumpyPolicy:
    """The actor of ``module`` as a :class:`~agents.players.policy.NumpyPolicy` (same logits)."""
    activation = module.model_config.get("fcnet_activation", "tanh")
    if activation not in ACTIVATIONS:
        raise ValueError(f"fcnet_activation must be one of {sorted(ACTIVATIONS)}, got {activation}")
    with torch.no_grad():
        layers = actor_layers(module)
        weights = [np.ascontiguousarray(m.weight.cpu().numpy().T, np.float32) for m in layers]
        biases = [m.bias.cpu().numpy().astype(np.float32) for m in layers]
    return NumpyPolicy(weights, biases, ACTIVATIONS[activation])
