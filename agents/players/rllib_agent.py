"""A policy trained by ``train_rllib.py`` as a player: the agent spec ``rllib:CHECKPOINT_DIR``.

The checkpoint is the directory ``train_rllib.py --out DIR`` writes (RLlib's
``Algorithm.save_to_path`` layout plus ``boon_rllib.json``, which names the table size and the
learner modules). The learner's RLModule is loaded with RLlib's own API,
``RLModule.from_checkpoint``, and plays its most likely legal action (deterministic), like
``ppo`` players. Loading runs RLlib's deserialisation of the module: use your own checkpoints.
"""

from __future__ import annotations

import json
from collections.abc import Sequence
from functools import lru_cache
from pathlib import Path
from typing import Any

import numpy as np
import torch
from ray.rllib.core import (
    COMPONENT_LEARNER,
    COMPONENT_LEARNER_GROUP,
    COMPONENT_RL_MODULE,
)
from ray.rllib.core.columns import Columns
from ray.rllib.core.rl_module.rl_module import RLModule

from agents.players.policy import ModelFileError

META_FILE = "boon_rllib.json"


def module_path(checkpoint: Path, module: str) -> Path:
    """Where RLlib's checkpoint keeps the state of one RLModule."""
    return checkpoint / COMPONENT_LEARNER_GROUP / COMPONENT_LEARNER / COMPONENT_RL_MODULE / module


def read_meta(checkpoint: str | Path) -> dict[str, Any]:
    """The ``boon_rllib.json`` of a ``train_rllib.py`` checkpoint.

    Raises:
        ModelFileError: naming the directory, when it or its ``boon_rllib.json`` is missing or
            unreadable.
    """
    checkpoint = Path(checkpoint)
    if not checkpoint.is_dir():
        raise ModelFileError(f"no RLlib checkpoint directory at {checkpoint}")
    try:
        meta = json.loads((checkpoint / META_FILE).read_text())
        meta["num_players"], meta["learners"][0]
    except (OSError, ValueError, KeyError, IndexError, TypeError) as error:
        raise ModelFileError(
            f"{checkpoint} is not a train_rllib.py checkpoint ({META_FILE}: {error})"
        ) from None
    return meta


class RLlibAgent:
    """Plays the learner module of a ``train_rllib.py`` checkpoint (greedy over legal actions).

    Raises:
        ModelFileError: naming the checkpoint, when it is missing or corrupt, or was trained
            for another table size than ``num_players``.
    """

    def __init__(
        self, checkpoint: str | Path, name: str | None = None, num_players: int | None = None
    ) -> None:
        checkpoint = Path(checkpoint)
        meta = read_meta(checkpoint)
        if num_players is not None and meta["num_players"] != num_players:
            raise ModelFileError(
                f"{checkpoint} was trained for {meta['num_players']} players, not {num_players}"
            )
        # The checkpoint is rewritten in place during training: its time is part of the key.
        written = (checkpoint / META_FILE).stat().st_mtime_ns
        path = module_path(checkpoint.resolve(), meta["learners"][0])
        self.module = _load_module(str(path), written)
        self.name = name or f"rllib:{checkpoint}"

    batched = True  # acts on many tables at once (act_batch): the arena's batched path
    observes = True

    def act(self, observation: np.ndarray, action_mask: np.ndarray) -> int:
        """The module's most likely legal action."""
        return int(self.act_batch(observation[None], action_mask[None], np.zeros(1, int))[0])

    def act_batch(
        self, observations: np.ndarray, masks: np.ndarray, tables: np.ndarray
    ) -> np.ndarray:
        """:meth:`act` for every row, in one forward pass; ``tables`` is not needed: the
        policy keeps no state."""
        batch = {
            Columns.OBS: {
                "observations": torch.as_tensor(observations, dtype=torch.float32),
                "action_mask": torch.as_tensor(masks, dtype=torch.float32),
            }
        }
        with torch.no_grad():
            logits = self.module.forward_inference(batch)[Columns.ACTION_DIST_INPUTS]
        # Illegal actions are never chosen, whatever the module's masking.
        logits = logits.masked_fill(batch[Columns.OBS]["action_mask"] == 0, -torch.inf)
        return torch.argmax(logits, dim=1).numpy().astype(np.int64)

    def reset(self, seed: int | None = None) -> None:
        """Nothing to reset: the policy is deterministic and stateless."""

    def reset_batch(self, seeds: Sequence[int]) -> None:
        """Nothing to reset (see :meth:`reset`)."""


# The arena builds agents once per chunk of deals; modules are only read, so they are shared.
@lru_cache(maxsize=8)
def _load_module(path: str, written: int) -> RLModule:
    try:
        module = RLModule.from_checkpoint(path)
    except Exception as error:  # files, pickles and torch all raise their own kinds
        first_line = str(error).strip().split("\n", 1)[0]  # RLlib's messages run to pages
        raise ModelFileError(
            f"could not load an RLlib module from {path}: {type(error).__name__}: {first_line}"
        ) from None
    module.eval()
    return module
