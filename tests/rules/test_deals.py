"""A round only starts from a deal that partitions the deck into hands and a Boon."""

import pytest

from boon_env.games.boon.rules import Deal, GameConfig, Round, mask_of

FOUR = GameConfig(num_players=4)


def _sevens(first_card: int = 0) -> tuple[int, ...]:
    return tuple(mask_of(range(first_card + 7 * i, first_card + 7 * (i + 1))) for i in range(4))


def test_a_partition_of_the_deck_starts_a_round():
    state = Round(FOUR, Deal(_sevens(), mask_of(range(28, 32))), dealer=2)
    assert state.current == 3


@pytest.mark.parametrize(
    ("deal", "message"),
    [
        (Deal(_sevens()[:3], mask_of(range(21, 25))), "3 hands, expected 4"),
        (Deal(_sevens(), mask_of(range(27, 31))), r"boon repeats card 27 \['gold 10'\]"),
        (Deal(_sevens(), mask_of(range(28, 31))), "boon has 3 cards, expected 4"),
        (Deal(_sevens(), mask_of(range(29, 33))), "outside the 4-player deck"),
        (Deal((*_sevens()[:3], -1), mask_of(range(28, 32))), "hand 3 must be a card bitmask"),
    ],
)
def test_a_malformed_deal_is_rejected_by_name(deal, message):
    with pytest.raises(ValueError, match=message):
        Round(FOUR, deal)


def test_three_players_cannot_be_dealt_the_removed_cards():
    three = GameConfig(num_players=3)
    hands = tuple(mask_of(range(9 * i, 9 * (i + 1))) for i in range(3))  # holds green 1, red 1
    with pytest.raises(ValueError, match="outside the 3-player deck"):
        Round(three, Deal(hands, mask_of(range(27, 30))))


def test_a_rejected_deal_leaves_the_env_generator_alone():
    from boon_env import boon_v0

    reference, env = boon_v0.raw_env(), boon_v0.raw_env()
    reference.reset(seed=1)
    env.reset(seed=1)
    with pytest.raises(ValueError, match="hand"):
        env.reset(seed=99, options={"deal": {"hands": [[0]], "boon": []}})
    reference.reset()
    env.reset()
    assert reference.game.round.deal == env.game.round.deal
