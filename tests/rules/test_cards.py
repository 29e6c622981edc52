"""RULES.md "Cards" and "Players, deal": ids, names, point values, deck sizes per table."""

from __future__ import annotations

import numpy as np
import pytest

from boon_env.games.boon.rules import (
    FULL_DECK,
    GOLD_MASK,
    NUM_CARDS,
    POINTS,
    RANK_OF,
    SUIT_MASK,
    SUIT_NAMES,
    SUIT_OF,
    TOTAL_POINTS,
    Deal,
    GameConfig,
    card_id,
    card_name,
    cards_of,
    mask_of,
    names_of,
    parse_card,
    parse_cards,
    points_of,
)
from tests.helpers.boon import cards, mask

PLAIN_POINTS = {1: 0, 2: 0, 3: 0, 4: 4, 5: 10, 6: 11}
GOLD_POINTS = {**PLAIN_POINTS, 7: 2, 8: 2, 9: 2, 10: 2, 11: 3, 12: 3, 13: 3, 14: 3}


def test_canonical_ids() -> None:
    # green 1-6 = 0-5, red 1-6 = 6-11, blue 1-6 = 12-17, gold 1-14 = 18-31.
    assert [parse_card(f"green {r}") for r in range(1, 7)] == list(range(0, 6))
    assert [parse_card(f"red {r}") for r in range(1, 7)] == list(range(6, 12))
    assert [parse_card(f"blue {r}") for r in range(1, 7)] == list(range(12, 18))
    assert [parse_card(f"gold {r}") for r in range(1, 15)] == list(range(18, 32))
    assert NUM_CARDS == 32
    assert SUIT_NAMES == ("green", "red", "blue", "gold")


@pytest.mark.parametrize("card", range(NUM_CARDS))
def test_names_round_trip(card: int) -> None:
    name = card_name(card)
    assert parse_card(name) == card
    assert parse_card(f"  {name.upper()} ") == card
    assert card_id(SUIT_OF[card], RANK_OF[card]) == card


def test_point_values_table() -> None:
    for suit in ("green", "red", "blue"):
        for rank, points in PLAIN_POINTS.items():
            assert POINTS[parse_card(f"{suit} {rank}")] == points, f"{suit} {rank}"
    for rank, points in GOLD_POINTS.items():
        assert POINTS[parse_card(f"gold {rank}")] == points, f"gold {rank}"


def test_suit_totals_and_120_points_in_the_deck() -> None:
    assert [points_of(SUIT_MASK[s]) for s in range(4)] == [25, 25, 25, 45]
    assert points_of(FULL_DECK) == TOTAL_POINTS == 120
    assert sum(POINTS) == 120
    # The strongest card is worth only 3: rank and points do not go together.
    assert POINTS[parse_card("gold 14")] == 3


def test_suit_masks() -> None:
    assert cards_of(GOLD_MASK) == tuple(range(18, 32))
    assert cards_of(SUIT_MASK[0]) == tuple(
        cards("green 1, green 2, green 3, green 4, green 5, green 6")
    )
    assert mask_of(range(NUM_CARDS)) == FULL_DECK
    assert all(SUIT_OF[c] == 3 for c in cards_of(GOLD_MASK))


def test_card_set_helpers() -> None:
    hand = mask("gold 14, red 5, green 1")
    assert cards_of(hand) == (0, 10, 31)
    assert names_of(hand) == ["green 1", "red 5", "gold 14"]
    assert points_of(hand) == 13
    assert parse_cards(["gold 1", "blue 6"]) == [18, 17]
    assert parse_cards("gold 1, blue 6,") == [18, 17]


@pytest.mark.parametrize(
    "bad", ["gold", "gold fourteen", "purple 3", "green 7", "gold 15", "red 0", "gold 1 2", ""]
)
def test_parse_card_rejects_non_cards(bad: str) -> None:
    with pytest.raises(ValueError):
        parse_card(bad)


@pytest.mark.parametrize("bad", [-1, 32, 100])
def test_card_name_rejects_non_ids(bad: int) -> None:
    with pytest.raises(ValueError, match="card id"):
        card_name(bad)


def test_card_id_rejects_bad_suit_or_rank() -> None:
    with pytest.raises(ValueError, match="suit"):
        card_id(4, 1)
    with pytest.raises(ValueError, match="rank"):
        card_id(0, 7)
    assert card_id(3, 14) == 31


# ----------------------------------------------------------------------------- tables


@pytest.mark.parametrize(
    ("players", "hand", "boon", "removed"),
    [(3, 9, 3, {"green 1", "red 1"}), (4, 7, 4, set()), (5, 6, 2, set())],
)
def test_table_sizes(players: int, hand: int, boon: int, removed: set[str]) -> None:
    config = GameConfig(num_players=players)
    assert (config.hand_size, config.boon_size, config.num_tricks) == (hand, boon, hand)
    assert set(names_of(FULL_DECK & ~config.deck)) == removed
    assert config.deck.bit_count() == players * hand + boon
    # The removed cards are worth nothing, so every table plays for 120 points.
    assert points_of(config.deck) == 120


@pytest.mark.parametrize("players", [3, 4, 5])
def test_random_deal_partitions_the_reduced_deck(players: int) -> None:
    config = GameConfig(num_players=players)
    rng = np.random.default_rng(players)
    for _ in range(20):
        deal = Deal.random(config, rng)
        assert [h.bit_count() for h in deal.hands] == [config.hand_size] * players
        assert deal.boon.bit_count() == config.boon_size
        union = deal.boon
        for hand in deal.hands:
            assert not union & hand
            union |= hand
        assert union == config.deck


def test_three_player_deals_never_hold_green_1_or_red_1() -> None:
    config = GameConfig(num_players=3)
    rng = np.random.default_rng(0)
    removed = mask("green 1, red 1")
    for _ in range(50):
        deal = Deal.random(config, rng)
        assert not (deal.boon | sum(deal.hands)) & removed


def test_random_deal_follows_the_generator() -> None:
    config = GameConfig()
    first = Deal.random(config, np.random.default_rng(7))
    again = Deal.random(config, np.random.default_rng(7))
    other = Deal.random(config, np.random.default_rng(8))
    assert first == again
    assert first != other


@pytest.mark.parametrize(
    ("field", "kwargs"),
    [
        ("num_players", {"num_players": 2}),
        ("num_players", {"num_players": 6}),
        ("num_players", {"num_players": 4.0}),
        ("starting_victory_cards", {"starting_victory_cards": 0}),
        ("starting_victory_cards", {"starting_victory_cards": -3}),
        ("max_rounds", {"max_rounds": 0}),
        ("max_rounds", {"max_rounds": 2.5}),
    ],
)
def test_game_config_names_the_bad_field(field: str, kwargs: dict[str, object]) -> None:
    with pytest.raises(ValueError, match=field):
        GameConfig(**kwargs)
