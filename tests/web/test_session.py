"""The web table's authoritative game session, without HTTP: moves, rounds, the coach, and what
the person's messages may show."""

from __future__ import annotations

import re

import pytest

from agents.games.boon.web import BOON_WEB, card_points, parse_action, round_summary, table
from agents.players.trained import default_model
from agents.registry import game_spec
from agents.specs import make_agent
from agents.web.session import GameSession, load_coach_policy
from boon_env.games.boon.rules import PASS, PICK, GameConfig, Round, names_of
from tests.helpers.boon import cards, make_deal

CARD_NAME = re.compile(r"\b(?:green|red|blue|gold) \d+\b")


def session(players: int = 4, seed: int = 0) -> GameSession:
    agents = {seat: make_agent("heuristic") for seat in range(1, players)}
    return GameSession(BOON_WEB, players, agents, human=0, seed=seed)


def first_legal(message: dict) -> int:
    return parse_action(message["legal"][0])


def test_parse_action_reads_names_and_refuses_anything_else():
    assert parse_action("pick") == PICK
    assert parse_action(" Pass ") == PASS
    assert parse_action("gold 14") == 31
    for bad in ["gold 15", "purple 1", "", 31, None, ["pick"], "x" * 40]:
        with pytest.raises(ValueError):
            parse_action(bad)


def test_card_points_are_the_rule_book_values():
    points = card_points()
    assert points["green"] == [0, 0, 0, 4, 10, 11]
    assert points["gold"][-1] == 3 and len(points["gold"]) == 14
    assert sum(sum(values) for values in points.values()) == 120


@pytest.mark.parametrize("players", [3, 4, 5])
def test_a_whole_game_plays_to_its_end(players):
    game = session(players, seed=players)
    messages = game.start()
    rounds = 0
    while True:
        last = messages[-1]
        if last["summary"] is not None:
            rounds += 1
            assert sum(last["summary"]["payout"]) == 0
            if last["game_over"]:
                break
            messages = game.next_round()
            continue
        assert game.to_act and last["legal"]
        messages = game.act(first_legal(last))
    assert min(last["table"]["victory_cards"]) == 0
    assert last["winners"] == game.game.winners
    assert rounds == game.game.rounds_played
    assert sum(last["table"]["victory_cards"]) == 5 * players


def test_moves_out_of_turn_or_illegal_are_refused_and_change_nothing():
    game = session(seed=1)
    game.start()
    before = game.message()
    history = list(game.round.history)
    illegal = next(card for card in range(32) if card not in game.round.legal_actions())
    with pytest.raises(ValueError, match="not legal now"):
        game.act(illegal)
    with pytest.raises(ValueError, match="round is not over"):
        game.next_round()
    assert game.round.history == history
    assert game.message() == before
    while not game.round.is_over:  # act returns at the person's next turn or the round's end
        game.act(game.round.legal_actions()[0])
    finished = game.message()
    with pytest.raises(ValueError, match="not your turn"):
        game.act(PASS)
    assert game.message() == finished


def test_a_session_needs_an_agent_for_every_other_seat():
    with pytest.raises(ValueError, match="one agent for every seat"):
        GameSession(BOON_WEB, 4, {1: make_agent("random"), 2: make_agent("random")})
    with pytest.raises(ValueError, match="one agent for every seat"):
        GameSession(BOON_WEB, 4, {seat: make_agent("random") for seat in range(4)})


def test_another_seats_bury_is_announced_without_the_card():
    # Seat 1 (an agent) is left of the dealer and picks at once with this hand of golds.
    config = GameConfig(num_players=4)
    deal = make_deal(
        config,
        [
            "green 1, green 2, green 3, red 1, red 2, red 3, blue 1",
            "gold 14, gold 13, gold 12, gold 11, gold 10, gold 9, gold 8",
            "green 4, green 5, green 6, red 4, red 5, red 6, blue 2",
            "blue 3, blue 4, blue 5, blue 6, gold 1, gold 2, gold 3",
        ],
        "gold 4, gold 5, gold 6, gold 7",
    )
    game = session(seed=0)
    game.game.round = Round(config, deal, dealer=0)
    messages = game.start()
    events = [m["event"] for m in messages if m["event"]]
    assert events[0] == {**events[0], "seat": 1, "kind": "pick", "card": None}
    buries = [e for e in events if e["kind"] == "bury"]
    assert len(buries) == 4 and all(e["card"] is None for e in buries)
    before_play = [m for m in messages if not m["table"]["trick"] and not m["table"]["last_trick"]]
    assert len(before_play) == 6  # the opening table, the pick and four buries
    for message in before_play:
        assert message["table"]["boon"] is None and message["table"]["discards"] is None
        shown = set(CARD_NAME.findall(str(message)))
        assert shown <= set(names_of(deal.hands[0])), shown


def test_table_shows_the_boon_and_discards_to_the_picker_only():
    config = GameConfig(num_players=4)
    deal = make_deal(
        config,
        [
            "gold 14, gold 13, gold 12, gold 11, gold 10, gold 9, gold 8",
            "green 1, green 2, green 3, red 1, red 2, red 3, blue 1",
            "green 4, green 5, green 6, red 4, red 5, red 6, blue 2",
            "blue 3, blue 4, blue 5, blue 6, gold 1, gold 2, gold 3",
        ],
        "gold 4, gold 5, gold 6, gold 7",
    )
    state = Round(config, deal, dealer=3)
    state.apply(PICK)
    state.apply(cards("gold 4")[0])
    mine = table(state, [5] * 4, {0}, show_boon=True)
    theirs = table(state, [5] * 4, {1}, show_boon=False)
    assert mine["boon"] == ["gold 4", "gold 5", "gold 6", "gold 7"]
    assert mine["discards"] == ["gold 4"] and mine["to_bury"] == 3
    assert theirs["boon"] is None and theirs["discards"] is None
    assert theirs["hands"][0] is None and theirs["hand_sizes"][0] == 10
    assert not {"gold 14", "gold 4"} & set(CARD_NAME.findall(str(theirs)))


def test_round_summary_reads_live_and_recorded_records():
    recorded = {
        "picker": -1,
        "leaster": True,
        "points": [0, 34, 25, 36],
        "tricks_won": [0, 3, 1, 3],
        "payout": [-1, -1, 3, -1],
        "victory_cards": [4, 4, 8, 4],
        "discards": [-1, -1, -1, -1],
    }
    summary = round_summary(recorded)
    assert summary["picker"] is None and summary["discards"] == []
    live = {**recorded, "picker": 2, "leaster": False, "discards": [31, 0]}
    assert round_summary(live)["discards"] == ["gold 14", "green 1"]
    assert round_summary(live)["picker"] == 2


def test_coach_gives_probabilities_and_search_values_of_the_legal_actions():
    game = session(seed=2)
    message = game.start()[-1]
    legal = set(message["legal"])
    policy = load_coach_policy(default_model(4), 4, "boon")
    advice = game.coach(policy, True)
    assert set(advice["policy"]) == legal == set(advice["search"])
    assert sum(advice["policy"].values()) == pytest.approx(1.0)
    # Victory Cards won this round: at most 2 from (or to) each of 3 seats.
    assert all(abs(value) <= 6.1 for value in advice["search"].values())
    assert advice["best"] in legal and advice["unit"] == "Victory Cards"
    # The values are the game's evaluator's (the expert search's, as boon advise reviews with).
    assert advice["how"] == game_spec("boon").evaluator(4).note
    assert min(advice["cost"].values()) == 0 and advice["cost"][advice["best"]] == 0
    assert game.coach(policy, False)["search"] is None
    history = list(game.round.history)
    while not game.round.is_over:
        game.act(game.round.legal_actions()[0])
    with pytest.raises(ValueError, match="not your turn"):
        game.coach(policy, False)
    assert history == game.round.history[: len(history)]


def test_the_round_review_values_every_seats_decisions():
    """The review of the last finished round replays its record (the person's and the agents'
    moves) and values each decision with a choice."""
    game = session(seed=4)
    game.start()
    with pytest.raises(ValueError, match="no round has finished yet"):
        game.round_review()
    while not game.round.is_over:
        game.act(game.round.legal_actions()[-1])
    review = game.round_review()
    assert review["round"] == 1 and review["unit"] == "Victory Cards" and review["how"]
    seats = review["seats"]
    assert [seat["name"] for seat in seats] == ["You", "Seat 1", "Seat 2", "Seat 3"]
    assert [seat["agent"] for seat in seats] == ["you", "heuristic", "heuristic", "heuristic"]
    assert sum(seat["decisions"] for seat in seats) > 0
    assert all(seat["mean_loss"] >= 0 for seat in seats)


def test_sessions_with_the_same_seed_repeat_and_are_independent():
    one, two = session(seed=9), session(seed=9)
    assert one.start() == two.start()
    other = session(seed=10)
    other.start()
    assert one.round.deal != other.round.deal or one.round.dealer != other.round.dealer


def test_asking_the_coach_changes_neither_the_deals_nor_the_agents_moves():
    """A seed gives the same game whether or not the person asks the coach, whose search
    samples deals: the deals, the coach and the agents each draw from their own generator."""

    def play(ask_coach: bool) -> list[tuple]:
        agents = {seat: make_agent("random", num_players=4) for seat in range(1, 4)}
        game = GameSession(BOON_WEB, 4, agents, human=0, seed=11)
        game.start()
        rounds = []
        for _ in range(3):
            while not game.round.is_over:
                if ask_coach:
                    game.coach(None, True)
                game.act(game.round.legal_actions()[0])
            rounds.append((game.round.deal, game.round.dealer, list(game.round.history)))
            if game.game.is_over:
                break
            game.next_round()
        return rounds

    assert play(ask_coach=True) == play(ask_coach=False)
