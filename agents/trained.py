"""Trained policies as agents: a MaskablePPO model saved by ``train.py`` (a ``.zip`` file)."""

from __future__ import annotations

from pathlib import Path

import numpy as np

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
        # Imported here so that the other agents never pay for loading torch.
        from sb3_contrib import MaskablePPO

        try:
            self.model = MaskablePPO.load(path, device="cpu")
        except Exception as error:  # zip, pickle and torch all raise their own kinds
            raise ValueError(f"could not load a MaskablePPO model from {path}: {error}") from error
        self.name = name or f"ppo:{path}"

    def act(self, observation: np.ndarray, action_mask: np.ndarray) -> int:
        """The policy's deterministic choice among the legal actions."""
        action, _ = self.model.predict(
            observation, action_masks=np.asarray(action_mask, dtype=bool), deterministic=True
        )
        return int(action)

    def reset(self, seed: int | None = None) -> None:
        """Nothing to reset: the policy is deterministic and stateless."""
