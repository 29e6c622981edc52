"""Trained policies as agents: a MaskablePPO model saved by ``train.py`` (a ``.zip`` file)."""

from __future__ import annotations

from functools import lru_cache
from pathlib import Path
from typing import Any

import numpy as np

from agents.view import legal_bits

# The model ``boon play --opponents ppo`` and the bare ``ppo`` spec load.
DEFAULT_MODEL = Path(__file__).parent / "models" / "boon_ppo_4p.zip"


class PPOAgent:
    """Plays the most likely legal action of a saved ``sb3_contrib.MaskablePPO`` policy.

    Raises:
        ValueError: naming the path, when the file is missing or is not a loadable model.
    """

    def __init__(self, path: str | Path = DEFAULT_MODEL, name: str | None = None) -> None:
        path = Path(path)
        if not path.is_file():
            hint = " (the packaged model; train one with train.py)" if path == DEFAULT_MODEL else ""
            raise ValueError(f"no trained model at {path}{hint}")
        try:
            stat = path.stat()
            self.model = _load(str(path.resolve()), stat.st_mtime_ns, stat.st_size)
        except Exception as error:  # zip, pickle and torch all raise their own kinds
            raise ValueError(f"could not load a MaskablePPO model from {path}: {error}") from error
        self.name = name or f"ppo:{path}"
        # The same argmax in numpy is ~100x faster than predict() per single observation.
        from boon_env.selfplay import NumpyPolicy

        try:
            self._fast: NumpyPolicy | None = NumpyPolicy.from_sb3(self.model.policy)
        except (AttributeError, ValueError):  # a policy that is not a plain MLP
            self._fast = None

    def act(self, observation: np.ndarray, action_mask: np.ndarray) -> int:
        """The policy's deterministic choice among the legal actions."""
        if self._fast is not None:
            return self._fast.greedy(observation, action_mask)
        action, _ = self.model.predict(
            observation, action_masks=np.asarray(action_mask, dtype=bool), deterministic=True
        )
        return int(action)

    def reset(self, seed: int | None = None) -> None:
        """Nothing to reset: the policy is deterministic and stateless."""


class PolicyAgent:
    """An in-memory policy snapshot (:class:`~boon_env.selfplay.NumpyPolicy`) as an agent:
    greedy, or sampling from the masked policy with its own generator (seeded by ``reset``)."""

    def __init__(self, policy: Any, deterministic: bool = True, name: str = "policy") -> None:
        self.policy = policy
        self.deterministic = deterministic
        self.name = name
        self._rng = np.random.default_rng()

    def act(self, observation: np.ndarray, action_mask: np.ndarray) -> int:
        """The greedy or a sampled legal action of the policy."""
        if self.deterministic:
            return self.policy.greedy(observation, action_mask)
        return self.policy.act(observation, legal_bits(action_mask), self._rng)

    def reset(self, seed: int | None = None) -> None:
        """Reseed the sampling generator (``None`` keeps the current stream)."""
        if seed is not None:
            self._rng = np.random.default_rng(seed)


@lru_cache(maxsize=8)
def _load(path: str, mtime_ns: int, size: int) -> Any:
    # The arena builds its agents once per chunk of deals and loading costs about a second;
    # the policy is only read, so agents of the same (unchanged) file share one model.
    from sb3_contrib import MaskablePPO  # here so that the other agents never load torch

    return MaskablePPO.load(path, device="cpu")
