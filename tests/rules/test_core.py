"""The machinery every game shares: bitmask card sets, piece layouts, the action mask."""

from __future__ import annotations

import numpy as np
import pytest
from hypothesis import given
from hypothesis import strategies as st

from boon_env.core.bits import bits_of, mask_of
from boon_env.core.pieces import Layout, Piece, action_mask, bits_then_fractions, unpack_bits


@given(st.sets(st.integers(0, 80)))
def test_bits_of_lists_the_ids_of_mask_of_ascending(ids: set[int]) -> None:
    assert bits_of(mask_of(ids)) == tuple(sorted(ids))


def test_a_layout_lays_its_pieces_end_to_end() -> None:
    layout = Layout((Piece("a", (3,), "three"), Piece("b", (2, 2), "a square")))
    assert layout.offsets == {"a": 0, "b": 3}
    assert layout.size == 7
    pieces = layout.decode(np.arange(7))
    assert pieces["a"].tolist() == [0, 1, 2]
    assert pieces["b"].tolist() == [[3, 4], [5, 6]]
    assert layout.table().splitlines()[2:] == [
        "| 0-2 | `a` | (3,) | three |",
        "| 3-6 | `b` | (2, 2) | a square |",
    ]


def test_a_layout_refuses_a_name_twice_and_a_vector_of_another_size() -> None:
    with pytest.raises(ValueError, match="'a' is used twice"):
        Layout((Piece("a", (1,), ""), Piece("a", (2,), "")))
    with pytest.raises(ValueError, match=r"shape \(1,\), got \(2,\)"):
        Layout((Piece("a", (1,), ""),)).decode(np.zeros(2))


def test_unpack_bits_and_the_action_mask() -> None:
    assert unpack_bits(0b1011, 5).tolist() == [1, 1, 0, 1, 0]
    assert unpack_bits(1 << 8 | 1 << 15, 16).tolist() == [0] * 8 + [1] + [0] * 6 + [1]
    mask = action_mask(1 << 33 | 1, 34)
    assert mask.dtype == np.int8
    assert np.flatnonzero(mask).tolist() == [0, 33]
    mask[0] = 0  # a fresh array each time: the cached one is untouched
    assert action_mask(1 << 33 | 1, 34)[0] == 1


@pytest.mark.parametrize(("num_bits", "size"), [(5, 7), (5, 8), (5, 9), (16, 17), (3, 4)])
def test_bits_then_fractions(num_bits: int, size: int) -> None:
    bits = 0b10101 | 1 << (num_bits - 1)
    fractions = [0.25 * (i + 1) for i in range(size - num_bits)]
    obs = bits_then_fractions(bits, num_bits, fractions, size)
    assert obs.dtype == np.float32 and obs.shape == (size,)
    assert obs.tolist() == [*unpack_bits(bits, num_bits).tolist(), *fractions]
