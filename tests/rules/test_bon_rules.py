"""Scripted B.O.N rounds, written in card names, one test (or more) per rule of RULES_BON.md."""

from __future__ import annotations

import numpy as np
import pytest

from boon_env.core.bits import mask_of
from boon_env.games.bon.rules import (
    PASS,
    Deal,
    GameConfig,
    Round,
    card_id,
    card_name,
    game_over,
    game_winners,
    names_of,
    parse_card,
    points_for_tricks,
    replay,
    round_points,
    tower_after_trick,
    trick_winner,
)
from tests.helpers.bon import (
    SCRIPTED_ROUNDS,
    SEED_HANDS,
    SEED_LEFTOVERS,
    cards,
    make_deal,
    make_round,
    play,
    scripted_game,
    tower,
)


def seed_round() -> Round:
    return make_round(SEED_HANDS, SEED_LEFTOVERS, "blue, red, yellow", leader=0)


def legal_names(state: Round) -> list[str]:
    return [card_name(a) for a in state.legal_actions()]


# ----------------------------------------------------------------------------------- cards
def test_card_ids_follow_the_contract() -> None:
    assert [card_id(0, 1), card_id(0, 11), card_id(1, 1), card_id(2, 11)] == [0, 10, 11, 32]
    assert parse_card("yellow 1") == 11
    assert parse_card(" Pass ") == PASS == 33
    assert [card_name(c) for c in (0, 21, 22, 33)] == ["red 1", "yellow 11", "blue 1", "pass"]
    with pytest.raises(ValueError, match="not a card name"):
        parse_card("green 3")
    with pytest.raises(ValueError, match="number must be 1-11"):
        parse_card("red 12")


@pytest.mark.parametrize(
    ("players", "numbers", "passes", "goal"), [(3, 7, 2, 3), (4, 9, 3, 2), (5, 11, 4, 1)]
)
def test_the_table_sets_numbers_pass_cards_and_trick_goal(
    players: int, numbers: int, passes: int, goal: int
) -> None:
    config = GameConfig(num_players=players)
    assert (config.numbers, config.pass_cards, config.trick_goal) == (numbers, passes, goal)
    assert config.deck.bit_count() == 3 * numbers
    assert names_of(config.deck)[-1] == f"blue {numbers}"
    deal = Deal.random(config, np.random.default_rng(players))
    assert [m.bit_count() + p for m, p in deal.places()] == [7] * players + [2]


@pytest.mark.parametrize(
    ("change", "message"),
    [
        (lambda h, lft: (h[:3], lft), "needs 4 hands"),
        (lambda h, lft: (h, lft[:1]), "leftovers has 1 cards, expected 2"),
        (lambda h, lft: ([h[0][:6], *h[1:]], lft), "hand 0 has 6 cards, expected 7"),
        (lambda h, lft: ([[*h[0][:6], 10], *h[1:]], [*lft[:1], h[0][6]]), "not a card of"),
        (lambda h, lft: ([[*h[0][:6], 34], *h[1:]], lft), "holds 34, not a card"),
        (lambda h, lft: ([[*h[0][:6], "red 1"], *h[1:]], lft), "not a card id"),
        (lambda h, lft: ([[*h[0][:6], h[1][0]], *h[1:]], lft), "repeats red 3"),
        (lambda h, lft: ([[*h[0][:6], PASS], *h[1:]], [PASS, PASS]), "5 Pass cards"),
    ],
)
def test_a_bad_deal_is_refused_naming_what_is_wrong(change, message: str) -> None:
    config = GameConfig(num_players=4)
    hands, leftovers = [cards(h) for h in SEED_HANDS], cards(SEED_LEFTOVERS)
    with pytest.raises(ValueError, match=message):
        Deal.from_cards(config, *change(hands, leftovers))


def test_a_bad_tower_or_leader_is_refused() -> None:
    config = GameConfig(num_players=4)
    deal = make_deal(config, SEED_HANDS, SEED_LEFTOVERS)
    for bad in ([0, 1], [0, 0, 1], [0, 1, 3], "rby", [0.0, 1, 2]):
        with pytest.raises(ValueError, match="the tower must list the colours"):
            Round(config, deal, bad, 0)
    with pytest.raises(ValueError, match="leader must be a seat 0-3, got 4"):
        Round(config, deal, (0, 1, 2), 4)


# ------------------------------------------------------------------------------- the tower
def test_the_seeds_example_blue_1_wins_and_blue_drops_to_the_bottom() -> None:
    state = play(seed_round(), "red 8, red 3, blue 1, yellow 9")
    assert state.tricks[-1].winner == 2  # Julie's blue 1
    assert state.tower == tower("red, yellow, blue")
    assert state.leader == state.current == 2  # the winner leads the next trick


def test_the_tower_moves_after_every_trick() -> None:
    state = play(seed_round(), "red 8, red 3, blue 1, yellow 9")
    # Julie leads yellow 4; everyone holds yellow and follows: Greg's yellow 7 is highest.
    play(state, "yellow 4, yellow 7, yellow 1, yellow 3")
    assert state.tricks[-1].winner == 3
    assert state.tower == tower(
        "red, blue, yellow"
    )  # yellow to the bottom, red and blue keep order
    # Greg leads blue 6: red is on top now, but nobody else can play red (Sue and Bill must
    # follow blue, Julie holds blue too), so the highest blue wins: Bill's blue 9.
    play(state, "blue 6, blue 9, blue 2, blue 3")
    assert state.tricks[-1].winner == 0
    assert state.tower == tower("red, yellow, blue")


def test_tower_after_trick_keeps_the_order_of_the_other_two() -> None:
    assert tower_after_trick(tower("blue, red, yellow"), tower("blue")[0]) == tower(
        "red, yellow, blue"
    )
    assert tower_after_trick(tower("blue, red, yellow"), tower("red")[0]) == tower(
        "blue, yellow, red"
    )
    top_last = tower_after_trick(tower("blue, red, yellow"), tower("yellow")[0])
    assert top_last == tower("blue, red, yellow")


# ------------------------------------------------------------------- leading and following
def test_the_leader_may_play_any_card_and_followers_must_follow_the_prime_colour() -> None:
    state = seed_round()
    assert legal_names(state) == [
        "red 1", "red 8", "red 9", "yellow 1", "yellow 2", "blue 9", "pass"
    ]  # fmt: skip
    play(state, "red 8")
    assert state.prime == tower("red")[0]
    # Sue holds red: red or a Pass card.
    assert legal_names(state) == ["red 2", "red 3", "red 4", "red 5", "pass"]
    play(state, "red 3")
    # Julie holds no red (and no Pass card): any card.
    assert legal_names(state) == [
        "yellow 4", "yellow 5", "yellow 6", "blue 1", "blue 3", "blue 4", "blue 5"
    ]  # fmt: skip
    with pytest.raises(ValueError, match=r"illegal action 0 \(red 1\) for seat 2; legal actions"):
        state.apply(card_id(0, 1))


def test_a_pass_lead_leaves_the_prime_colour_to_the_first_boast_card() -> None:
    state = play(seed_round(), "pass")
    assert state.prime is None
    # No prime colour yet: Sue may play anything.
    assert legal_names(state) == [
        "red 2", "red 3", "red 4", "red 5", "yellow 3", "blue 2", "pass"
    ]  # fmt: skip
    play(state, "pass")
    assert state.prime is None
    # Julie's blue 4 sets the prime colour: Greg, holding blue, must follow it (or pass).
    play(state, "blue 4")
    assert state.prime == tower("blue")[0]
    assert legal_names(state) == ["blue 6", "blue 7", "blue 8", "pass"]
    play(state, "blue 6")
    assert state.tricks[-1].winner == 3  # blue on top: the highest blue
    assert state.tricks[-1].cards == (PASS, PASS, *cards("blue 4, blue 6"))


def test_a_pass_card_may_be_played_while_holding_the_prime_colour() -> None:
    state = play(seed_round(), "red 9")
    assert "pass" in legal_names(state)
    play(state, "pass, yellow 4, pass")  # Sue holds four reds and passes anyway
    assert state.hands[1] == mask_of(cards("red 2, red 3, red 4, red 5, yellow 3, blue 2"))
    assert state.passes[1] == 0 and state.passes_played[1] == 1
    assert not state.voids[1]  # a Pass card shows nothing about the hand
    assert state.voids[2] == 1 << tower("red")[0]  # Julie showed she has no red
    assert state.tricks[-1].winner == 0  # red 9: red above yellow in the tower


def test_pass_cards_never_win_a_trick() -> None:
    assert trick_winner(cards("pass, pass, red 1"), tower("blue, yellow, red")) == 2
    assert trick_winner(cards("yellow 2, pass, pass, pass, red 1"), tower("blue, yellow, red")) == 0


# -------------------------------------------------------------------------- who wins a trick
@pytest.mark.parametrize(
    ("trick", "top_first", "winner"),
    [
        ("red 8, red 3, blue 1, yellow 9", "blue, red, yellow", "blue 1"),  # the seed's example
        ("red 8, red 3, blue 1, yellow 9", "red, blue, yellow", "red 8"),  # prime on top
        ("red 8, red 3, blue 1, yellow 9", "yellow, red, blue", "yellow 9"),  # off-colour on top
        (
            "red 2, yellow 9, blue 9",
            "red, yellow, blue",
            "red 2",
        ),  # a low prime beats lower colours
        ("red 2, yellow 9, blue 9, yellow 11", "blue, yellow, red", "blue 9"),
        ("pass, yellow 3, red 5, yellow 4", "blue, yellow, red", "yellow 4"),
    ],
)
def test_the_highest_card_of_the_highest_colour_in_the_tower_wins(
    trick: str, top_first: str, winner: str
) -> None:
    played = cards(trick)
    assert played[trick_winner(played, tower(top_first))] == parse_card(winner)


# --------------------------------------------------------------------------------- scoring
@pytest.mark.parametrize(
    ("goal", "tricks", "points"),
    [
        (3, 3, 1),
        (3, 0, 2),
        (3, 2, 0),
        (3, 4, 0),
        (2, 2, 1),
        (2, 0, 2),
        (2, 7, 0),
        (1, 1, 1),
        (1, 0, 2),
        (1, 2, 0),
    ],
)
def test_points_for_tricks(goal: int, tricks: int, points: int) -> None:
    assert points_for_tricks(tricks, goal) == points


@pytest.mark.parametrize("players", [3, 4, 5])
def test_exact_goal_and_zero_tricks_score_in_a_scripted_round(players: int) -> None:
    *_, tricks, won, points = SCRIPTED_ROUNDS[players]
    game = scripted_game(players, play=False)
    results = [game.apply(card) for card in cards(", ".join(tricks))]
    assert results[:-1] == [None] * (7 * players - 1)
    assert game.round.is_over and len(game.round.tricks) == 7
    assert game.round.tricks_won == won
    goal = game.config.trick_goal
    assert list(results[-1].round_points) == points == list(round_points(won, goal))
    assert game.scores == points
    assert not game.is_over


def test_a_round_replays_from_its_actions() -> None:
    hands, leftovers, top_first, leader, tricks, _, _ = SCRIPTED_ROUNDS[4]
    config = GameConfig(num_players=4)
    deal = make_deal(config, hands, leftovers)
    actions = [card for trick in tricks for card in cards(trick)]
    state = replay(config, deal, tower(top_first), leader, actions)
    assert state.history == actions and state.is_over
    assert [t.cards for t in state.tricks] == [tuple(cards(t)) for t in tricks]


# ------------------------------------------------------------------- rounds within a game
def test_the_tower_carries_over_and_the_first_lead_passes_left() -> None:
    game = scripted_game(5)
    end_tower = game.round.tower
    game.next_round(game.round.deal)
    assert game.round.tower == end_tower
    assert game.round.first_leader == game.round.current == 0  # left of seat 4
    assert game.scores == [2, 1, 1, 2, 0]  # scores carry over too


# ----------------------------------------------------------------------- end of the game
def test_the_game_ends_when_a_score_reaches_the_target() -> None:
    assert not game_over([4, 4, 3], 5)
    assert game_over([5, 0, 0], 5)
    assert game_over([6, 0, 0], 5)


def test_one_player_at_the_target_wins() -> None:
    assert game_winners([5, 4, 3], 5, tower("red, yellow, blue"), [0, 0, 0]) == [0]


def test_contenders_are_decided_by_cards_of_the_top_colour_then_the_second() -> None:
    top_first = tower("red, blue, yellow")
    taken = [
        mask_of(cards("red 1, red 2, yellow 9, yellow 8, yellow 7")),
        mask_of(cards("red 3, red 4, blue 1")),
        mask_of(cards("red 5, red 6, red 7")),
        mask_of(cards("red 8, red 9, red 10")),
    ]
    # Seat 3 is not a contender (4 < 5); seat 2 has the most red among the contenders.
    assert game_winners([5, 6, 5, 4], 5, top_first, taken) == [2]
    # Without seat 2: seats 0 and 1 tie on red (2 each); seat 1 took a blue, seat 0 none.
    assert game_winners([5, 6, 0, 4], 5, top_first, taken) == [1]
    # The third colour breaks no tie: seats 0 and 1 with equal red and blue share the win.
    taken[1] = mask_of(cards("red 3, red 4"))
    assert game_winners([5, 7, 0, 4], 5, top_first, taken) == [0, 1]


def test_a_contender_wins_on_taken_cards_whatever_its_exact_score() -> None:
    # The scripted 3-player round scores 0, 1, 2: with a target of 1, seats 1 and 2 are both
    # contenders. Seat 2 took no trick, so seat 1 wins with its lower score.
    game = scripted_game(3, target_score=1)
    assert game.is_over and game.scores == [0, 1, 2]
    assert game.winners == [1]
    with pytest.raises(ValueError, match="the game has ended"):
        game.next_round(game.round.deal)


def test_a_game_stopped_by_the_round_cap_is_truncated_not_over() -> None:
    game = scripted_game(4, max_rounds=1)
    assert game.is_truncated and not game.is_over
    assert game.winners == [1]  # the highest score (2)


@pytest.mark.parametrize(
    ("field", "value", "message"),
    [
        ("num_players", 6, "num_players must be one of"),
        ("target_score", 0, "target_score must be an integer >= 1"),
        ("max_rounds", 0, "max_rounds must be None or an integer >= 1"),
    ],
)
def test_a_bad_game_config_names_the_field(field: str, value: int, message: str) -> None:
    with pytest.raises(ValueError, match=message):
        GameConfig(**{field: value})


def test_numpy_integers_are_actions_and_nothing_else_is() -> None:
    state = seed_round()
    state.apply(np.int64(parse_card("red 8")))
    assert state.history == [parse_card("red 8")] and type(state.history[0]) is int
    for bad in ("red 3", 3.0, None, True):
        with pytest.raises(ValueError, match="illegal action"):
            state.apply(bad)
    assert len(state.history) == 1
