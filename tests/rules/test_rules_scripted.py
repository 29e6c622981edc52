"""Scripted deals, written in card names, walking through every rule of RULES.md.

Unless said otherwise the table has four players, seat 3 deals and seat 0 (left of the dealer)
decides first and leads the first trick.
"""

from __future__ import annotations

import numpy as np
import pytest

from boon_env.games.boon.rules import (
    PASS,
    PICK,
    Deal,
    Game,
    GameConfig,
    Phase,
    Round,
    actions_of,
    cards_of,
    play_out,
    points_of,
    replay,
    seats_to_play,
    trick_winner,
)
from tests.helpers.boon import (
    BURY_29,
    BURY_30,
    LEASTER_BOON,
    LEASTER_HANDS,
    SWEEP_BOON,
    SWEEP_HANDS,
    action,
    actions,
    cards,
    make_deal,
    make_round,
    mask,
    play,
    play_lowest,
)

FOUR = GameConfig(num_players=4)


def leaster_round() -> Round:
    """The LEASTER deal after everyone passed."""
    return play(make_round(FOUR, LEASTER_HANDS, LEASTER_BOON, dealer=3), "pass, pass, pass, pass")


# ----------------------------------------------------------------------------- following suit


def test_must_follow_the_led_suit_when_able() -> None:
    state = play(leaster_round(), "green 1")
    assert state.current == 1
    # Seat 1 holds one green among plain and gold cards: it must play it.
    assert state.legal_actions() == cards("green 2")
    for other in cards("red 1, blue 4, gold 4"):
        with pytest.raises(ValueError, match="illegal action"):
            state.apply(other)


def test_a_player_void_in_the_led_suit_may_play_anything() -> None:
    state = play(leaster_round(), "green 1, green 2")
    # Seat 2 holds no green: its whole hand is legal, gold and other plain suits alike.
    assert state.legal_actions() == sorted(cards(LEASTER_HANDS[2]))
    play(state, "red 6")
    assert state.legal_actions() == sorted(cards(LEASTER_HANDS[3]))


def test_a_gold_lead_must_be_followed_with_gold() -> None:
    state = play(leaster_round(), "gold 1")
    assert state.legal_actions() == cards("gold 4, gold 5")  # not green 2, red or blue
    play(state, "gold 5")
    assert state.legal_actions() == cards("gold 6")
    play(state, "gold 6")
    assert state.legal_actions() == cards("gold 10, gold 11, gold 12, gold 13, gold 14")
    with pytest.raises(ValueError):
        play(state, "blue 2")


def test_a_player_who_fails_to_follow_is_recorded_void() -> None:
    state = play(leaster_round(), "green 1, green 2, red 6, blue 2")
    assert state.voids == [0, 0, 1 << 0, 1 << 0]  # seats 2 and 3 showed they hold no green
    # Seat 1 followed and seat 0 led: nothing is known of them.
    assert state.played[2] == mask("red 6")


# ----------------------------------------------------------------------------- trick winners


def test_highest_card_of_the_led_suit_wins_and_other_plain_suits_never_win() -> None:
    # Red 6 and blue 2 outrank green 2 by id, but only green (the led suit) or gold can win.
    state = play(leaster_round(), "green 1, green 2, red 6, blue 2")
    trick = state.tricks[-1]
    assert trick.leader == 0
    assert trick.cards == tuple(cards("green 1, green 2, red 6, blue 2"))
    assert trick.winner == 1
    assert state.points == [0, 11, 0, 0]  # red 6's 11 points go to the trick's winner
    assert state.tricks_won == [0, 1, 0, 0]


def test_any_gold_beats_every_plain_card() -> None:
    state = play(leaster_round(), "green 1, green 2, gold 6, blue 2")
    assert state.tricks[-1].winner == 2  # the lowest gold in play beats the led green


def test_highest_gold_wins_a_trick_with_several_golds() -> None:
    state = play(leaster_round(), "gold 1, gold 4, gold 6, gold 10")
    assert state.tricks[-1].winner == 3
    assert state.points == [0, 0, 0, 17]  # gold 4, gold 6, gold 10 = 4 + 11 + 2


@pytest.mark.parametrize(
    ("trick", "winner"),
    [
        ("green 1, green 2, red 6, blue 2", 1),  # off-suit plain cards never win
        ("green 1, green 2, gold 1, blue 2", 2),  # the lowest gold beats the led suit
        ("gold 1, gold 4, gold 6, gold 10", 3),
        ("red 4, red 6", 1),  # an unfinished trick has a winner so far
        ("blue 3", 0),
    ],
)
def test_trick_winner_is_the_position_of_the_highest_gold_else_highest_led_card(
    trick: str, winner: int
) -> None:
    assert trick_winner(cards(trick)) == winner


def test_seats_to_play_go_clockwise_from_the_leader() -> None:
    assert seats_to_play(leader=3, played=1, n=4) == (0, 1, 2)
    assert seats_to_play(leader=1, played=0, n=3) == (1, 2, 0)
    assert seats_to_play(leader=2, played=5, n=5) == ()


def test_actions_of_lists_cards_then_pick_and_pass() -> None:
    assert actions_of(mask("gold 14, green 1") | 1 << PICK | 1 << PASS) == [0, 31, PICK, PASS]


def test_numpy_integers_are_actions_and_other_types_are_refused() -> None:
    state = make_round(FOUR, SWEEP_HANDS, SWEEP_BOON, dealer=3)
    state.apply(np.int64(PICK))
    assert state.picker == 0 and state.history == [PICK]
    assert type(state.history[0]) is int
    for bad in (32.0, "32", True, None):
        with pytest.raises(ValueError, match="illegal action"):
            state.apply(bad)
    assert state.history == [PICK]


def test_the_winner_leads_the_next_trick() -> None:
    state = play(leaster_round(), "green 1, green 2, red 6, blue 2")
    assert (state.current, state.leader, state.trick) == (1, 1, [])
    play(state, "red 1, red 2, gold 10")
    assert state.current == 0  # the trick goes round clockwise from the leader
    play(state, "green 3")
    assert state.tricks[-1].winner == 3
    assert (state.current, state.leader) == (3, 3)


# ----------------------------------------------------------------------------- the Boon decision


@pytest.mark.parametrize("dealer", [0, 1, 2, 3])
def test_deciding_starts_left_of_the_dealer_and_the_dealer_decides_last(dealer: int) -> None:
    state = make_round(FOUR, LEASTER_HANDS, LEASTER_BOON, dealer=dealer)
    order = []
    while state.phase is Phase.PICK:
        assert state.legal_actions() == [PICK, PASS]
        order.append(state.current)
        state.apply(PASS)
    assert order == [(dealer + k) % 4 for k in (1, 2, 3, 4)]
    assert order[-1] == dealer
    assert state.leaster
    assert state.picker is None
    assert state.passed == 0b1111


def test_the_dealer_may_pick_after_everyone_passed() -> None:
    state = play(make_round(FOUR, LEASTER_HANDS, LEASTER_BOON, dealer=1), "pass, pass, pass, pick")
    assert state.picker == 1
    assert not state.leaster


def test_the_first_pick_ends_the_decision() -> None:
    state = play(make_round(FOUR, LEASTER_HANDS, LEASTER_BOON, dealer=1), "pass, pick")
    assert state.picker == 3
    assert state.passed == 1 << 2  # seats 0 and 1 never decided
    assert state.phase is Phase.DISCARD
    assert state.current == 3
    for late in (PICK, PASS):
        with pytest.raises(ValueError):
            state.apply(late)


def test_the_picker_takes_the_boon_then_buries_as_many_cards() -> None:
    state = play(make_round(FOUR, LEASTER_HANDS, LEASTER_BOON, dealer=3), "pass, pick")
    assert state.picker == 1
    enlarged = mask(LEASTER_HANDS[1]) | mask(LEASTER_BOON)
    assert state.hands[1] == enlarged
    assert state.hands[1].bit_count() == 11
    # Any card of the enlarged hand may be buried, gold included; nothing else may.
    assert state.legal_mask() == enlarged
    with pytest.raises(ValueError):
        play(state, "gold 14")  # seat 3's card
    play(state, "gold 9, gold 5, green 6")
    assert state.phase is Phase.DISCARD
    assert state.cards_to_discard() == 1
    play(state, "blue 4")
    assert state.phase is Phase.PLAY
    assert state.cards_to_discard() == 0
    assert state.discards == mask("gold 9, gold 5, green 6, blue 4")
    assert [h.bit_count() for h in state.hands] == [7, 7, 7, 7]
    # Whoever picked, the player left of the dealer leads the first trick.
    assert state.current == 0
    assert state.leader == 0


@pytest.mark.parametrize(("dealer", "picks_after"), [(0, 0), (0, 2), (2, 3), (1, 1)])
def test_the_first_lead_is_left_of_the_dealer_whoever_picked(dealer: int, picks_after: int) -> None:
    state = Round(FOUR, make_deal(FOUR, LEASTER_HANDS, LEASTER_BOON), dealer)
    for _ in range(picks_after):
        state.apply(PASS)
    state.apply(PICK)
    assert state.picker == (dealer + 1 + picks_after) % 4
    for card in cards_of(state.hands[state.picker])[:4]:
        state.apply(card)
    assert state.phase is Phase.PLAY
    assert state.current == (dealer + 1) % 4


def test_a_leaster_is_led_left_of_the_dealer() -> None:
    state = play(make_round(FOUR, LEASTER_HANDS, LEASTER_BOON, dealer=2), "pass, pass, pass, pass")
    assert state.phase is Phase.PLAY
    assert state.current == 3


# ----------------------------------------------------------------------------- picker rounds


def test_picker_sweeps_every_trick_and_scores_its_discards() -> None:
    state = play(make_round(FOUR, SWEEP_HANDS, SWEEP_BOON, dealer=3), "pick")
    play(state, SWEEP_BOON)  # bury the Boon's 43 points
    play_lowest(state)
    assert [t.winner for t in state.tricks] == [0] * 7
    # Defenders follow gold while they hold gold: each gold trick draws their lowest golds.
    assert state.tricks[0].cards == tuple(cards("gold 8, gold 1, gold 4, gold 6"))
    assert state.tricks_won == [7, 0, 0, 0]
    assert state.points == [120, 0, 0, 0]  # 77 in tricks + 43 buried


def test_discard_points_count_for_the_picker_only_at_the_end() -> None:
    state = play(make_round(FOUR, SWEEP_HANDS, SWEEP_BOON, dealer=3), "pick")
    play(state, SWEEP_BOON)
    play(state, "gold 14, gold 1, gold 4, gold 6")
    assert state.points[0] == 18  # gold 14 + gold 4 + gold 6: trick points only, so far
    play_lowest(state)
    assert state.points[0] == 120


GOLD_9_TO_14 = "gold 9, gold 10, gold 11, gold 12, gold 13, gold 14"


def _lose_the_last_trick(hands: tuple[str, ...], boon: str, keep: tuple[str, str, str]) -> Round:
    """Seat 0 picks, buries the Boon, leads gold 14 down to gold 9 and wins those six tricks
    (the defenders following gold while they can), then leads its last card; the defenders
    have kept the cards ``keep`` for that last trick."""
    state = play(make_round(FOUR, hands, boon, dealer=3), "pick")
    play(state, boon)
    for trick in range(6):
        play(state, f"gold {14 - trick}")
        for seat in (1, 2, 3):
            kept = action(keep[seat - 1])
            state.apply(next(card for card in state.legal_actions() if card != kept))
    assert state.hands[0].bit_count() == 1
    state.apply(cards_of(state.hands[0])[0])
    play(state, ", ".join(keep))
    return state


def test_picker_at_91_points_is_paid_two_by_everyone() -> None:
    # Last trick: green 4 (4) + green 5 (10) + red 6 (11) + blue 4 (4) = 29 to the defenders.
    hands = (
        f"{GOLD_9_TO_14}, green 4",
        "green 5, gold 1, gold 2, gold 3, red 1, red 2, red 3",
        "red 6, gold 4, gold 5, blue 1, blue 2, blue 3, red 4",
        "blue 4, gold 6, gold 7, gold 8, blue 5, blue 6, red 5",
    )
    boon = "green 1, green 2, green 3, green 6"
    state = _lose_the_last_trick(hands, boon, ("green 5", "red 6", "blue 4"))
    last = state.tricks[-1]
    assert (last.leader, last.winner) == (0, 1)
    assert points_of(mask("green 4, green 5, red 6, blue 4")) == 29
    assert state.points[0] == 91
    assert sum(state.points) == 120
    result = play_out(FOUR, [state.deal], state.history, dealer=3).settlements[-1]
    assert result.payout == (6, -2, -2, -2)
    assert result.winner == 0


def test_picker_at_90_points_is_paid_one_by_everyone() -> None:
    # Last trick: green 1 (0) + green 5 + red 5 + blue 5 (10 each) = 30 to the defenders.
    hands = (
        f"{GOLD_9_TO_14}, green 1",
        "green 5, gold 1, gold 2, gold 3, red 1, red 2, red 3",
        "red 5, gold 4, gold 5, blue 1, blue 2, blue 3, red 4",
        "blue 5, gold 6, gold 7, gold 8, blue 4, blue 6, red 6",
    )
    boon = "green 2, green 3, green 4, green 6"
    state = _lose_the_last_trick(hands, boon, ("green 5", "red 5", "blue 5"))
    assert state.tricks[-1].winner == 1
    assert state.points[0] == 90
    result = play_out(FOUR, [state.deal], state.history, dealer=3).settlements[-1]
    assert result.payout == (3, -1, -1, -1)


def _play_buried_only(hands: tuple[str, ...], boon: str) -> Game:
    game = Game(FOUR, make_deal(FOUR, hands, boon), dealer=3)
    for move in ["pick", *boon.split(",")]:
        game.apply(action(move))
    while not game.round.is_over:
        game.apply(game.round.legal_actions()[0])
    return game


def test_picker_at_29_points_owes_two_each_and_pays_what_it_holds_clockwise() -> None:
    game = _play_buried_only(*BURY_29)
    state = game.round
    assert state.tricks_won == [0, 7, 0, 0]
    assert state.points == [29, 91, 0, 0]
    # It owes 2 to each of three players (6) but holds 5: one card at a time from its left,
    # each owed player getting its first card before anyone gets a second.
    assert game.settlements[-1].payout == (-5, 2, 2, 1)
    assert game.victory_cards == [0, 7, 7, 6]
    assert game.is_over
    assert not game.is_truncated
    assert game.winners == [1, 2]  # tied for the most: they share the win


def test_picker_at_30_points_pays_one_to_everyone() -> None:
    game = _play_buried_only(*BURY_30)
    assert game.round.points == [30, 90, 0, 0]
    assert game.settlements[-1].payout == (-3, 1, 1, 1)
    assert game.victory_cards == [2, 6, 6, 6]
    assert not game.is_over


# ----------------------------------------------------------------------------- Leasters


def test_leaster_boon_points_count_for_nobody() -> None:
    state = play_lowest(leaster_round())
    assert state.leaster
    assert state.boon == mask(LEASTER_BOON)
    assert sum(state.points) == 120 - 17
    assert state.discards == 0


def test_leaster_fewest_points_among_trick_winners_wins_one_from_each() -> None:
    game = Game(FOUR, make_deal(FOUR, LEASTER_HANDS, LEASTER_BOON), dealer=3)
    for move in actions("pass, pass, pass, pass, green 1, green 2, blue 1, blue 2"):
        game.apply(move)
    # Seat 2 wins red 5's 10 points; seat 1 keeps its pointless trick.
    for move in actions("red 1, red 5, blue 3, green 3"):
        game.apply(move)
    assert game.round.tricks[-1].winner == 2
    while not game.round.is_over:
        game.apply(game.round.legal_actions()[0])
    state = game.round
    assert [t.winner for t in state.tricks[2:]] == [3] * 5
    assert state.tricks_won == [0, 1, 1, 5]
    assert state.points == [0, 0, 10, 93]
    # Seat 0 has the fewest points but won no trick: it is disqualified.
    settlement = game.settlements[-1]
    assert settlement.winner == 1
    assert settlement.payout == (-1, 3, -1, -1)


def test_leaster_tie_for_fewest_points_moves_no_victory_cards() -> None:
    game = Game(FOUR, make_deal(FOUR, LEASTER_HANDS, LEASTER_BOON), dealer=3)
    moves = (
        "pass, pass, pass, pass, green 1, green 2, blue 1, blue 2, red 1, red 2, blue 3, green 3"
    )
    for move in actions(moves):
        game.apply(move)
    while not game.round.is_over:
        game.apply(game.round.legal_actions()[0])
    state = game.round
    assert state.tricks_won == [0, 1, 1, 5]
    assert state.points == [0, 0, 0, 103]
    assert game.settlements[-1].winner is None
    assert game.settlements[-1].payout == (0, 0, 0, 0)
    assert game.victory_cards == [5, 5, 5, 5]


def test_leaster_single_trick_taker_wins_however_many_points() -> None:
    game = Game(FOUR, make_deal(FOUR, SWEEP_HANDS, SWEEP_BOON), dealer=3)
    for move in actions("pass, pass, pass, pass"):
        game.apply(move)
    while not game.round.is_over:
        game.apply(game.round.legal_actions()[0])
    assert game.round.points == [120 - 43, 0, 0, 0]
    assert game.settlements[-1].payout == (3, -1, -1, -1)


# ----------------------------------------------------------------------------- 3 and 5 players

THREE = GameConfig(num_players=3)
FIVE = GameConfig(num_players=5)


def test_three_players_nine_cards_boon_three_without_green_1_and_red_1() -> None:
    hands = (
        "gold 6, gold 7, gold 8, gold 9, gold 10, gold 11, gold 12, gold 13, gold 14",
        "green 2, green 3, green 4, green 5, green 6, red 2, red 3, red 4, red 5",
        "red 6, blue 1, blue 2, blue 3, blue 4, blue 5, blue 6, gold 1, gold 2",
    )
    boon = "gold 3, gold 4, gold 5"
    state = make_round(THREE, hands, boon, dealer=2)
    assert state.current == 0
    play(state, "pick, gold 3, gold 4, gold 5")  # gold may be buried
    assert state.phase is Phase.PLAY
    assert state.hands[0].bit_count() == 9
    play_lowest(state)
    assert len(state.tricks) == 9
    assert all(len(t.cards) == 3 and t.winner == 0 for t in state.tricks)
    assert state.points == [120, 0, 0]
    for removed in ("green 1", "red 1"):
        swapped = [hands[0], hands[1].replace("green 2", removed), hands[2]]
        with pytest.raises(ValueError, match="not in the 3-player deck"):
            make_deal(THREE, swapped, boon)


def test_five_players_six_cards_boon_two() -> None:
    hands = (
        "gold 9, gold 10, gold 11, gold 12, gold 13, gold 14",
        "green 1, green 2, green 3, green 4, green 5, green 6",
        "red 1, red 2, red 3, red 4, red 5, red 6",
        "blue 1, blue 2, blue 3, blue 4, blue 5, blue 6",
        "gold 1, gold 2, gold 3, gold 4, gold 5, gold 6",
    )
    state = make_round(FIVE, hands, "gold 7, gold 8", dealer=4)
    play(state, "pass, pass, pick")
    assert state.picker == 2
    assert state.hands[2] == mask(hands[2]) | mask("gold 7, gold 8")
    play(state, "red 6, red 5")
    assert state.phase is Phase.PLAY
    assert state.current == 0  # left of the dealer, not the picker
    # The lead gold 14 draws gold from the picker (gold 7 of the Boon) and from seat 4.
    play(state, "gold 14, green 1, gold 7, blue 1, gold 1")
    assert state.tricks[-1].winner == 0
    play_lowest(state)
    assert len(state.tricks) == 6
    assert all(len(t.cards) == 5 for t in state.tricks)
    assert sum(state.points) == 120
    assert state.points[2] >= 21  # the buried red 6 and red 5


# ----------------------------------------------------------------------------- games


def test_the_deal_passes_left_every_round() -> None:
    config = GameConfig(num_players=3, starting_victory_cards=20, max_rounds=7)
    rng = np.random.default_rng(3)
    game = Game(config, Deal.random(config, rng), dealer=1)
    dealers = []
    while True:
        dealers.append(game.round.dealer)
        assert game.round.current == (game.round.dealer + 1) % 3
        while not game.round.is_over:
            game.apply(game.round.legal_actions()[-1])  # always pass: Leasters
        if game.is_over or game.is_truncated:
            break
        game.next_round(Deal.random(config, rng))
    assert dealers == [(1 + k) % 3 for k in range(len(dealers))]
    assert len(dealers) >= 2


def test_a_game_ends_when_someone_holds_no_victory_cards_and_cannot_go_on() -> None:
    game = _play_buried_only(*BURY_29)
    assert game.is_over
    with pytest.raises(ValueError, match="ended"):
        game.next_round(Deal.random(FOUR, np.random.default_rng(0)))


def test_max_rounds_truncates_a_game_the_rules_have_not_ended() -> None:
    config = GameConfig(num_players=4, starting_victory_cards=5, max_rounds=1)
    hands, boon = BURY_30
    history = _play_buried_only(hands, boon).round.history
    game = play_out(config, [make_deal(config, hands, boon)], history, dealer=3)
    assert game.victory_cards == [2, 6, 6, 6]
    assert game.is_truncated
    assert not game.is_over


def test_the_next_round_cannot_start_before_this_one_ends() -> None:
    game = Game(FOUR, make_deal(FOUR, *BURY_30), dealer=3)
    play(game.round, "pick")
    with pytest.raises(ValueError, match="not over"):
        game.next_round(make_deal(FOUR, *BURY_29))


def test_play_out_replays_a_game_from_its_deals_and_actions() -> None:
    config = GameConfig(num_players=4, starting_victory_cards=2)
    rng = np.random.default_rng(11)
    deals = [Deal.random(config, rng)]
    game = Game(config, deals[0], dealer=2)
    moves = []
    while True:
        while not game.round.is_over:
            legal = game.round.legal_actions()
            move = legal[int(rng.integers(len(legal)))]
            moves.append(move)
            game.apply(move)
        if game.is_over:
            break
        deals.append(Deal.random(config, rng))
        game.next_round(deals[-1])
    again = play_out(config, deals, moves, dealer=2)
    assert again.victory_cards == game.victory_cards
    assert again.settlements == game.settlements
    assert again.dealer == game.dealer
    assert again.round.history == game.round.history
    with pytest.raises(ValueError, match="deal"):
        play_out(config, [], moves)


def test_replay_raises_on_an_illegal_history() -> None:
    deal = make_deal(FOUR, LEASTER_HANDS, LEASTER_BOON)
    with pytest.raises(ValueError, match="gold 14"):
        replay(FOUR, deal, actions("pass, pass, pass, pass, gold 14"), dealer=3)
