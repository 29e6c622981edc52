"""Wrappers of the single-agent envs for algorithms that take a plain ``Box`` observation."""

from __future__ import annotations

from typing import Any

import gymnasium as gym
import numpy as np


class ObservationOnly(gym.ObservationWrapper):
    """The observation vector alone (the ``"observation"`` entry of the Dict), for algorithms
    that read a ``Box`` (stable-baselines3's ``MlpPolicy``). Without the mask an algorithm
    needs ``illegal_action="penalty"`` (the default); a masked one (sb3-contrib's
    MaskablePPO) still reads the legal actions from the env's ``action_masks()``.
    """

    def __init__(self, env: gym.Env) -> None:
        super().__init__(env)
        self.observation_space = env.observation_space["observation"]

    def observation(self, observation: dict[str, Any]) -> np.ndarray:
        """The ``"observation"`` vector."""
        return observation["observation"]
