"""Trained policies as plain arrays: the numpy MLP and its pickle-free model files.

A model is two files side by side: ``NAME.npz`` holds the actor's weights (``w0, b0, w1, b1,
...``, read with ``np.load(..., allow_pickle=False)``, so loading runs no code) and
``NAME.json`` its metadata:

| key | meaning |
| --- | --- |
| ``format``, ``version`` | ``"boon-env-policy"``, 1 |
| ``game`` | ``"boon"`` |
| ``num_players`` | the table size it was trained for |
| ``observation`` | ``{"size": OBS_SIZE, "fingerprint": ...}``: a hash of the observation layout |
| ``num_actions`` | 34 |
| ``activation`` | ``"tanh"`` or ``"relu"`` (between hidden layers) |
| ``layers`` | the layer widths, input first: ``[482, 256, 256, 34]`` |
| ``provenance`` | free-form: the command, seed, wall time, arena results |

:func:`load_policy` checks all of it against this version of the environment and raises
:class:`ModelFileError` naming the file and what does not match. Nothing here imports torch;
:meth:`NumpyPolicy.from_sb3` (for stable-baselines3 models in training and for ``.zip`` files a
user trusts) imports it when called.
"""

from __future__ import annotations

import hashlib
import json
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import numpy as np

from boon_env.encoding import OBS_SIZE, PIECES, action_mask
from boon_env.rules import NUM_ACTIONS

FORMAT = "boon-env-policy"
VERSION = 1
ACTIVATIONS = ("tanh", "relu")
# Logits closer than this are re-decided one row at a time by greedy_batch: float32 rounding
# differences between batched and one-row products are around 1e-6, far below it.
TIE_MARGIN = 1e-3


class ModelFileError(ValueError):
    """A model file that is missing, unreadable, or made for another table or layout (the
    message names the path and what is wrong)."""


def observation_fingerprint() -> str:
    """A short hash of the observation layout (piece names and shapes, in order): a model
    trained on another layout reads the vector wrongly, so loading compares it."""
    layout = ";".join(f"{p.name}:{'x'.join(map(str, p.shape))}" for p in PIECES)
    return hashlib.sha256(layout.encode()).hexdigest()[:16]


# ------------------------------------------------------------------------------ numpy policy
@dataclass
class NumpyPolicy:
    """The actor half of an MLP policy as plain numpy arrays.

    Torch spends ~100 us per single-sample forward pass; the same MLP in numpy takes a few
    microseconds per layer, and the arrays travel cheaply to worker processes.

    Attributes:
        weights: ``(in, out)`` matrices of the hidden layers, then of the action head.
        biases: matching bias vectors.
        activation: ``"tanh"`` or ``"relu"`` (between hidden layers only).
    """

    weights: list[np.ndarray]
    biases: list[np.ndarray]
    activation: str = "tanh"

    def __post_init__(self) -> None:
        if self.activation not in ACTIVATIONS:
            raise ValueError(f"activation must be one of {ACTIVATIONS}, got {self.activation!r}")
        if len(self.weights) != len(self.biases) or not self.weights:
            raise ValueError("a policy needs one bias vector per weight matrix, at least one")
        for i, (w, b) in enumerate(zip(self.weights, self.biases, strict=True)):
            if w.ndim != 2 or b.shape != (w.shape[1],):
                raise ValueError(f"layer {i}: weights {w.shape} and bias {b.shape} do not fit")
            if i and w.shape[0] != self.weights[i - 1].shape[1]:
                raise ValueError(
                    f"layer {i} takes {w.shape[0]} inputs, the one before gives "
                    f"{self.weights[i - 1].shape[1]}"
                )

    @property
    def layers(self) -> list[int]:
        """Layer widths, input first."""
        return [self.weights[0].shape[0], *(w.shape[1] for w in self.weights)]

    @classmethod
    def from_sb3(cls, policy: Any) -> NumpyPolicy:
        """Copy the actor of a MaskablePPO ``MlpPolicy`` (``model.policy``); imports torch."""
        import torch

        linears = _sb3_actor_linears(policy)
        activation = {torch.nn.Tanh: "tanh", torch.nn.ReLU: "relu"}.get(policy.activation_fn)
        if activation is None:
            raise ValueError(f"unsupported activation {policy.activation_fn} (use Tanh or ReLU)")
        with torch.no_grad():
            weights = [m.weight.detach().cpu().numpy().T.astype(np.float32) for m in linears]
            biases = [m.bias.detach().cpu().numpy().astype(np.float32) for m in linears]
        return cls([np.ascontiguousarray(w) for w in weights], biases, activation)

    def copy_to_sb3(self, policy: Any) -> None:
        """Write these weights into the actor of a MaskablePPO ``MlpPolicy`` (the inverse of
        :meth:`from_sb3`, to fine-tune a saved player); imports torch.

        Raises:
            ValueError: the actor's layer widths or activation differ from this policy's.
        """
        import torch

        target = NumpyPolicy.from_sb3(policy)
        if target.layers != self.layers or target.activation != self.activation:
            raise ValueError(
                f"the policy has layers {self.layers} ({self.activation}), the network to "
                f"load it into has {target.layers} ({target.activation})"
            )
        with torch.no_grad():
            for module, w, b in zip(
                _sb3_actor_linears(policy), self.weights, self.biases, strict=True
            ):
                module.weight.copy_(torch.as_tensor(w.T))
                module.bias.copy_(torch.as_tensor(b))

    def logits(self, obs: np.ndarray) -> np.ndarray:
        """Unmasked action logits for one observation (or a batch)."""
        x = obs
        last = len(self.weights) - 1
        for i, (w, b) in enumerate(zip(self.weights, self.biases, strict=True)):
            x = x @ w + b
            if i < last:
                x = np.tanh(x) if self.activation == "tanh" else np.maximum(x, 0.0)
        return x

    def probabilities(self, obs: np.ndarray, mask: np.ndarray) -> np.ndarray:
        """The masked softmax: the policy's probability of each action (0 where illegal)."""
        logits = self.logits(np.asarray(obs, dtype=np.float32)).astype(np.float64)
        logits = np.where(np.asarray(mask) != 0, logits, -np.inf)
        weights = np.exp(logits - logits.max(axis=-1, keepdims=True))
        return weights / weights.sum(axis=-1, keepdims=True)

    def greedy(self, obs: np.ndarray, mask: np.ndarray) -> int:
        """The legal action (``mask`` != 0) with the highest logit: what SB3's deterministic
        ``predict(..., action_masks=mask)`` returns, at a fraction of its cost."""
        logits = self.logits(np.asarray(obs, dtype=np.float32))
        return int(np.argmax(np.where(np.asarray(mask) != 0, logits, -np.inf)))

    def greedy_batch(self, obs: np.ndarray, masks: np.ndarray) -> np.ndarray:
        """:meth:`greedy` for every row of ``obs`` (k, OBS_SIZE) and ``masks`` (k, 34), with
        the same choices: a batched matrix product rounds differently from a one-row one, so
        where the two best legal logits lie within ``TIE_MARGIN`` of each other the row is
        decided by :meth:`greedy` itself. Rows with one legal action need no forward pass."""
        legal = np.asarray(masks) != 0
        actions = np.argmax(legal, axis=1)  # the only legal action, where there is one
        rows = np.flatnonzero(legal.sum(axis=1) > 1)
        if not rows.size:
            return actions
        logits = np.where(legal[rows], self.logits(np.asarray(obs[rows], np.float32)), -np.inf)
        actions[rows] = np.argmax(logits, axis=1)
        top_two = -np.partition(-logits, 1, axis=1)[:, :2]
        for row in rows[top_two[:, 0] - top_two[:, 1] < TIE_MARGIN]:
            actions[row] = self.greedy(obs[row], masks[row])
        return actions

    def act(
        self,
        obs: np.ndarray,
        legal: int,
        rng: np.random.Generator | None = None,
        deterministic: bool = False,
    ) -> int:
        """A legal action (``legal`` is a bitmask): the masked argmax, or a sample from the
        masked softmax."""
        mask = action_mask(legal)
        if deterministic or rng is None:
            return self.greedy(obs, mask)
        return int(self.sample(np.asarray(obs)[None], mask[None], rng)[0])

    def sample(self, obs: np.ndarray, mask: np.ndarray, rng: np.random.Generator) -> np.ndarray:
        """One sample from the masked softmax per row of a batch (``obs`` ``(N, OBS_SIZE)``,
        ``mask`` ``(N, 34)``, nonzero = legal): ``(N,)`` int64 actions, one uniform each."""
        cumulative = np.cumsum(self.probabilities(obs, mask), axis=1)
        uniform = rng.random(len(cumulative))[:, None] * cumulative[:, -1:]
        choice = (cumulative <= uniform).sum(axis=1)
        # Guard against rounding at the top end landing on a masked action.
        rows = np.arange(len(choice))
        bad = (choice >= NUM_ACTIONS) | (
            np.asarray(mask)[rows, np.minimum(choice, NUM_ACTIONS - 1)] == 0
        )
        if bad.any():
            logits = self.logits(np.asarray(obs, dtype=np.float32)[bad])
            choice[bad] = np.argmax(np.where(np.asarray(mask)[bad] != 0, logits, -np.inf), axis=1)
        return choice

    def arrays(self) -> dict[str, np.ndarray]:
        """The weights as named arrays (``w0, b0, ...``), as the ``.npz`` stores them."""
        named = {}
        for i, (w, b) in enumerate(zip(self.weights, self.biases, strict=True)):
            named[f"w{i}"], named[f"b{i}"] = w, b
        return named

    @classmethod
    def from_arrays(cls, arrays: dict[str, np.ndarray], activation: str) -> NumpyPolicy:
        """Rebuild a policy from :meth:`arrays`."""
        count = len(arrays) // 2
        if set(arrays) != {f"{kind}{i}" for kind in "wb" for i in range(count)}:
            raise ValueError(
                f"expected arrays w0, b0, ... w{count - 1}, b{count - 1}, got {sorted(arrays)}"
            )
        weights = [np.asarray(arrays[f"w{i}"], dtype=np.float32) for i in range(count)]
        biases = [np.asarray(arrays[f"b{i}"], dtype=np.float32) for i in range(count)]
        return cls(weights, biases, activation)


# ------------------------------------------------------------------------------- model files
def _sb3_actor_linears(policy: Any) -> list[Any]:
    # The actor of an SB3 MlpPolicy: its hidden Linear layers, then the action head.
    import torch

    linears = [m for m in policy.mlp_extractor.policy_net if isinstance(m, torch.nn.Linear)]
    return [*linears, policy.action_net]


def model_paths(path: str | Path) -> tuple[Path, Path]:
    """The ``.npz`` and ``.json`` files of a model named by either (or by its stem)."""
    path = Path(path)
    stem = path.with_suffix("") if path.suffix in (".npz", ".json") else path
    return stem.with_name(stem.name + ".npz"), stem.with_name(stem.name + ".json")


def save_policy(
    path: str | Path,
    policy: NumpyPolicy,
    num_players: int,
    provenance: dict[str, Any] | None = None,
) -> Path:
    """Write ``policy`` as ``NAME.npz`` + ``NAME.json`` (see the module docstring); returns the
    ``.npz`` path."""
    weights_path, meta_path = model_paths(path)
    weights_path.parent.mkdir(parents=True, exist_ok=True)
    np.savez(weights_path, **policy.arrays())
    metadata = {
        "format": FORMAT,
        "version": VERSION,
        "game": "boon",
        "num_players": num_players,
        "observation": {"size": OBS_SIZE, "fingerprint": observation_fingerprint()},
        "num_actions": NUM_ACTIONS,
        "activation": policy.activation,
        "layers": policy.layers,
        "provenance": provenance or {},
    }
    meta_path.write_text(json.dumps(metadata, indent=2) + "\n")
    return weights_path


def load_policy(path: str | Path, num_players: int | None = None) -> tuple[NumpyPolicy, dict]:
    """Read a model written by :func:`save_policy`; returns the policy and its metadata.

    Raises:
        ModelFileError: a missing or unreadable file, a format or version this code does not
            read, weights that do not match the metadata, a model for another observation
            layout, or (when ``num_players`` is given) for another table size.
    """
    weights_path, meta_path = model_paths(path)
    for file in (weights_path, meta_path):
        if not file.is_file():
            raise ModelFileError(f"no model file at {file}")
    try:
        metadata = json.loads(meta_path.read_text())
    except (OSError, UnicodeDecodeError, json.JSONDecodeError) as error:
        raise ModelFileError(f"{meta_path} is not model metadata (JSON): {error}") from None
    _check_metadata(meta_path, metadata, num_players)
    try:
        with np.load(weights_path, allow_pickle=False) as stored:
            arrays = {name: stored[name] for name in stored.files}
        policy = NumpyPolicy.from_arrays(arrays, metadata["activation"])
    except (OSError, ValueError) as error:  # not a zip, a pickled array, missing layers
        raise ModelFileError(f"{weights_path} holds no readable policy weights: {error}") from None
    if policy.layers != metadata["layers"]:
        raise ModelFileError(
            f"{weights_path} has layers {policy.layers}, its metadata says {metadata['layers']}"
        )
    return policy, metadata


def _check_metadata(path: Path, metadata: Any, num_players: int | None) -> None:
    if not isinstance(metadata, dict) or metadata.get("format") != FORMAT:
        raise ModelFileError(f"{path} is not a {FORMAT} model file")
    if metadata.get("version") != VERSION:
        raise ModelFileError(
            f"{path} is format version {metadata.get('version')!r}; this code reads {VERSION}"
        )
    if metadata.get("activation") not in ACTIVATIONS or not isinstance(
        metadata.get("layers"), list
    ):
        raise ModelFileError(f"{path} lacks a valid 'activation' or 'layers' entry")
    expected = {"size": OBS_SIZE, "fingerprint": observation_fingerprint()}
    if metadata.get("observation") != expected:
        raise ModelFileError(
            f"{path} was trained on observation layout {metadata.get('observation')}, but this "
            f"environment's layout is {expected}"
        )
    made_for = metadata.get("num_players")
    if num_players is not None and made_for != num_players:
        raise ModelFileError(
            f"{path} is a {made_for}-player model, but the table has {num_players} players"
        )
