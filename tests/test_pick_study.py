"""The pick study plays each studied decision both ways on the same deal."""

import pytest

from agents.pick_study import PickRow, PickSample, break_even, by_strength, study


@pytest.mark.parametrize("num_players", [3, 4, 5])
def test_every_seat_is_studied_with_a_picker_payout_when_it_picks(num_players):
    samples = study(num_players, deals=10, seed=1)
    assert len(samples) == 10 * num_players
    assert sorted({s.order for s in samples}) == list(range(num_players))
    opponents = num_players - 1
    # A picker wins or loses 1 or 2 Victory Cards from each opponent, never anything else.
    allowed = {k * opponents for k in (-2, -1, 1, 2)}
    assert {s.pick_value for s in samples} <= allowed
    assert all(abs(s.pass_value) <= 2 * opponents for s in samples)


def test_study_is_reproducible():
    assert study(4, deals=5, seed=3) == study(4, deals=5, seed=3)


def test_rows_group_by_strength_and_order():
    samples = [
        PickSample(order=0, strength=1.0, gold=1, pick_value=-3.0, pass_value=0.0),
        PickSample(order=0, strength=1.5, gold=1, pick_value=-6.0, pass_value=1.0),
        PickSample(order=0, strength=8.0, gold=6, pick_value=3.0, pass_value=-1.0),
        PickSample(order=0, strength=9.0, gold=7, pick_value=6.0, pass_value=0.0),
        PickSample(order=1, strength=9.0, gold=7, pick_value=-6.0, pass_value=0.0),
    ]
    rows = by_strength(samples, edges=[0, 5, 10], order=0)
    assert [(r.low, r.count) for r in rows] == [(0, 2), (5, 2)]
    assert rows[0].gain == pytest.approx(-5.0) and rows[1].gain == pytest.approx(5.0)
    assert break_even(rows) == 5


def test_break_even_needs_every_higher_bin_to_gain():
    def row(low, gain):
        return PickRow(low, low + 1, 10, 0.0, 0.0, gain, 0.1)

    assert break_even([row(0, -1), row(1, 1), row(2, -0.5), row(3, 2)]) == 3
    assert break_even([row(0, -1), row(1, -2)]) is None
