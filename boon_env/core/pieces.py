"""Observation vectors built from named pieces.

A game's encoder lists its pieces once, in order; a :class:`Layout` made from that list gives
each piece's offset, the vector's size, the decoder back into named arrays and the Markdown
table of the documentation, so none of them can drift from the encoder.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from functools import lru_cache

import numpy as np


@dataclass(frozen=True)
class Piece:
    """One named block of the observation vector."""

    name: str
    shape: tuple[int, ...]
    description: str

    @property
    def size(self) -> int:
        """Number of entries of the block."""
        return int(np.prod(self.shape))


class Layout:
    """Named pieces laid end to end in one flat vector.

    Attributes:
        pieces: the pieces, in vector order.
        offsets: piece name -> index of its first entry.
        size: length of the whole vector.
    """

    def __init__(self, pieces: Sequence[Piece]) -> None:
        self.pieces = tuple(pieces)
        self.offsets: dict[str, int] = {}
        offset = 0
        for piece in self.pieces:
            if piece.name in self.offsets:
                raise ValueError(f"piece name {piece.name!r} is used twice")
            self.offsets[piece.name] = offset
            offset += piece.size
        self.size = offset

    def decode(self, obs: np.ndarray) -> dict[str, np.ndarray]:
        """Split an observation vector back into its named pieces, each in its own shape."""
        obs = np.asarray(obs)
        if obs.shape != (self.size,):
            raise ValueError(f"observation must have shape ({self.size},), got {obs.shape}")
        offsets = self.offsets
        return {
            p.name: obs[offsets[p.name] : offsets[p.name] + p.size].reshape(p.shape)
            for p in self.pieces
        }

    def table(self) -> str:
        """The layout as a Markdown table (index range, shape, meaning)."""
        rows = ["| index | piece | shape | meaning |", "| --- | --- | --- | --- |"]
        for p in self.pieces:
            start = self.offsets[p.name]
            rows.append(
                f"| {start}-{start + p.size - 1} | `{p.name}` | {p.shape} | {p.description} |"
            )
        return "\n".join(rows)


# Each byte with its bits in reverse order (see unpack_bits).
_BITS_REVERSED = bytes(int(f"{byte:08b}"[::-1], 2) for byte in range(256))


def unpack_bits(bits: int, count: int) -> np.ndarray:
    """Bits ``0 .. count - 1`` of ``bits`` as a uint8 array of 0/1 (bit ``i`` at index ``i``).

    Encoders set the 0/1 part of an observation in one Python int and unpack it with a single
    numpy call, which is much cheaper than writing the entries one by one.
    """
    unpacked = _unpack_bytes(bits, (count + 7) // 8)
    return unpacked[:count] if count & 7 else unpacked


def _unpack_bytes(bits: int, num_bytes: int) -> np.ndarray:
    """Bits ``0 .. 8 * num_bytes - 1`` of ``bits`` as a uint8 array of 0/1."""
    # np.unpackbits runs fastest without keywords, in its default "big" bit order over whole
    # bytes; reversing each byte's bits first puts bit i at index i.
    little = bits.to_bytes(num_bytes, "little").translate(_BITS_REVERSED)
    return np.unpackbits(np.frombuffer(little, np.uint8))


def bits_then_fractions(bits: int, num_bits: int, fractions: list[float], size: int) -> np.ndarray:
    """An observation vector (float32, ``size`` entries): bits ``0 .. num_bits - 1`` of ``bits``
    as 0/1, then the ``size - num_bits`` entries of ``fractions``."""
    obs = np.empty(size, np.float32)
    num_bytes = (num_bits + 7) // 8
    if 8 * num_bytes <= size:  # unpack whole bytes: the fractions overwrite the bits past num_bits
        obs[: 8 * num_bytes] = _unpack_bytes(bits, num_bytes)
    else:
        obs[:num_bits] = unpack_bits(bits, num_bits)
    obs[num_bits:] = fractions
    return obs


def action_mask(legal: int, num_actions: int) -> np.ndarray:
    """The int8 mask of shape ``(num_actions,)`` of a legal-action bitmask (a fresh array)."""
    return _cached_mask(legal, num_actions).copy()


@lru_cache(maxsize=4096)
def _cached_mask(legal: int, num_actions: int) -> np.ndarray:
    # The same few legal sets come back again and again: copying a cached mask is cheaper.
    mask = unpack_bits(legal, num_actions).view(np.int8)
    mask.flags.writeable = False  # shared by every call: only its copies leave this module
    return mask
