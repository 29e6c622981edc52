"""Scripted BOYN rounds in card names, one or more per rule of RULES_BOYN.md.

Unless a test says otherwise, the last seat deals, so seat 0 plays first, clockwise. A stock
written out names its first cards, top first: the first is the starter; the rest of the stock
is every card not named anywhere, ascending by kind.
"""

from __future__ import annotations

import numpy as np
import pytest

from boon_env.games.boyn.rules import (
    NUM_ACTIONS,
    Deal,
    Event,
    Game,
    GameConfig,
    Round,
    action_name,
    parse_action,
    replay,
)
from boon_env.games.boyn.rules.cards import (
    CLUBS,
    HEARTS,
    JACK,
    RED_THREES,
    SPADES,
    card_name,
    parse_card,
    points_by_kind,
)
from tests.helpers.boyn import QUEEN_HANDS, cards, legal_names, make_deal, play, start

# ----------------------------------------------------------------------------- cards and actions


def test_card_kinds_follow_the_rules_numbering() -> None:
    assert parse_card("ace of clubs") == 0
    assert parse_card("king of spades") == 51
    assert [card_name(k) for k in (15, 28)] == ["3 of diamonds", "3 of hearts"]
    assert RED_THREES == 1 << 15 | 1 << 28
    assert parse_card("Queen  of Hearts") == 2 * 13 + 11
    with pytest.raises(ValueError, match="not a card name"):
        parse_card("queen hearts")
    with pytest.raises(ValueError, match="not a suit"):
        parse_card("queen of cups")


def test_every_action_has_a_name_that_parses_back() -> None:
    for action in range(NUM_ACTIONS):
        assert parse_action(action_name(action)) == action
    assert action_name(52 + 4 * CLUBS + HEARTS) == "jack of clubs naming hearts"
    assert action_name(68 + 5 * SPADES + 1) == "queen of spades swap 2"
    with pytest.raises(ValueError, match="only a Jack names a suit"):
        parse_action("queen of spades naming clubs")


@pytest.mark.parametrize(
    ("names", "points"),
    [
        ("2 of clubs, 3 of clubs, 3 of spades, 4 of hearts, 5 of hearts", 5),
        ("6 of diamonds, 8 of diamonds, 9 of spades", 5),
        ("10 of clubs, king of hearts", 10),
        ("7 of spades, jack of hearts, queen of diamonds, ace of clubs", 15),
        ("3 of diamonds, 3 of hearts", 25),
    ],
)
def test_points_of_each_card(names: str, points: int) -> None:
    table = points_by_kind(25)
    assert {table[parse_card(name)] for name in names.split(",")} == {points}


# ----------------------------------------------------------------------------- an Ace

REVERSE_HANDS = (
    "ace of hearts, 9 of clubs, 9 of diamonds, 10 of clubs, 10 of diamonds, king of clubs, "
    "king of diamonds",
    "6 of hearts, 4 of clubs, 4 of diamonds, 6 of clubs, 6 of diamonds, 8 of clubs, 8 of diamonds",
    "ace of hearts, 4 of spades, 5 of spades, 6 of spades, 8 of spades, 9 of spades, 10 of spades",
    "8 of hearts, 4 of clubs, 4 of diamonds, 6 of clubs, 6 of diamonds, 8 of clubs, 8 of diamonds",
)


def test_an_ace_reverses_the_direction_of_play() -> None:
    state = start(REVERSE_HANDS, "5 of hearts")
    assert legal_names(state) == ["ace of hearts"]
    play(state, "ace of hearts")
    assert (state.direction, state.current) == (-1, 3)  # seat 3 is on seat 0's right
    play(state, "8 of hearts")
    assert state.current == 2
    assert legal_names(state) == ["ace of hearts", "8 of spades"]
    play(state, "ace of hearts")  # a second Ace turns play clockwise again
    assert (state.direction, state.current) == (1, 3)


def test_with_two_players_an_ace_flips_the_direction_and_the_other_plays() -> None:
    state = start(REVERSE_HANDS[:2], "5 of hearts")
    play(state, "ace of hearts")
    assert (state.direction, state.current) == (-1, 1)


# ----------------------------------------------------------------------------- 2s

TWOS_HANDS = (
    "2 of clubs, 2 of hearts, 9 of diamonds, 9 of spades, 10 of diamonds, 10 of spades, "
    "king of diamonds",
    "2 of spades, 4 of hearts, 6 of hearts, 8 of hearts, 4 of diamonds, 6 of diamonds, "
    "8 of diamonds",
    "2 of diamonds, king of hearts, 9 of hearts, 10 of hearts, 4 of spades, 6 of spades, "
    "8 of spades",
    "2 of spades, 4 of hearts, 6 of hearts, 8 of hearts, 4 of diamonds, 6 of diamonds, "
    "8 of diamonds",
)


def test_runs_of_one_two_and_three_2s_make_the_next_player_draw_2_4_and_6() -> None:
    state = start(TWOS_HANDS, "5 of clubs")
    play(state, "2 of clubs")
    # Seat 1 draws 2 and loses its turn, though it holds a 2.
    assert (state.run, state.current, state.hand_sizes()[1]) == (1, 2, 9)
    assert state.log[-2:] == [Event("draw", 1, 2), Event("lose", 1)]
    assert legal_names(state) == ["2 of diamonds"]
    play(state, "2 of diamonds")
    assert (state.run, state.current, state.hand_sizes()[3]) == (2, 0, 11)
    play(state, "2 of hearts")
    assert (state.run, state.current, state.hand_sizes()[1]) == (3, 2, 15)
    # Any other card ends the run, and the next player plays as usual.
    play(state, "king of hearts")
    assert (state.run, state.current, state.hand_sizes()[3]) == (0, 3, 11)
    assert state.turns == 7  # four cards and three lost turns


def test_a_2_on_a_2_starter_makes_a_run_of_one() -> None:
    state = start(TWOS_HANDS, "2 of clubs")
    assert state.run == 0  # the starter has no effect
    play(state, "2 of clubs")
    assert (state.run, state.hand_sizes()[1]) == (1, 9)


def test_with_two_players_the_2s_player_plays_again() -> None:
    state = start(TWOS_HANDS[:2], "5 of clubs")
    play(state, "2 of clubs")
    assert (state.current, state.hand_sizes()) == (0, [6, 9])


# ----------------------------------------------------------------------------- red 3s

RED_THREE_HANDS = (
    "3 of diamonds, 9 of clubs, 9 of diamonds, 10 of clubs, 10 of diamonds, king of clubs, "
    "king of diamonds",
    "4 of hearts, 5 of clubs, 5 of diamonds, 6 of clubs, 6 of diamonds, 8 of clubs, 8 of diamonds",
    "5 of hearts, 5 of spades, 6 of spades, 8 of spades, 9 of spades, 10 of spades, "
    "queen of spades",
    "4 of clubs, 4 of diamonds, 5 of clubs, 5 of diamonds, 6 of clubs, 6 of diamonds, 8 of clubs",
)


def test_a_red_3_on_a_4_of_spades_makes_the_next_player_draw_5_and_answer_the_4() -> None:
    stock = "4 of spades, 6 of hearts, 7 of hearts, 8 of hearts, 9 of hearts, 10 of hearts"
    state = start(RED_THREE_HANDS, stock)
    assert legal_names(state) == ["3 of diamonds"]  # a red 3 plays on anything
    play(state, "3 of diamonds")
    assert state.hands[1] == cards(RED_THREE_HANDS[1] + ", " + stock.partition(", ")[2])
    assert state.current == 1  # it draws and then takes its turn
    assert (state.active_rank, state.active_suit) == (4, SPADES)
    assert legal_names(state) == ["4 of hearts"]  # the drawn hearts do not follow the 4♠
    play(state, "4 of hearts")
    assert (state.current, state.turns) == (2, 2)


def test_a_red_3_leaves_the_2_run_and_its_victim_does_not_draw_for_the_run() -> None:
    hands = (
        TWOS_HANDS[0],
        TWOS_HANDS[1],
        "3 of hearts, king of hearts, 9 of hearts, 10 of hearts, 4 of spades, 6 of spades, "
        "8 of spades",
        TWOS_HANDS[3],
    )
    # Seat 1 draws two 5s of hearts; seat 3 five cards that do not follow the 2 of clubs.
    stock = (
        "5 of clubs, 5 of hearts, 5 of hearts, 6 of spades, 7 of hearts, 7 of hearts, 9 of hearts"
    )
    state = play(start(hands, stock + ", 10 of hearts"), "2 of clubs, 3 of hearts")
    assert (state.run, state.current, state.hand_sizes()[3]) == (1, 3, 12)  # 5, not 5 + 2
    assert legal_names(state) == ["2 of spades"]
    play(state, "2 of spades")  # the run goes on from one: seat 0 draws 4
    assert (state.run, state.hand_sizes()[0]) == (2, 10)


# ----------------------------------------------------------------------------- 7s


def test_a_7_skips_the_next_player() -> None:
    hands = ("7 of hearts" + REVERSE_HANDS[0].removeprefix("ace of hearts"), *REVERSE_HANDS[1:])
    state = play(start(hands, "5 of hearts"), "7 of hearts")
    assert (state.current, state.turns, state.hand_sizes()[1]) == (2, 2, 7)
    assert state.log[-1] == Event("skip", 1)


def test_with_two_players_the_7s_player_plays_again() -> None:
    hands = ("7 of hearts" + REVERSE_HANDS[0].removeprefix("ace of hearts"), REVERSE_HANDS[1])
    state = play(start(hands, "5 of hearts"), "7 of hearts")
    assert (state.current, state.turns) == (0, 2)


# ----------------------------------------------------------------------------- Jacks

JACK_HANDS = (
    "jack of clubs, 9 of clubs, 9 of diamonds, 10 of clubs, 10 of diamonds, king of clubs, "
    "king of diamonds",
    "9 of hearts, jack of spades, 3 of diamonds, 9 of clubs, 5 of clubs, 4 of diamonds, "
    "6 of diamonds",
    "king of hearts, 4 of spades, 5 of spades, 6 of spades, 8 of spades, 9 of spades, 10 of spades",
    "8 of hearts, 4 of clubs, 4 of diamonds, 6 of clubs, 6 of diamonds, 8 of clubs, 8 of diamonds",
)


def test_a_jack_is_wild_and_names_the_suit_to_follow() -> None:
    stock = "5 of spades, 4 of clubs, 6 of clubs, 7 of clubs, 8 of clubs, 10 of clubs"
    state = start(JACK_HANDS, stock)
    jack_of_clubs = parse_card("jack of clubs")
    with pytest.raises(ValueError, match="illegal action"):
        state.apply(jack_of_clubs)  # a Jack always names a suit
    play(state, "jack of clubs naming hearts")
    assert (state.active_rank, state.active_suit) == (JACK, HEARTS)
    # Hearts, Jacks and red 3s follow; the 5 and 9 of clubs do not.
    assert legal_names(state) == [
        "3 of diamonds",
        "9 of hearts",
        *(f"jack of spades naming {suit}" for suit in ("clubs", "diamonds", "hearts", "spades")),
    ]
    play(state, "3 of diamonds")  # the Jack of hearts stays the active card
    assert (state.active_rank, state.active_suit) == (JACK, HEARTS)
    assert legal_names(state) == ["king of hearts"]  # not the five clubs just drawn
    play(state, "king of hearts")
    assert (state.active_rank, state.active_suit) == (13, HEARTS)


# ----------------------------------------------------------------------------- Queens


def test_a_queen_swaps_whole_hands_and_a_swapped_queen_can_swap_them_back() -> None:
    state = start(QUEEN_HANDS, "5 of hearts")
    assert legal_names(state) == [
        "queen of hearts",
        *(f"queen of hearts swap {r}" for r in (1, 2, 3)),
    ]
    play(state, "queen of hearts swap 2")
    rest_of_seat_0 = (
        "queen of hearts, 9 of clubs, 10 of clubs, king of clubs, 4 of clubs, 6 of clubs"
    )
    assert state.hands[0] == cards(QUEEN_HANDS[2])
    assert state.hands[2] == cards(rest_of_seat_0)
    assert state.current == 1  # seats play, not hands
    play(state, "6 of hearts")
    # Seat 2 received a Queen in the swap: it may swap right back.
    assert "queen of hearts swap 2" in legal_names(state)
    play(state, "queen of hearts swap 2")
    assert state.hands[2] == cards(QUEEN_HANDS[2])
    assert state.hands[0] == cards("9 of clubs, 10 of clubs, king of clubs, 4 of clubs, 6 of clubs")
    assert state.current == 3


def test_a_queen_played_plainly_swaps_nothing() -> None:
    state = play(start(QUEEN_HANDS, "5 of hearts"), "queen of hearts")
    assert state.hand_sizes() == [6, 7, 7, 7]
    assert (state.active_rank, state.current) == (12, 1)


# ----------------------------------------------------------------------------- going out

# Seat 0's six 7s, each skipping the other player of two, end on the 7 of clubs.
SEVENS = "7 of hearts, 7 of clubs, 7 of diamonds, 7 of spades, 7 of hearts, 7 of clubs"
OTHER = (
    "4 of diamonds, 6 of diamonds, 8 of diamonds, 9 of diamonds, 10 of diamonds, "
    "king of diamonds, 4 of spades"
)
# Seven 2s: played in a row by one of two players, they make a run of seven.
TWOS = "2 of clubs, 2 of diamonds, 2 of hearts, 2 of spades, 2 of clubs, 2 of diamonds, 2 of hearts"


@pytest.mark.parametrize(
    ("last", "drawn"),
    [
        ("2 of clubs", 2),
        ("3 of hearts", 5),
        ("ace of clubs", 0),
        ("queen of clubs", 0),
        ("jack of clubs naming hearts", 0),
    ],
)
def test_going_out_on_a_special_card(last: str, drawn: int) -> None:
    card = last.removesuffix(" naming hearts")
    state = start((f"{SEVENS}, {card}", OTHER), "5 of hearts")
    play(state, SEVENS)
    if card == "queen of clubs":
        assert legal_names(state) == ["queen of clubs"]  # no swap with the last card
    play(state, last)
    assert (state.out, state.current, state.is_over) == (0, -1, True)
    assert state.hand_sizes() == [0, 7 + drawn]  # a 2 or red 3 still makes it draw
    assert state.direction == (-1 if card == "ace of clubs" else 1)
    assert state.turns == 13  # seven cards and six skipped turns; the last draw is no turn


def test_going_out_on_the_seventh_2_of_a_run() -> None:
    state = play(start((TWOS, OTHER), "5 of clubs"), TWOS)
    assert (state.out, state.run, state.turns) == (0, 7, 13)
    assert state.hand_sizes() == [0, 7 + 2 * (1 + 2 + 3 + 4 + 5 + 6 + 7)]


# ----------------------------------------------------------------------------- drawing

DRAW_HANDS = (
    "king of hearts, 9 of clubs, 9 of diamonds, 10 of clubs, 10 of diamonds, king of clubs, "
    "king of diamonds",
    "4 of diamonds, 6 of diamonds, 8 of diamonds, 9 of spades, 10 of spades, 6 of clubs, "
    "8 of clubs",
    "5 of spades, 4 of spades, 6 of spades, 8 of spades, 2 of spades, 7 of spades, 9 of hearts",
    "8 of hearts, 4 of clubs, 4 of diamonds, 6 of clubs, 6 of diamonds, 8 of clubs, 8 of diamonds",
)


def test_a_player_without_a_playable_card_draws_until_one_comes_and_must_play_it() -> None:
    state = start(DRAW_HANDS, "5 of hearts, 4 of clubs, 8 of spades, queen of hearts")
    play(state, "king of hearts")
    assert state.log[-1] == Event("draw", 1, 3)
    assert state.current == 1 and state.hand_sizes()[1] == 10
    # It must play the Queen it drew, choosing only how.
    assert legal_names(state) == [
        "queen of hearts",
        *(f"queen of hearts swap {r}" for r in (1, 2, 3)),
    ]
    assert state.turns == 1  # drawing is no turn of its own


def test_the_one_card_rule_passes_after_an_unplayable_draw() -> None:
    state = start(DRAW_HANDS, "5 of hearts, 4 of clubs, queen of hearts", draw_rule="one")
    play(state, "king of hearts")
    assert state.log[-2:] == [Event("draw", 1, 1), Event("pass", 1)]
    assert (state.current, state.turns, state.hand_sizes()[1]) == (2, 2, 8)


def test_the_one_card_rule_plays_a_playable_draw() -> None:
    state = start(DRAW_HANDS, "5 of hearts, 6 of hearts", draw_rule="one")
    play(state, "king of hearts")
    assert (state.current, legal_names(state)) == (1, ["6 of hearts"])


# Six players. Under the Jack of clubs starter, seat 0 and the stock hold the 68 cards that
# cannot be played on it; seats 1-5 hold the other 35 (clubs, Jacks and red 3s).
DRAIN_HANDS = (
    "4 of hearts, 5 of hearts, 6 of hearts, 8 of hearts, 9 of hearts, 10 of hearts, king of hearts",
    "3 of diamonds, 3 of diamonds, 3 of hearts, 3 of hearts, jack of clubs, ace of clubs, "
    "ace of clubs",
    "2 of clubs, 2 of clubs, 3 of clubs, 3 of clubs, 4 of clubs, 4 of clubs, 5 of clubs",
    "5 of clubs, 6 of clubs, 6 of clubs, 7 of clubs, 7 of clubs, 8 of clubs, 8 of clubs",
    "9 of clubs, 9 of clubs, 10 of clubs, 10 of clubs, queen of clubs, queen of clubs, "
    "king of clubs",
    "king of clubs, jack of diamonds, jack of diamonds, jack of hearts, jack of hearts, "
    "jack of spades, jack of spades",
)


def test_with_nothing_left_to_draw_a_player_passes_and_the_first_passes_count() -> None:
    state = start(DRAIN_HANDS, "jack of clubs")
    # Seat 0 drew the whole stock; the pile holds only the starter, so nothing is reshuffled.
    assert state.log == [Event("draw", 0, 61), Event("pass", 0)]
    assert (state.current, state.turns, state.reshuffles) == (1, 1, 0)
    assert state.stock == [] and state.hand_sizes()[0] == 68


def test_an_empty_stock_is_reshuffled_from_the_pile_under_its_top_card() -> None:
    state = play(start(DRAIN_HANDS, "jack of clubs"), "3 of diamonds")
    # The red 3's victim gets the one card under the 3: the starter, reshuffled.
    assert state.log[-2:] == [Event("reshuffle", 2, 1), Event("draw", 2, 1)]
    assert state.hands[2] == cards(DRAIN_HANDS[2] + ", jack of clubs")
    assert (state.reshuffles, state.current, state.discards) == (1, 2, cards("3 of diamonds"))
    # The active card is remembered, not read from the pile: still the Jack of clubs.
    assert (state.active_rank, state.active_suit) == (JACK, CLUBS)
    play(state, "2 of clubs")
    # The 2's victim draws what there is (the 3 under the 2) and still loses its turn.
    assert state.log[-3:] == [Event("reshuffle", 3, 1), Event("draw", 3, 1), Event("lose", 3)]
    assert (state.reshuffles, state.current, state.hand_sizes()[3]) == (2, 4, 8)


# ----------------------------------------------------------------------------- scoring and game

SCORE_HANDS = (
    "7 of hearts, 7 of clubs, 7 of diamonds, 7 of spades, 7 of hearts, 7 of clubs, 7 of diamonds",
    "2 of clubs, 3 of spades, 3 of diamonds, 10 of hearts, king of spades, jack of hearts, "
    "ace of spades",
)


@pytest.mark.parametrize(("red_three_points", "points"), [(25, 85), (50, 110)])
def test_the_others_add_the_points_of_the_cards_they_hold(
    red_three_points: int, points: int
) -> None:
    state = start(SCORE_HANDS, "5 of hearts", red_three_points=red_three_points)
    play(state, SEVENS + ", 7 of diamonds")
    assert (state.out, state.points) == (0, [0, points])


def test_the_game_ends_after_the_round_in_which_a_total_reaches_the_limit() -> None:
    for limit, over in ((85, True), (86, False)):
        config = GameConfig(num_players=2, game_limit=limit)
        deal = make_deal(config, SCORE_HANDS, "5 of hearts")
        game = Game(config, deal, dealer=1, rng=np.random.default_rng(0))
        moves = [parse_action(m) for m in (SEVENS + ", 7 of diamonds").split(",")]
        results = [game.apply(move) for move in moves]
        assert results[:-1] == [None] * 6
        assert results[-1].totals == (0, 85) and game.totals == [0, 85]
        assert (game.is_over, game.winners) == (over, [0])
    game.next_round(Deal.random(config, np.random.default_rng(1)))
    assert game.dealer == 0  # the deal passes left
    with pytest.raises(ValueError, match="not over"):
        game.next_round(Deal.random(config, np.random.default_rng(2)))


# ----------------------------------------------------------------------------- truncation


def test_a_round_is_truncated_when_the_turns_reach_max_turns() -> None:
    state = play(start(REVERSE_HANDS, "5 of hearts", max_turns=3), "ace of hearts, 8 of hearts")
    assert not state.is_over
    play(state, "8 of spades")
    assert (state.truncated, state.is_over, state.out, state.points) == (True, True, -1, [0] * 4)
    assert state.legal_mask() == 0


def test_truncation_comes_before_the_next_players_draws() -> None:
    state = play(start(TWOS_HANDS, "5 of clubs", max_turns=1), "2 of clubs")
    assert state.truncated and state.hand_sizes() == [6, 7, 7, 7]


def test_a_lost_turn_counts_and_can_truncate() -> None:
    state = play(start((TWOS, OTHER), "5 of clubs", max_turns=12), TWOS.rsplit(",", 1)[0])
    assert (state.truncated, state.turns, state.hand_sizes()) == (True, 12, [1, 7 + 42])


def test_the_last_card_goes_out_even_when_it_reaches_max_turns() -> None:
    state = play(start((TWOS, OTHER), "5 of clubs", max_turns=13), TWOS)
    assert (state.truncated, state.out, state.hand_sizes()) == (False, 0, [0, 7 + 56])


# ----------------------------------------------------------------------------- bad input


def test_an_illegal_action_raises_and_changes_nothing() -> None:
    state = start(REVERSE_HANDS, "5 of hearts")
    before = {name: repr(getattr(state, name)) for name in Round.__slots__ if name != "rng"}
    for action in (parse_action("9 of clubs"), -1, NUM_ACTIONS, 3.0, True, None):
        with pytest.raises(ValueError, match="illegal action"):
            state.apply(action)
    assert before == {name: repr(getattr(state, name)) for name in Round.__slots__ if name != "rng"}
    state.apply(np.int64(parse_action("ace of hearts")))  # numpy integers are actions too
    assert state.history == [parse_action("ace of hearts")] and type(state.history[0]) is int


@pytest.mark.parametrize(
    ("hands", "stock", "message"),
    [
        ([[0] * 7] * 3, [0] * 83, "must have 4 hands"),
        ([[0] * 6] + [[1] * 7] * 3, [2] * 77, "hand 0 must hold 7 cards"),
        ([[0] * 7] * 4, [1] * 75, "stock must hold 76 cards"),
        ([[52] * 7] * 4, [1] * 76, "not a card kind"),
        ([["x"] * 7] * 4, [1] * 76, "not a card kind"),
        ([[0] * 7] * 4, [1] * 76, "holds 28 of the ace of clubs"),
    ],
)
def test_a_bad_deal_is_rejected(hands: list, stock: list, message: str) -> None:
    with pytest.raises(ValueError, match=message):
        Deal.from_cards(GameConfig(), hands, stock)


def test_bad_configuration_and_dealer_are_rejected() -> None:
    for bad, message in (
        ({"num_players": 7}, "num_players"),
        ({"draw_rule": "two"}, "draw_rule"),
        ({"max_turns": 0}, "max_turns"),
        ({"game_limit": 2.5}, "game_limit"),
        ({"red_three_points": -1}, "red_three_points"),
    ):
        with pytest.raises(ValueError, match=message):
            GameConfig(**bad)
    config = GameConfig()
    with pytest.raises(ValueError, match="dealer"):
        Round(config, Deal.random(config, np.random.default_rng(0)), 4, np.random.default_rng(0))


def test_a_round_replays_from_its_deal_seed_and_actions() -> None:
    config = GameConfig(num_players=3)
    deal = Deal.random(config, np.random.default_rng(7))
    state = Round(config, deal, 1, np.random.default_rng(3))
    policy = np.random.default_rng(11)
    while not state.is_over:
        legal = state.legal_actions()
        state.apply(legal[policy.integers(len(legal))])
    again = replay(config, deal, state.history, dealer=1, seed=3)
    assert (again.log, again.hands, again.points) == (state.log, state.hands, state.points)
