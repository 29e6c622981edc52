"""Trained policies as plain arrays: the numpy MLP and its pickle-free model files.

A model is two files side by side: ``NAME.npz`` holds the actor's weights (``w0, b0, w1, b1,
...``, read with ``np.load(..., allow_pickle=False)``, so loading runs no code) and
``NAME.json`` its metadata:

| key | meaning |
| --- | --- |
| ``format``, ``version`` | ``"boon-env-policy"``, 1 |
| ``game`` | ``"boon"``, ``"bon"`` or ``"boyn"``: the game it plays |
| ``num_players`` | the table size it was trained for |
| ``observation`` | ``{"size": ..., "fingerprint": ...}``: a hash of the game's observation layout |
| ``num_actions`` | the game's action count (34 for Boon and B.O.N, 88 for BOYN) |
| ``activation`` | ``"tanh"`` or ``"relu"`` (between hidden layers) |
| ``layers`` | the layer widths, input first: ``[482, 256, 256, 34]`` |
| ``provenance`` | free-form: the command, seed, wall time, arena results |

:func:`load_policy` checks all of it against this version of the game's environment and raises
:class:`ModelFileError` naming the file and what does not match (a model of another game too).
Nothing here imports torch; :meth:`NumpyPolicy.from_sb3` (for stable-baselines3 models in
training and for ``.zip`` files a user trusts) imports it when called.
"""

from __future__ import annotations

import hashlib
import itertools
import json
import zipfile
import zlib
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import numpy as np

from agents import untrusted
from boon_env.core.pieces import action_mask
from boon_env.games import env_spec

FORMAT = "boon-env-policy"
VERSION = 1
ACTIVATIONS = ("tanh", "relu")
# Logits closer than this are re-decided one row at a time by greedy_batch: float32 rounding
# differences between batched and one-row products are around 1e-6, far below it.
TIE_MARGIN = 1e-3
# Likewise sample_batch re-decides a row whose uniform lies this close to a boundary of its
# cumulative probabilities (which the rounding moves by about 1e-6).
SAMPLE_MARGIN = 1e-4


# Files written before the format named its game hold players of the first game, Boon.
_FIRST_GAME = "boon"


class ModelFileError(ValueError):
    """A model file that is missing, unreadable, or made for another game, table or layout
    (the message names the path and what is wrong)."""


def observation_fingerprint(game: str | None = None) -> str:
    """A short hash of ``game``'s observation layout (piece names and shapes, in order; ``None``:
    the default game): a model trained on another layout reads the vector wrongly, so loading
    compares it."""
    pieces = env_spec(game).layout.pieces
    layout = ";".join(f"{p.name}:{'x'.join(map(str, p.shape))}" for p in pieces)
    return hashlib.sha256(layout.encode()).hexdigest()[:16]


def observation_signature(game: str | None = None) -> dict[str, Any]:
    """``{"size": ..., "fingerprint": ...}`` of ``game``'s observation, as model files store it."""
    size = sum(piece.size for piece in env_spec(game).layout.pieces)
    return {"size": size, "fingerprint": observation_fingerprint(game)}


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
    # batch_logits' first layer: which inputs some batch has set (bool), their column indices
    # and those rows of weights[0]; grown when a batch sets a new input.
    _first_layer: tuple[np.ndarray, np.ndarray, np.ndarray] | None = field(
        default=None, init=False, repr=False, compare=False
    )

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

    def batch_logits(self, obs: np.ndarray) -> np.ndarray:
        """:meth:`logits` of a batch ``(k, in)`` of observations, computed faster (they agree to
        float32 rounding, about 1e-6, not bit for bit).

        Observations are mostly zeros, and many inputs are never set at a given table size
        (the rows of absent seats, the observer's own card in the trick it must play to): the
        first product skips the input columns that no batch so far has set, about a quarter
        of its multiply-adds at 4 players (those rows of ``weights[0]`` are cached: treat the
        weights as read-only). Biases and activations are applied in place.
        """
        obs = np.asarray(obs, dtype=np.float32)
        used = obs.any(axis=0)
        if self._first_layer is None or (used > self._first_layer[0]).any():
            seen = used if self._first_layer is None else used | self._first_layer[0]
            columns = np.flatnonzero(seen)
            self._first_layer = (seen, columns, self.weights[0][columns])
        _, columns, first_rows = self._first_layer
        x = obs[:, columns] @ first_rows
        last = len(self.weights) - 1
        for i, (w, b) in enumerate(zip(self.weights, self.biases, strict=True)):
            if i:
                x = x @ w
            x += b
            if i < last:
                if self.activation == "tanh":
                    np.tanh(x, out=x)
                else:
                    np.maximum(x, 0.0, out=x)
        return x

    def probabilities(self, obs: np.ndarray, mask: np.ndarray) -> np.ndarray:
        """The masked softmax: the policy's probability of each action (0 where illegal)."""
        return _masked_softmax(self.logits(np.asarray(obs, dtype=np.float32)), mask)

    def greedy(self, obs: np.ndarray, mask: np.ndarray) -> int:
        """The legal action (``mask`` != 0) with the highest logit: what SB3's deterministic
        ``predict(..., action_masks=mask)`` returns, at a fraction of its cost."""
        logits = self.logits(np.asarray(obs, dtype=np.float32))
        return int(np.argmax(np.where(np.asarray(mask) != 0, logits, -np.inf)))

    def greedy_batch(self, obs: np.ndarray, masks: np.ndarray) -> np.ndarray:
        """:meth:`greedy` for every row of ``obs`` (k, obs size) and ``masks`` (k, actions), with
        the same choices: a batched matrix product rounds differently from a one-row one, so
        where the two best legal logits lie within ``TIE_MARGIN`` of each other the row is
        decided by :meth:`greedy` itself. Rows with one legal action need no forward pass."""
        legal = np.asarray(masks) != 0
        actions = np.argmax(legal, axis=1)  # the only legal action, where there is one
        # Row sums of a narrow int8 matrix: einsum is many times faster than sum(axis=1).
        rows = np.flatnonzero(np.einsum("ij->i", legal.view(np.int8)) > 1)
        if not rows.size:
            return actions
        logits = self.batch_logits(obs if rows.size == len(obs) else obs[rows])
        logits[~legal[rows]] = -np.inf
        best = np.argmax(logits, axis=1)
        actions[rows] = best
        every = np.arange(rows.size)
        top = logits[every, best]
        logits[every, best] = -np.inf
        for row in rows[top - logits.max(axis=1) < TIE_MARGIN]:
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
        masked softmax (one uniform from ``rng``)."""
        mask = action_mask(legal, self.layers[-1])
        if deterministic or rng is None:
            return self.greedy(obs, mask)
        return int(
            self._sample(np.asarray(obs)[None], mask[None], rng.random(1), self.logits)[0][0]
        )

    def sample(self, obs: np.ndarray, mask: np.ndarray, rng: np.random.Generator) -> np.ndarray:
        """One sample from the masked softmax per row of a batch (``obs`` ``(N, obs size)``,
        ``mask`` ``(N, actions)``, nonzero = legal): ``(N,)`` int64 actions, one uniform each, with
        the fast batched pass (where a uniform falls within rounding of a boundary, the choice
        may differ from :meth:`act`'s; :meth:`sample_batch` makes :meth:`act`'s choices)."""
        return self._sample(obs, mask, rng.random(len(obs)), self.batch_logits)[0]

    def sample_batch(self, obs: np.ndarray, mask: np.ndarray, uniforms: np.ndarray) -> np.ndarray:
        """The choices :meth:`act` makes row by row with these uniforms (one per row): drawn
        with the batched pass, except where a uniform lies within ``SAMPLE_MARGIN`` of a
        boundary of the row's cumulative probabilities, which the batched product's rounding
        could move: those rows are drawn as :meth:`act` draws them."""
        choice, close = self._sample(obs, mask, uniforms, self.batch_logits)
        for row in np.flatnonzero(close):
            one = slice(row, row + 1)
            choice[row] = self._sample(obs[one], mask[one], uniforms[one], self.logits)[0][0]
        return choice

    @staticmethod
    def _sample(
        obs: np.ndarray, mask: np.ndarray, uniforms: np.ndarray, forward: Any
    ) -> tuple[np.ndarray, np.ndarray]:
        # The choices with logits from ``forward``, and which rows' thresholds lie within
        # SAMPLE_MARGIN of a boundary of their cumulative probabilities.
        logits = forward(np.asarray(obs, dtype=np.float32))
        cumulative = np.cumsum(_masked_softmax(logits, mask), axis=1)
        threshold = np.asarray(uniforms)[:, None] * cumulative[:, -1:]
        # Row sums of a narrow matrix: einsum is many times faster than sum(axis=1).
        choice = np.einsum("ij->i", (cumulative <= threshold).view(np.int8)).astype(np.int64)
        close = (np.abs(cumulative - threshold) < SAMPLE_MARGIN).any(axis=1)
        # Guard against rounding at the top end landing on a masked action.
        rows = np.arange(len(choice))
        legal = np.asarray(mask) != 0
        actions = cumulative.shape[1]
        bad = (choice >= actions) | ~legal[rows, np.minimum(choice, actions - 1)]
        if bad.any():
            choice[bad] = np.argmax(np.where(legal[bad], logits[bad], -np.inf), axis=1)
        return choice, close

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


def _masked_softmax(logits: np.ndarray, mask: np.ndarray) -> np.ndarray:
    # In float64, so that the probabilities of a row add up to 1 closely enough to sample.
    logits = np.where(np.asarray(mask) != 0, logits.astype(np.float64), -np.inf)
    weights = np.exp(logits - logits.max(axis=-1, keepdims=True))
    return weights / weights.sum(axis=-1, keepdims=True)


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
    game: str | None = None,
) -> Path:
    """Write ``policy``, a player of ``game`` (``None``: the default game), as ``NAME.npz`` +
    ``NAME.json`` (see the module docstring); returns the ``.npz`` path."""
    spec = env_spec(game)
    weights_path, meta_path = model_paths(path)
    weights_path.parent.mkdir(parents=True, exist_ok=True)
    np.savez(weights_path, **policy.arrays())
    metadata = {
        "format": FORMAT,
        "version": VERSION,
        "game": spec.name,
        "num_players": num_players,
        "observation": observation_signature(spec.name),
        "num_actions": spec.num_actions,
        "activation": policy.activation,
        "layers": policy.layers,
        "provenance": provenance or {},
    }
    meta_path.write_text(json.dumps(metadata, indent=2) + "\n")
    return weights_path


def load_policy(
    path: str | Path, num_players: int | None = None, game: str | None = None
) -> tuple[NumpyPolicy, dict]:
    """Read a model of ``game`` (``None``: the default game) written by :func:`save_policy`;
    returns the policy and its metadata.

    Every size is checked before anything is allocated: the metadata file's size and nesting,
    the layer widths against the game's observation size and action count, and each array's
    type and shape in its header against those widths, before it is decompressed.

    Raises:
        ModelFileError: naming the file and what is wrong: a missing or unreadable file, a
            format or version this code does not read, weights that do not match the
            metadata, a model of another game or for another observation layout, or (when
            ``num_players`` is given) for another table size.
    """
    weights_path, meta_path = model_paths(path)
    for file in (weights_path, meta_path):
        if not file.is_file():
            raise ModelFileError(f"no model file at {file}")
    metadata = _read_metadata(meta_path)
    _check_metadata(meta_path, metadata, num_players, env_spec(game).name)
    shapes = _layer_shapes(metadata["layers"])
    try:
        arrays = _read_weights(weights_path, shapes)
        policy = NumpyPolicy.from_arrays(arrays, metadata["activation"])
    except (OSError, ValueError, EOFError, zipfile.BadZipFile, zlib.error) as error:
        raise ModelFileError(f"{weights_path} holds no readable policy weights: {error}") from None
    return policy, metadata


# The metadata of a shipped model is under 2 KB, nested 3 deep: far larger or deeper ones are
# not model files (and a deep one would reach Python's recursion limit while parsing).
MAX_METADATA_BYTES = 1 << 20
MAX_METADATA_NESTING = 32
# The largest model read: 2**26 weights (256 MiB of float32), many times any trained here.
MAX_PARAMETERS = 1 << 26
MAX_LAYERS = 32


def _read_metadata(path: Path) -> Any:
    try:
        with path.open("rb") as file:
            raw = file.read(MAX_METADATA_BYTES + 1)
        if len(raw) > MAX_METADATA_BYTES:
            raise ValueError(f"larger than {MAX_METADATA_BYTES} bytes")
        return untrusted.loads(raw.decode("utf-8"), MAX_METADATA_NESTING)
    except (OSError, UnicodeDecodeError, ValueError) as error:
        raise ModelFileError(f"{path} is not model metadata (JSON): {error}") from None


def _layer_shapes(layers: list[int]) -> dict[str, tuple[int, ...]]:
    """The shape of every array the ``.npz`` must hold (``w0, b0, ...``) for these widths."""
    shapes: dict[str, tuple[int, ...]] = {}
    for i, (inputs, outputs) in enumerate(itertools.pairwise(layers)):
        shapes[f"w{i}"], shapes[f"b{i}"] = (inputs, outputs), (outputs,)
    return shapes


def _read_weights(path: Path, shapes: dict[str, tuple[int, ...]]) -> dict[str, np.ndarray]:
    """The arrays of a ``.npz`` whose members are exactly ``shapes``' names, each checked
    (float type, shape, stored size) from its header before it is read."""
    arrays = {}
    with zipfile.ZipFile(path) as archive:
        members = {info.filename.removesuffix(".npy"): info for info in archive.infolist()}
        if set(members) != set(shapes):
            raise ValueError(f"expected arrays {', '.join(shapes)}, got {', '.join(members)}")
        for name, shape in shapes.items():
            info = members[name]
            # A header is at most a few hundred bytes: a member far larger than its data is
            # not these weights (and is never decompressed).
            if info.file_size > 8 * int(np.prod(shape)) + 4096:
                raise ValueError(f"array {name} holds {info.file_size} bytes, too many for {shape}")
            with archive.open(info) as member:
                arrays[name] = _read_array(member, name, shape)
    return arrays


def _read_array(member: Any, name: str, shape: tuple[int, ...]) -> np.ndarray:
    version = np.lib.format.read_magic(member)
    if version not in ((1, 0), (2, 0)):
        raise ValueError(f"array {name}: .npy format version {version} is not read")
    read_header = (
        np.lib.format.read_array_header_1_0
        if version == (1, 0)
        else np.lib.format.read_array_header_2_0
    )
    stored_shape, fortran, dtype = read_header(member)
    if dtype.kind != "f" or dtype.fields is not None or dtype.itemsize not in (2, 4, 8):
        raise ValueError(f"array {name} is of type {dtype}, not floating point")
    if stored_shape != shape:
        raise ValueError(f"array {name} has shape {stored_shape}, the layers say {shape}")
    count = int(np.prod(shape))
    data = member.read(count * dtype.itemsize + 1)
    if len(data) != count * dtype.itemsize:
        raise ValueError(
            f"array {name} holds {len(data)} bytes of data, not {count * dtype.itemsize}"
        )
    array = np.frombuffer(data, dtype=dtype).reshape(shape, order="F" if fortran else "C").copy()
    if not np.isfinite(array).all():
        raise ValueError(f"array {name} holds values that are not finite")
    return array


def _check_metadata(path: Path, metadata: Any, num_players: int | None, game: str) -> None:
    if not isinstance(metadata, dict) or metadata.get("format") != FORMAT:
        raise ModelFileError(f"{path} is not a {FORMAT} model file")
    if metadata.get("version") != VERSION:
        raise ModelFileError(
            f"{path} is format version {metadata.get('version')!r}; this code reads {VERSION}"
        )
    if metadata.get("activation") not in ACTIVATIONS:
        raise ModelFileError(f"{path}: 'activation' must be one of {ACTIVATIONS}")
    made_for_game = metadata.get("game", _FIRST_GAME)
    if made_for_game != game:
        raise ModelFileError(f"{path} is a {made_for_game} model, but the game is {game}")
    expected = observation_signature(game)
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
    _check_layers(path, metadata.get("layers"), game)  # once it is this game's model


def _check_layers(path: Path, layers: Any, game: str) -> None:
    """``layers``: widths from the game's observation size to its action count, of a model
    no larger than ``MAX_PARAMETERS``."""
    if (
        not isinstance(layers, list)
        or not 2 <= len(layers) <= MAX_LAYERS
        or not all(type(width) is int and 1 <= width <= MAX_PARAMETERS for width in layers)
    ):
        raise ModelFileError(
            f"{path}: 'layers' must be 2-{MAX_LAYERS} positive integer widths, got {layers!r:.80}"
        )
    size, actions = observation_signature(game)["size"], env_spec(game).num_actions
    if layers[0] != size or layers[-1] != actions:
        raise ModelFileError(
            f"{path}: 'layers' {layers} must take {game}'s {size} observation inputs and give "
            f"its {actions} actions"
        )
    parameters = sum(a * b + b for a, b in itertools.pairwise(layers))
    if parameters > MAX_PARAMETERS:
        raise ModelFileError(f"{path}: {parameters} weights, more than {MAX_PARAMETERS} are read")
