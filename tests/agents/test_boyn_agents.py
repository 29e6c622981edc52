"""The BOYN heuristic's rules of thumb, each on a small hand written in card names."""

from __future__ import annotations

import pytest

from agents.games.boyn.heuristic import BoynHeuristicAgent, BoynHeuristicParams, BoynView, choose
from boon_env import boyn_v0
from boon_env.games.boyn.rules import action_name, parse_action
from boon_env.games.boyn.rules.cards import HEARTS, NUM_KINDS, parse_cards
from tests.helpers.boyn import QUEEN_HANDS, play, start

PARAMS = BoynHeuristicParams()


def view(hand: str, sizes: tuple[int, ...], active: str = "5 of hearts", direction: int = 1):
    """A view of seat 0 holding ``hand`` on ``active``, with the other hand sizes given."""
    counts = [0] * NUM_KINDS
    for kind in parse_cards(hand):
        counts[kind] += 1
    (kind,) = parse_cards(active)
    return BoynView(
        hand=tuple(counts),
        active_suit=kind // 13,
        active_rank=kind % 13 + 1,
        run=0,
        direction=direction,
        hand_sizes=(sum(counts), *sizes),
    )


def pick(hand: str, legal: str, sizes: tuple[int, ...] = (7, 7, 7), **kw) -> str:
    mask = 0
    for name in legal.split(","):
        mask |= 1 << parse_action(name)
    return action_name(choose(view(hand, sizes, **kw), mask, PARAMS))


def test_it_sheds_the_card_worth_most_points() -> None:
    hand = "4 of hearts, king of hearts, 9 of clubs, 9 of diamonds"
    assert pick(hand, "4 of hearts, king of hearts") == "king of hearts"


def test_it_saves_wilds_while_another_card_plays() -> None:
    hand = "jack of spades, 3 of diamonds, 4 of hearts, 9 of clubs"
    legal = "3 of diamonds, 4 of hearts, " + ", ".join(
        f"jack of spades naming {suit}" for suit in ("clubs", "diamonds", "hearts", "spades")
    )
    assert pick(hand, legal) == "4 of hearts"


@pytest.mark.parametrize(
    ("sizes", "direction", "expected"),
    [
        ((7, 7, 7), 1, "king of hearts"),
        ((1, 7, 7), 1, "2 of hearts"),  # the player on my left is about to go out
        ((1, 7, 7), -1, "king of hearts"),  # ... but play goes to my right
        ((7, 7, 2), -1, "2 of hearts"),
    ],
)
def test_it_aims_a_2_at_a_next_player_about_to_go_out(
    sizes: tuple[int, ...], direction: int, expected: str
) -> None:
    hand = "2 of hearts, king of hearts, 9 of clubs"
    assert pick(hand, "2 of hearts, king of hearts", sizes, direction=direction) == expected


def test_it_aims_a_red_3_at_a_next_player_about_to_go_out() -> None:
    hand = "3 of diamonds, king of hearts, 9 of clubs"
    assert pick(hand, "3 of diamonds, king of hearts") == "king of hearts"
    assert pick(hand, "3 of diamonds, king of hearts", (2, 7, 7)) == "3 of diamonds"


def test_it_swaps_with_a_queen_when_another_hand_is_much_smaller() -> None:
    hand = "queen of hearts, 4 of clubs, 6 of clubs, 8 of clubs, 9 of diamonds, 10 of spades"
    legal = (
        "queen of hearts, queen of hearts swap 1, queen of hearts swap 2, queen of hearts swap 3"
    )
    assert pick(hand, legal, (7, 2, 7)) == "queen of hearts swap 2"
    assert pick(hand, legal, (7, 4, 7)) == "queen of hearts"  # one card fewer is not enough


def test_a_jack_names_the_suit_most_held() -> None:
    hand = "jack of spades, 4 of clubs, 6 of clubs, 8 of clubs, 9 of diamonds"
    legal = ", ".join(
        f"jack of spades naming {suit}" for suit in ("clubs", "diamonds", "hearts", "spades")
    )
    assert pick(hand, legal) == "jack of spades naming clubs"


def test_the_view_of_a_round_holds_what_the_seat_knows() -> None:
    state = play(start(QUEEN_HANDS, "5 of hearts"), "queen of hearts swap 2")
    seen = BoynView.from_round(state, 1)
    assert seen.hand_sizes == (7, 6, 7, 7)  # me, then the seats on my left
    assert (seen.active_suit, seen.active_rank, seen.direction) == (HEARTS, 12, 1)
    assert sum(seen.hand) == 7 and seen.hand[parse_cards("6 of hearts")[0]] == 1


@pytest.mark.parametrize("players", [2, 4, 6])
def test_the_view_decoded_from_an_observation_is_the_view_of_the_round(players: int) -> None:
    env = boyn_v0.raw_env(num_players=players)
    env.reset(seed=players)
    agent = BoynHeuristicAgent()
    decisions = 0
    for name in env.agent_iter():
        obs, _reward, termination, truncation, _info = env.last()
        if termination or truncation:
            env.step(None)
            continue
        seat = int(name.split("_")[1])
        view = BoynView.from_observation(obs["observation"])
        assert view == BoynView.from_round(env.game.round, seat)
        move = agent.act(obs["observation"], obs["action_mask"])
        assert move == choose(view, env.game.round.legal_mask(), PARAMS)
        env.step(move)
        decisions += 1
    assert decisions > players
