"""Sets of small integers (card ids, seats) as ``int`` bitmasks: bit ``i`` set = ``i`` in it."""

from __future__ import annotations

from collections.abc import Iterable


def mask_of(ids: Iterable[int]) -> int:
    """The bitmask of a collection of ids."""
    mask = 0
    for i in ids:
        mask |= 1 << i
    return mask


# The set bits of every 16-bit number, and the same shifted up by 16, so that listing a
# 32-bit set costs two lookups.
_LOW_IDS: tuple[tuple[int, ...], ...] = tuple(
    tuple(bit for bit in range(16) if half >> bit & 1) for half in range(1 << 16)
)
_HIGH_IDS: tuple[tuple[int, ...], ...] = tuple(tuple(bit + 16 for bit in ids) for ids in _LOW_IDS)


def bits_of(mask: int) -> tuple[int, ...]:
    """The ids in a bitmask (``mask >= 0``), ascending."""
    ids = _LOW_IDS[mask & 0xFFFF] + _HIGH_IDS[mask >> 16 & 0xFFFF]
    above = mask >> 32
    if above:  # rare: the card games' sets fit in 32 bits or barely exceed them
        ids += tuple(bit + 32 for bit in bits_of(above))
    return ids
