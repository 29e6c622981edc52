"""Trained policies as agents.

``ppo`` plays a model file in numpy, without torch:

- ``NAME.npz`` + ``NAME.json`` (:mod:`agents.players.policy`): the pickle-free format ``train.py``
  writes and the project ships; loading runs no code from the file.
- ``NAME.zip``: a stable-baselines3 / sb3-contrib ``MaskablePPO`` save (for example a
  ``train.py`` checkpoint). **Such a file is unpickled, and unpickling runs code: load only
  files you trust.** It is read only when trusted explicitly (``trust_pickle=True``, or the
  ``--trust-pickle`` flag of the ``boon`` commands, which sets ``BOON_TRUST_PICKLE=1`` for
  their worker processes too), and needs the ``train`` extra (torch) to read.
"""

from __future__ import annotations

import os
from collections.abc import Sequence
from functools import lru_cache
from pathlib import Path

import numpy as np

from agents.players.base import legal_bits
from agents.players.policy import ModelFileError, NumpyPolicy, load_policy, observation_signature
from boon_env.games import env_spec

MODELS_DIR = Path(__file__).parents[1] / "models"


def default_model(num_players: int, game: str | None = None) -> Path:
    """The shipped model of ``game`` (``None``: the default game) for a table size, the one the
    bare ``ppo`` spec plays: ``agents/models/<game>_ppo_<n>p.npz``.

    Raises:
        ModelFileError: no model ships for that game and table size (naming the path).
    """
    game = env_spec(game).name
    path = MODELS_DIR / f"{game}_ppo_{num_players}p.npz"
    if not path.is_file():
        shipped = sorted(p.name for p in MODELS_DIR.glob(f"{game}_ppo_*p.npz")) or ["none"]
        raise ModelFileError(
            f"no shipped {game} ppo model at {path} (shipped: {', '.join(shipped)}); "
            f"train one with train.py --game {game} and play it as ppo:PATH"
        )
    return path


TRUST_PICKLE = "BOON_TRUST_PICKLE"  # the environment variable that trusts pickled models


def pickle_trusted() -> bool:
    """Whether the user trusted pickled (``.zip``) model files: ``BOON_TRUST_PICKLE=1``."""
    return os.environ.get(TRUST_PICKLE) == "1"


def _check_trusted(path: Path, trusted: bool) -> None:
    if not trusted:
        raise ModelFileError(
            f"{path} is a pickled stable-baselines3 file, and loading it runs code from the "
            "file; if you trust it, pass --trust-pickle (or set BOON_TRUST_PICKLE=1), or play "
            "the .npz model train.py writes beside it"
        )


class PPOAgent:
    """Plays the most likely legal action of a trained policy of ``game`` (deterministic).

    Raises:
        ModelFileError: naming the path, when the file is missing, unreadable, or made for
            another game, table size (``num_players``) or observation layout.
    """

    def __init__(
        self,
        path: str | Path,
        name: str | None = None,
        num_players: int | None = None,
        game: str | None = None,
        trust_pickle: bool | None = None,
    ) -> None:
        path, game = Path(path), env_spec(game).name
        stat = path.stat() if path.is_file() else None
        key = (str(path.resolve()), stat.st_mtime_ns if stat else 0, stat.st_size if stat else 0)
        if path.suffix == ".zip":
            _check_trusted(path, pickle_trusted() if trust_pickle is None else trust_pickle)
            self.policy = _load_zip(*key, game)
        else:
            self.policy = _load_npz(*key, num_players, game)
        self.name = name or f"ppo:{path}"

    batched = True  # acts on many tables at once (act_batch)
    observes = True

    def act(self, observation: np.ndarray, action_mask: np.ndarray) -> int:
        """The policy's deterministic choice among the legal actions."""
        return self.policy.greedy(observation, action_mask)

    def act_batch(
        self, observations: np.ndarray, masks: np.ndarray, tables: np.ndarray
    ) -> np.ndarray:
        """:meth:`act` for every row of ``observations`` and ``masks`` at once (same choices);
        ``tables`` is not needed: the policy keeps no state."""
        return self.policy.greedy_batch(observations, masks)

    def reset(self, seed: int | None = None) -> None:
        """Nothing to reset: the policy is deterministic and stateless."""

    def reset_batch(self, seeds: Sequence[int]) -> None:
        """Nothing to reset (see :meth:`reset`)."""


class PolicyAgent:
    """An in-memory :class:`~agents.players.policy.NumpyPolicy` as an agent: greedy, or sampling
    from the masked policy with its own generator (seeded by ``reset``)."""

    def __init__(self, policy: NumpyPolicy, deterministic: bool = True, name: str = "policy"):
        self.policy = policy
        self.deterministic = deterministic
        self.name = name
        self._rng = np.random.default_rng()
        self._seeds: Sequence[int] = ()
        self._rngs: dict[int, np.random.Generator] = {}

    batched = True  # acts on many tables at once (act_batch)
    observes = True

    def act(self, observation: np.ndarray, action_mask: np.ndarray) -> int:
        """The greedy or a sampled legal action of the policy."""
        if self.deterministic:
            return self.policy.greedy(observation, action_mask)
        return self.policy.act(observation, legal_bits(action_mask), self._rng)

    def act_batch(
        self, observations: np.ndarray, masks: np.ndarray, tables: np.ndarray
    ) -> np.ndarray:
        """The actions of every row, as :meth:`act` chooses them: greedy, or sampled with one
        uniform from table ``tables[j]``'s generator (seeded by :meth:`reset_batch`)."""
        if self.deterministic:
            return self.policy.greedy_batch(observations, masks)
        uniforms = np.array([self._table_rng(table).random() for table in tables.tolist()])
        return self.policy.sample_batch(observations, masks, uniforms)

    def reset_batch(self, seeds: Sequence[int]) -> None:
        """Seed one round per table, as :meth:`reset` seeds one (the generators are made when
        a table first samples; greedy play never does)."""
        self._seeds, self._rngs = seeds, {}

    def _table_rng(self, table: int) -> np.random.Generator:
        if table not in self._rngs:
            self._rngs[table] = np.random.default_rng(self._seeds[table])
        return self._rngs[table]

    def reset(self, seed: int | None = None) -> None:
        """Reseed the sampling generator (``None`` keeps the current stream)."""
        if seed is not None:
            self._rng = np.random.default_rng(seed)


# The arena builds its agents once per chunk of deals; the policies are only read, so agents of
# the same (unchanged) file share one copy. The file's size and time are part of the key.
@lru_cache(maxsize=16)
def _load_npz(
    path: str, mtime_ns: int, size: int, num_players: int | None, game: str
) -> NumpyPolicy:
    return load_policy(path, num_players, game)[0]


@lru_cache(maxsize=4)
def _load_zip(path: str, mtime_ns: int, size: int, game: str) -> NumpyPolicy:
    if not Path(path).is_file():
        raise ModelFileError(f"no model file at {path}")
    try:
        from sb3_contrib import MaskablePPO  # the train extra; only .zip files need it
    except ImportError:
        raise ModelFileError(
            f"{path} is a stable-baselines3 file; reading it needs the train extra "
            "(pip install 'boon-env[train]')"
        ) from None
    try:
        model = MaskablePPO.load(path, device="cpu")
    except Exception as error:  # zip, pickle, torch and SB3 all raise their own kinds
        raise ModelFileError(f"could not load a MaskablePPO model from {path}: {error}") from error
    shape = getattr(model.observation_space, "shape", None)
    size = observation_signature(game)["size"]
    if shape != (size,):
        raise ModelFileError(
            f"{path} takes observations of shape {shape}, but {game}'s are ({size},)"
        )
    return NumpyPolicy.from_sb3(model.policy)
