"""RULES.md "Scoring a round" and "End of the game": payout bands, Leasters, capped payments.

Exact point totals are set on finished rounds built by hand (a real round played to its end,
then given the points under test); the scripted rounds in ``test_rules_scripted.py`` reach the
29/30 and 90/91 boundaries by play.
"""

from __future__ import annotations

import numpy as np
import pytest

from boon_env.games.boon.rules import (
    PASS,
    PICK,
    Deal,
    GameConfig,
    Round,
    game_over,
    game_winners,
    leaster_winner,
    picker_stake,
    picker_won,
    round_value,
    settle,
)
from tests.helpers.boon import play_lowest


def picker_round(config: GameConfig, picker: int, picker_points: int) -> Round:
    """A finished round that ``picker`` picked, holding ``picker_points`` (the rest spread over
    the defenders)."""
    state = Round(config, Deal.random(config, np.random.default_rng(picker)), dealer=0)
    while state.current != picker:
        state.apply(PASS)
    state.apply(PICK)
    play_lowest(state)
    defenders = [seat for seat in range(config.num_players) if seat != picker]
    state.points = [0] * config.num_players
    state.points[picker] = picker_points
    state.points[defenders[0]] = 120 - picker_points
    return state


def leaster_round(config: GameConfig, points: list[int], tricks_won: list[int]) -> Round:
    """A finished Leaster given the points and tricks under test."""
    state = Round(config, Deal.random(config, np.random.default_rng(0)), dealer=0)
    while not state.leaster:
        state.apply(PASS)
    play_lowest(state)
    state.points = list(points)
    state.tricks_won = list(tricks_won)
    return state


# ----------------------------------------------------------------------------- picker bands


@pytest.mark.parametrize(
    ("points", "stake"),
    [
        (0, -2),
        (29, -2),
        (30, -1),
        (60, -1),
        (61, 1),
        (90, 1),
        (91, 2),
        (120, 2),
    ],
)
def test_picker_stake_bands_and_boundaries(points: int, stake: int) -> None:
    assert picker_stake(points) == stake


def test_picker_stake_over_every_score() -> None:
    expected = [-2] * 30 + [-1] * 31 + [1] * 30 + [2] * 30
    assert [picker_stake(p) for p in range(121)] == expected
    with pytest.raises(ValueError, match="0-120"):
        picker_stake(121)


@pytest.mark.parametrize("players", [3, 4, 5])
@pytest.mark.parametrize(
    ("points", "each"), [(29, -2), (30, -1), (60, -1), (61, 1), (90, 1), (91, 2)]
)
def test_settle_pays_the_band_to_or_from_every_defender(
    players: int, points: int, each: int
) -> None:
    config = GameConfig(num_players=players)
    picker = players - 1
    state = picker_round(config, picker, points)
    result = settle(state, [10] * players)
    expected = [-each] * players
    expected[picker] = each * (players - 1)
    assert list(result.payout) == expected
    assert list(result.victory_cards) == [10 + p for p in expected]
    assert result.winner == (picker if each > 0 else None)


# ----------------------------------------------------------------------------- capped payments


@pytest.mark.parametrize(
    ("points", "before", "after"),
    [
        # Picker (seat 1) owes 2 each = 6 but holds 5: seats 2, 3, 0, 2, 3 get one at a time.
        (10, [5, 5, 5, 5], [6, 0, 7, 7]),
        # Owes 1 each, holds 2: the two seats on its left are paid first.
        (45, [5, 2, 5, 5], [5, 0, 6, 6]),
        # Owes 2 each, holds 4: everyone gets a first card before anyone gets a second.
        (0, [1, 4, 1, 1], [2, 0, 3, 2]),
        # Enough to pay in full.
        (0, [1, 6, 1, 1], [3, 0, 3, 3]),
    ],
)
def test_a_losing_picker_pays_one_card_at_a_time_clockwise_from_its_left(
    points: int, before: list[int], after: list[int]
) -> None:
    state = picker_round(GameConfig(num_players=4), 1, points)
    result = settle(state, before)
    assert list(result.victory_cards) == after
    assert sum(result.payout) == 0


@pytest.mark.parametrize(
    ("points", "before", "after"),
    [
        # Each defender pays what it owes or all it holds, whichever is less.
        (100, [0, 3, 1, 5], [0, 6, 0, 3]),
        (70, [0, 3, 1, 5], [0, 5, 0, 4]),
        (100, [2, 0, 2, 2], [0, 6, 0, 0]),
    ],
)
def test_defenders_pay_the_winning_picker_what_they_hold(
    points: int, before: list[int], after: list[int]
) -> None:
    state = picker_round(GameConfig(num_players=4), 1, points)
    assert list(settle(state, before).victory_cards) == after


# ----------------------------------------------------------------------------- Leasters


def test_leaster_winner_is_the_fewest_points_among_trick_winners() -> None:
    assert leaster_winner([30, 10, 50, 30], [2, 1, 3, 1]) == 1
    # Seat 0 has the fewest points but no trick: disqualified.
    assert leaster_winner([0, 10, 50, 60], [0, 1, 3, 3]) == 1
    assert leaster_winner([0, 0, 120, 0], [0, 0, 7, 0]) == 2  # the only trick taker wins


def test_leaster_tie_for_fewest_points_has_no_winner() -> None:
    assert leaster_winner([10, 10, 50, 30], [1, 1, 3, 2]) is None
    assert leaster_winner([0, 0, 0, 103], [0, 1, 1, 5]) is None
    # A tie among disqualified players does not matter.
    assert leaster_winner([0, 0, 5, 98], [0, 0, 1, 6]) == 2


def test_leaster_everyone_else_pays_the_winner_one_capped() -> None:
    config = GameConfig(num_players=4)
    state = leaster_round(config, [0, 10, 40, 53], [0, 1, 3, 3])
    result = settle(state, [5, 5, 5, 5])
    assert result.payout == (-1, 3, -1, -1)
    assert result.winner == 1
    assert settle(state, [0, 5, 0, 2]).victory_cards == (0, 6, 0, 1)


def test_leaster_tie_moves_nothing() -> None:
    state = leaster_round(GameConfig(num_players=3), [20, 20, 63], [1, 1, 7])
    result = settle(state, [4, 5, 6])
    assert result.payout == (0, 0, 0)
    assert result.victory_cards == (4, 5, 6)
    assert result.winner is None


# ----------------------------------------------------------------------------- end of the game


def test_game_ends_when_any_player_holds_no_victory_cards() -> None:
    assert game_over([0, 5, 5, 10])
    assert game_over([3, 0, 0])
    assert not game_over([1, 1, 1, 1, 16])


def test_most_victory_cards_win_and_ties_share() -> None:
    assert game_winners([0, 9, 6, 5]) == [1]
    assert game_winners([0, 7, 7, 6]) == [1, 2]
    assert game_winners([4, 4, 4]) == [0, 1, 2]


def test_settle_refuses_unfinished_rounds_and_bad_holdings() -> None:
    config = GameConfig(num_players=4)
    state = Round(config, Deal.random(config, np.random.default_rng(0)))
    with pytest.raises(ValueError, match="not over"):
        settle(state, [5, 5, 5, 5])
    done = picker_round(config, 0, 70)
    with pytest.raises(ValueError, match="victory_cards"):
        settle(done, [5, 5, 5])
    with pytest.raises(ValueError, match="victory_cards"):
        settle(done, [5, -1, 5, 5])


# ----------------------------------------------------------------------------- round value


@pytest.mark.parametrize("players", [3, 4, 5])
@pytest.mark.parametrize(("points", "each"), [(0, -2), (29, -2), (30, -1), (61, 1), (91, 2)])
def test_round_value_is_the_band_with_no_cap(players: int, points: int, each: int) -> None:
    picker = 1
    state = picker_round(GameConfig(num_players=players), picker, points)
    expected = [-each] * players
    expected[picker] = each * (players - 1)
    assert list(round_value(state)) == expected
    # Settling from empty-handed defenders moves less; the value of the round does not change.
    poor = [0] * players
    poor[picker] = 1
    assert settle(state, poor).payout != tuple(expected)


def test_a_losing_five_player_picker_is_worth_minus_eight_not_what_five_cards_pay() -> None:
    state = picker_round(GameConfig(num_players=5), 0, 10)
    assert round_value(state)[0] == -8
    assert settle(state, [5] * 5).payout[0] == -5


def test_round_value_of_leasters() -> None:
    config = GameConfig(num_players=4)
    assert round_value(leaster_round(config, [0, 10, 40, 53], [0, 1, 3, 3])) == (-1, 3, -1, -1)
    assert round_value(leaster_round(config, [10, 10, 40, 43], [1, 1, 3, 2])) == (0, 0, 0, 0)


def test_picker_won_from_61_points() -> None:
    assert [picker_won(p) for p in (0, 60, 61, 120)] == [False, False, True, True]
