"""The bidding studies: paired rollouts, hand features, fitted rules, the discard, the Leaster."""

import re
from math import comb
from pathlib import Path

import numpy as np
import pytest

from agents.games.boon.heuristic import HeuristicAgent, HeuristicParams
from agents.games.boon.search import play_out
from agents.games.boon.studies import research
from agents.games.boon.studies.discard import (
    burial_features,
    burials,
    discard_study,
    most_points,
    most_voids,
    summarize_discards,
)
from agents.games.boon.studies.features import (
    FEATURES,
    feature_matrix,
    half_the_trump,
    hand_features,
)
from agents.games.boon.studies.hands import PickData, compare_rules, fit_linear, fit_rule, score
from agents.games.boon.studies.leaster import leaster_study, leaster_table
from agents.games.boon.studies.pick import (
    deal_sample,
    pick_choices,
    rounds_picked,
    seat_pick_rates,
    study,
)
from agents.games.boon.studies.rollouts import Table, first_choices, play_tables
from agents.players.trained import PPOAgent, default_model
from boon_env.games.boon.rules import PASS, PICK, GameConfig, Round, parse_cards, round_value


def _mask(names: str) -> int:
    return sum(1 << card for card in parse_cards(names))


class _OneTableAtATime:
    """An agent hidden behind a plain class: forces the one-table ``boon_v0`` path."""

    def __init__(self, agent):
        self.agent, self.name = agent, "wrapped"

    def act(self, observation, action_mask):
        return self.agent.act(observation, action_mask)

    def reset(self, seed=None):
        self.agent.reset(seed)


def _tables(num_players: int, deals: int, openings) -> list[Table]:
    return [
        Table(deal, dealer, opening, seed=7)
        for deal, dealer in deal_sample(num_players, deals, seed=5)
        for opening in openings
    ]


# ----------------------------------------------------------------------------------- rollouts
@pytest.mark.parametrize("num_players", [3, 4, 5])
def test_the_heuristic_plays_alike_on_the_rules_engine_and_through_the_environment(num_players):
    config = GameConfig(num_players=num_players)
    tables = _tables(num_players, 4, [(), (PICK,), (PASS,) * num_players])
    fast = play_tables(HeuristicAgent(), config, tables)
    slow = play_tables(_OneTableAtATime(HeuristicAgent()), config, tables)
    assert (fast.values == slow.values).all() and (fast.points == slow.points).all()
    openings = _tables(num_players, 4, [(), (PASS,), (PICK,)])
    assert (
        first_choices(HeuristicAgent(), config, openings)
        == first_choices(_OneTableAtATime(HeuristicAgent()), config, openings)
    ).all()


def test_the_policy_plays_alike_on_the_vector_engine_and_one_table_at_a_time():
    config = GameConfig(num_players=4)
    agent = PPOAgent(default_model(4), num_players=4)
    tables = _tables(4, 5, [(), (PASS, PICK), (PASS,) * 4])
    batched = play_tables(agent, config, tables)
    single = play_tables(_OneTableAtATime(agent), config, tables)
    assert (batched.values == single.values).all() and (batched.points == single.points).all()
    assert (batched.values.sum(axis=1) == 0).all()  # round values are zero-sum
    openings = _tables(4, 5, [(), (PASS,), (PASS, PASS, PASS), (PICK,)])
    assert (
        first_choices(agent, config, openings)
        == first_choices(_OneTableAtATime(agent), config, openings)
    ).all()


def test_a_studied_choice_the_agent_would_make_anyway_gives_the_unscripted_result():
    # Paired rollouts: the branch that agrees with the agent's own decision is the round the
    # agent plays by itself, to the Victory Card.
    config = GameConfig(num_players=4)
    samples = study(4, deals=12, seed=3)
    own = pick_choices("heuristic", 4, deals=12, seed=3)
    natural = play_tables(
        HeuristicAgent(), config, [Table(d, dealer, ()) for d, dealer in deal_sample(4, 12, 3)]
    )
    for k, (_deal, dealer) in enumerate(deal_sample(4, 12, 3)):
        first = samples[4 * k]  # order 0: nobody has decided before it
        seat = (dealer + 1) % 4
        chosen = first.pick_value if own[k, 0] else first.pass_value
        assert chosen == natural.values[k, seat]


def test_a_seat_among_other_players_plays_its_own_agent():
    alone = study(4, deals=3, seed=1, rollout="heuristic", opponents="heuristic")
    assert alone == study(4, deals=3, seed=1)
    mixed = study(4, deals=3, seed=1, rollout="ppo", opponents="heuristic")
    assert [(s.order, s.hand) for s in mixed] == [(s.order, s.hand) for s in alone]
    assert mixed != alone


def test_an_opening_that_ends_the_round_leaves_no_choice():
    config = GameConfig(num_players=3)
    ((deal, dealer),) = deal_sample(3, 1, seed=0)
    state = Round(config, deal, dealer)
    play_out(state, HeuristicParams())
    whole = [Table(deal, dealer, tuple(state.history))]
    for agent in (HeuristicAgent(), _OneTableAtATime(HeuristicAgent())):
        with pytest.raises(ValueError, match="no choice"):
            first_choices(agent, config, whole)


def test_a_seat_among_others_picks_when_it_comes_first():
    hero = np.array([[True, False, False], [False, False, False]])
    others = np.array([[False, True, False], [False, False, True]])
    # The hero first: it picks on deal 0, the last seat on deal 1. The hero second: nobody
    # picks deal 0, the last seat picks deal 1. The hero last: the second seat picks deal 0,
    # nobody deal 1.
    mine, theirs = seat_pick_rates(hero, others)
    assert mine == pytest.approx((0.5 + 0 + 0) / 3)
    assert theirs == pytest.approx((0.5 / 2 + 0.5 / 2 + 0.5 / 2) / 3)


def test_pick_choices_and_the_rounds_with_a_picker():
    choices = pick_choices("heuristic", 4, deals=30, seed=0)
    assert choices.shape == (30, 4) and choices.dtype == bool
    assert rounds_picked(np.array([[False, True, False], [False, False, False]])) == 0.5
    # Every hand strong enough for the first seat is strong enough for the dealer, whose
    # threshold is lower: the heuristic's pick rate grows along the pick order.
    assert choices[:, 0].mean() <= choices[:, 3].mean()


# ----------------------------------------------------------------------------------- features
def test_hand_features_on_a_scripted_hand():
    hand = _mask("gold 14, gold 11, gold 3, green 6, green 5, red 6, red 2")
    assert hand_features(hand, 2) == {
        "gold": 3,
        "top_gold": 2,
        "gold_14": 1,
        "gold_13": 0,
        "gold_12": 0,
        "gold_11": 1,
        "aces": 2,
        "tens": 1,
        "voids": 1,  # blue
        "points": 3 + 3 + 0 + 11 + 10 + 11 + 0,
        "order": 2,
    }
    matrix = feature_matrix([hand, _mask("blue 1, blue 2")], [2, 0])
    assert matrix.shape == (2, len(FEATURES))
    assert matrix[1].tolist() == [0, 0, 0, 0, 0, 0, 0, 0, 2, 0, 0]
    assert half_the_trump(np.array([3, 4]), 7).tolist() == [False, True]
    assert half_the_trump(np.array([2, 3]), 6).tolist() == [False, True]


# ---------------------------------------------------------------------------------------- fits
def _planted(rows: int = 4000, seed: int = 0) -> tuple[np.ndarray, np.ndarray]:
    """Random feature rows whose gain is +2 from 4 gold cards up, else -2, plus noise."""
    rng = np.random.default_rng(seed)
    x = np.zeros((rows, len(FEATURES)), dtype=np.int64)
    x[:, FEATURES.index("gold")] = rng.integers(0, 8, rows)
    x[:, FEATURES.index("aces")] = rng.integers(0, 3, rows)
    x[:, FEATURES.index("points")] = rng.integers(0, 60, rows)
    gain = np.where(x[:, FEATURES.index("gold")] >= 4, 2.0, -2.0) + rng.normal(0, 1.0, rows)
    return x, gain


def test_the_tree_recovers_a_planted_rule():
    x, gain = _planted()
    rule = fit_rule(x, gain, depth=2)
    assert rule.text == "pick iff gold >= 4"
    assert (rule.picks(x) == (x[:, 0] >= 4)).all()
    assert fit_rule(x, np.abs(gain) + 1).text == "always pick"
    assert fit_rule(x, -np.abs(gain) - 1).text == "never pick"


def test_the_score_card_recovers_planted_weights():
    rng = np.random.default_rng(1)
    x = rng.integers(0, 6, size=(3000, len(FEATURES)))
    gain = 1.5 * x[:, FEATURES.index("gold")] - 0.5 * x[:, FEATURES.index("voids")] - 4
    card = fit_linear(x, gain + rng.normal(0, 0.1, len(gain)), use=("gold", "voids"))
    assert card.weights["gold"] == pytest.approx(1.5, abs=0.02)
    assert card.weights["voids"] == pytest.approx(-0.5, abs=0.02)
    assert card.intercept == pytest.approx(-4, abs=0.05)
    assert (card.picks(x) == (gain > 0)).mean() > 0.97


def test_a_rule_is_scored_by_agreement_and_earned_victory_cards():
    result = score(np.array([True, True, False, False]), np.array([3.0, -1.0, -2.0, 0.0]))
    assert result.pick_rate == 0.5
    assert result.accuracy == 0.75  # the zero gain counts as right either way
    assert result.value == pytest.approx((3.0 - 1.0) / 4)


def test_compare_rules_scores_the_agents_on_held_out_deals():
    samples = study(4, deals=60, seed=2)
    data = PickData.from_samples(4, samples)
    own = pick_choices("heuristic", 4, deals=60, seed=2)
    comparison = compare_rules(data, {"heuristic": own}, min_leaf=10)
    assert comparison.rules[2].text.startswith(("pick iff", "always", "never"))
    assert set(comparison.scores) >= {"half the hand in trump", "heuristic's own picks"}
    assert comparison.scores["never pick"].value == 0.0
    held_out = comparison.scores["never pick"].decisions
    assert 0 < held_out < len(samples) and held_out % 4 == 0  # whole deals held out


# ------------------------------------------------------------------------------------- discard
def test_burials_and_the_two_pure_strategies():
    cards = _mask("gold 14, gold 13, gold 2, green 6, green 1, red 5, blue 4, blue 6, blue 1")
    assert len(burials(cards, 3)) == comb(9, 3)
    assert most_points(cards, 3) == _mask("green 6, blue 6, red 5")  # 32 points, no gold
    assert most_voids(cards, 3) == _mask("green 6, green 1, red 5")  # two voids, 21 points
    # Gold stays in the hand, whatever its points.
    rich = _mask("gold 14, gold 13, gold 6, gold 5, green 6, green 1, red 2, blue 4, blue 1")
    assert most_points(rich, 3) == _mask("green 6, blue 4, green 1")  # 15 points, a void
    assert most_voids(rich, 3) == _mask("green 6, green 1, red 2")  # two voids
    assert burial_features(cards, most_voids(cards, 3)) == {
        "buried_points": 21,
        "voids": 2,
        "buried_gold": 0,
        "buried_top_gold": 0,
    }


def test_the_discard_study_pairs_every_burial_of_a_deal():
    samples = discard_study(5, deals=20, seed=0, max_burials=None)
    config = GameConfig(num_players=5)
    dealt = deal_sample(5, 20, 0)
    by_deal = {}
    for s in samples:
        by_deal.setdefault(s.deal, []).append(s)
    assert by_deal
    for k, group in by_deal.items():
        assert len(group) == comb(config.hand_size + config.boon_size, config.boon_size)
        assert sum(s.own for s in group) == 1
        assert all(s.buried & ~s.cards == 0 and s.buried.bit_count() == 2 for s in group)
        # the agent's own burial gives the round the agent plays by itself
        state = Round(config, *dealt[k])
        play_out(state, HeuristicParams())
        own = next(s for s in group if s.own)
        assert own.cards == dealt[k][0].hands[state.picker] | dealt[k][0].boon
        assert own.buried == state.discards
        assert own.value == round_value(state)[state.picker]
    summary = summarize_discards(samples, config.boon_size)
    assert summary.deals == len(by_deal)
    assert summary.strategies["own"][1] == 0.0  # no difference from itself
    best = summary.strategies["best studied"][0]
    assert all(mean <= best for mean, _half in summary.strategies.values())


# ------------------------------------------------------------------------------------- leaster
@pytest.mark.parametrize("num_players", [3, 5])
def test_every_seat_plays_the_leaster(num_players):
    samples = leaster_study(num_players, deals=15, seed=4)
    assert len(samples) == 15 * num_players
    for k in range(15):
        values = [s.value for s in samples if s.deal == k]
        assert sum(values) == 0 and set(values) <= {-1.0, 0.0, num_players - 1.0}
    table = leaster_table(samples, "points", num_players, step=10)
    assert table.startswith("| points | hands | wins | VC per Leaster |")


# ------------------------------------------------------------------------------ runs, report
def test_collect_and_report_write_the_results_and_figures(tmp_path):
    out, img = tmp_path / "results", tmp_path / "img"
    for name in research.STUDIES:
        research.main(["collect", name, "--deals", "12", "--out", str(out)])
    research.main(["collect", "pick", "--deals", "12", "--rollout", "ppo", "--out", str(out)])
    research.main(["collect", "choices", "--deals", "12", "--rollout", "ppo", "--out", str(out)])
    assert research.label("ppo:a/b.npz", "heuristic") == "ppo_a_b_npz_among_heuristic"
    research.main(["report", str(out), "--img", str(img)])
    report = (out / "report.md").read_text()
    assert "## Who is right? (4 players)" in report and "Rules of thumb" in report
    assert "## Discard, 4 players" in report and "## Leaster, 4 players" in report
    assert {p.name for p in img.iterdir()} == {
        "research_pick_gain.png",
        "research_pick_rates.png",
        "research_discard.png",
        "research_leaster.png",
    }


def test_the_research_page_shows_committed_small_figures():
    root = Path(__file__).resolve().parents[2] / "docs"
    figures = re.findall(r"\]\((img/research_[a-z_]+\.png)\)", (root / "research.md").read_text())
    # The four study figures and the double-dummy chart (its own test in test_advise.py).
    assert len(figures) == 5 and "img/research_double_dummy.png" in figures
    for figure in figures:
        assert (root / figure).stat().st_size < 100_000  # small enough to read on GitHub
