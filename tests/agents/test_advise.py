"""``boon advise``: the hand's sampling, the paired rollouts, the advice and its errors."""

from __future__ import annotations

import json
from pathlib import Path

import numpy as np
import pytest

from agents.games.boon.heuristic import HeuristicAgent, HeuristicParams
from agents.games.boon.studies.advise import (
    BRANCHES,
    DEALER,
    Decision,
    Estimate,
    GainsByGold,
    _values_batched,
    _values_on_rules,
    _values_one_by_one,
    advise,
    advise_double_dummy,
    advised_seat,
    check_position,
    double_dummy_values,
    parse_hand,
    pick_and_pass_values,
    plot_gains_by_gold,
    sample_deals,
)
from agents.specs import make_agent
from boon_env.games.boon.rules import Deal, GameConfig, cards_of, mask_of, parse_cards
from tests.helpers.cli import run_boon

TOP_GOLD = "gold 14, gold 13, gold 12, gold 11, gold 10, gold 9, gold 8"
LOW_PLAIN = "green 1, green 2, green 3, red 1, red 2, blue 1, blue 2"


# ------------------------------------------------------------------------------------ sampling
def test_sampled_deals_keep_the_hand_and_partition_the_deck() -> None:
    config = GameConfig(num_players=3)
    hand = parse_hand(
        config, "gold 14, gold 1, green 6, red 2, blue 3, blue 4, gold 7, red 6, green 2"
    )
    for deal in sample_deals(config, hand, 2, 20, np.random.default_rng(0)):
        deal.check(config)  # a partition of the 3-player deck, right sizes
        assert deal.hands[2] == mask_of(hand)


def test_hidden_cards_are_spread_uniformly() -> None:
    # Every unseen card lands in the Boon with probability boon_size / unseen cards.
    config = GameConfig(num_players=4)
    hand = parse_hand(config, TOP_GOLD)
    deals = sample_deals(config, hand, 1, 5000, np.random.default_rng(1))
    counts = np.zeros(32)
    for deal in deals:
        counts[list(cards_of(deal.boon))] += 1
    unseen = [c for c in range(32) if c not in hand]
    expected = 5000 * config.boon_size / len(unseen)
    assert counts[list(hand)].sum() == 0
    assert np.abs(counts[unseen] - expected).max() < 4 * np.sqrt(expected)


def test_the_advised_seat_decides_at_its_position() -> None:
    assert [advised_seat(4, k) for k in range(4)] == [1, 2, 3, 0]  # the dealer, seat 0, last
    assert DEALER == 0


# ------------------------------------------------------------------------------------ rollouts
def _decisions(n: int, count: int, seed: int) -> list[Decision]:
    config = GameConfig(num_players=n)
    rng = np.random.default_rng(seed)
    return [
        Decision(Deal.random(config, rng), int(rng.integers(n)), int(rng.integers(n)))
        for _ in range(count)
    ]


@pytest.mark.parametrize(("n", "spec"), [(3, "random"), (4, "ppo"), (5, "random")])
def test_batched_rollouts_equal_one_table_rollouts(n: int, spec: str) -> None:
    config = GameConfig(num_players=n)
    decisions = _decisions(n, 12, seed=n)
    batched = _values_batched(make_agent(spec, num_players=n), config, decisions, 7, 0, 12)
    agents = [make_agent(spec, num_players=n) for _ in range(n)]
    assert np.array_equal(batched, _values_one_by_one(agents, config, decisions, 7))


def test_heuristic_rollouts_on_the_rules_engine_equal_the_environment() -> None:
    config = GameConfig(num_players=4)
    decisions = _decisions(4, 15, seed=3)
    agents = [HeuristicAgent() for _ in range(4)]
    on_rules = _values_on_rules(HeuristicParams(), config, decisions)
    assert np.array_equal(on_rules, _values_one_by_one(agents, config, decisions, 0))


def test_the_dealer_passing_makes_a_leaster() -> None:
    # At the last position passing ends the bidding: a Leaster, whose values are n - 1 for the
    # winner, -1 for the others or 0 when drawn; a picker's or defender's are never -2, 1 or 2.
    config = GameConfig(num_players=4)
    hand = parse_hand(config, LOW_PLAIN)
    deals = sample_deals(config, hand, advised_seat(4, 3), 40, np.random.default_rng(2))
    values = pick_and_pass_values("heuristic", 4, [Decision(d, DEALER, 3) for d in deals])
    assert set(values[:, BRANCHES.index(33)]) <= {3.0, -1.0, 0.0}
    assert set(values[:, BRANCHES.index(32)]) <= {-6.0, -3.0, 3.0, 6.0}  # the picker's values


def test_a_bad_decision_is_refused() -> None:
    deal = _decisions(4, 1, 0)[0].deal
    with pytest.raises(ValueError, match="position must be 0-3"):
        pick_and_pass_values("heuristic", 4, [Decision(deal, 0, 4)])
    with pytest.raises(ValueError, match="deal"):
        pick_and_pass_values("heuristic", 3, [Decision(deal, 0, 0)])


# -------------------------------------------------------------------------------------- advice
@pytest.mark.parametrize("agent", ["heuristic", "ppo"])
def test_a_top_gold_hand_picks_and_low_plain_cards_pass(agent: str) -> None:
    strong = advise(TOP_GOLD, players=4, position=0, agent=agent, deals=40, seed=5)
    weak = advise(LOW_PLAIN, players=4, position=0, agent=agent, deals=40, seed=5)
    assert strong.recommendation == "pick" and strong.gain.ci95[0] > 0
    assert weak.recommendation == "pass" and weak.gain.ci95[1] < 0
    # Seven top golds take every trick whoever plays: the picker always gets all 120 points.
    assert strong.pick.mean == strong.pick.ci95[0] == 6.0


def test_advice_is_seeded() -> None:
    first = advise(LOW_PLAIN, position=2, deals=30, seed=1).to_json()
    assert advise(LOW_PLAIN, position=2, deals=30, seed=1).to_json() == first
    assert advise(LOW_PLAIN, position=2, deals=30, seed=2).to_json() != first


def test_the_gain_is_the_paired_difference() -> None:
    advice = advise("gold 14, gold 13, gold 5, gold 4, red 6, blue 6, green 2", deals=50, seed=0)
    assert advice.gain.mean == pytest.approx(advice.pick.mean - advice.pass_.mean)
    # Paired: the gain's interval is narrower than the two values' intervals together.
    width = [e.ci95[1] - e.ci95[0] for e in (advice.pick, advice.pass_, advice.gain)]
    assert width[2] < width[0] + width[1]


def test_advise_json_contract() -> None:
    result = run_boon(
        "advise", "--players", "5", "--position", "4", "--hand", "gold 14, gold 12, red 6, "
        "blue 5, green 4, gold 3", "--deals", "25", "--seed", "3", "--json",
    )  # fmt: skip
    assert result.returncode == 0, result.stderr
    out = json.loads(result.stdout)
    assert list(out) == [
        "players", "position", "hand", "agent", "deals", "pick", "pass", "gain", "recommendation",
    ]  # fmt: skip
    assert (out["players"], out["position"], out["agent"], out["deals"]) == (5, 4, "heuristic", 25)
    assert out["hand"] == ["green 4", "red 6", "blue 5", "gold 3", "gold 12", "gold 14"]
    for key in ("pick", "pass", "gain"):
        assert list(out[key]) == ["mean", "ci95"]
        low, high = out[key]["ci95"]
        assert low <= out[key]["mean"] <= high
    assert out["gain"]["mean"] == pytest.approx(out["pick"]["mean"] - out["pass"]["mean"])
    assert out["recommendation"] == ("pick" if out["gain"]["mean"] > 0 else "pass")


def test_advise_table() -> None:
    result = run_boon("advise", "--position", "0", "--hand", TOP_GOLD, "--deals", "10")
    assert result.returncode == 0, result.stderr
    assert "advice: pick (the gain's 95% CI excludes 0)" in result.stdout
    assert "hand: gold 8, gold 9, gold 10, gold 11, gold 12, gold 13, gold 14" in result.stdout


# -------------------------------------------------------------------------------------- errors
_SIX = "gold 14, gold 13, gold 12, gold 11, gold 10, gold 9"


@pytest.mark.parametrize(
    ("args", "message"),
    [
        (["--hand", _SIX], "hand: a 4-player hand has 7 cards, got 6"),
        (["--hand", f"{TOP_GOLD}, gold 7"], "hand: a 4-player hand has 7 cards, got 8"),
        (["--hand", _SIX + ", gold 15"], "hand: rank of a gold card must be 1-14, got 15"),
        (["--hand", _SIX + ", purple 3"], "hand: not a card name: 'purple 3'"),
        (["--hand", _SIX + ", gold 14"], "hand: gold 14 is given twice"),
        (
            [
                "--players",
                "3",
                "--hand",
                "green 1, gold 2, gold 3, gold 4, gold 5, gold 6, gold 7, gold 8, gold 9",
            ],
            "hand: green 1 is not in the 3-player deck",
        ),
        (["--position", "4"], "position must be 0-3 at a 4-player table (0 decides first, 3 is"),
        (["--position", "-1"], "--position: must be an integer 0-"),
        (["--players", "6"], "players must be one of (3, 4, 5), got 6"),
        (["--deals", "0"], "--deals: must be an integer 1-"),
        (["--agent", "wizard"], "unknown agent kind 'wizard'"),
    ],
)
def test_bad_input_gets_a_one_line_error(args: list[str], message: str) -> None:
    defaults = {"--position": "0", "--hand": TOP_GOLD}
    given = dict(zip(args[::2], args[1::2], strict=True))
    argv = [item for key, value in {**defaults, **given}.items() for item in (key, value)]
    result = run_boon("advise", *argv)
    assert result.returncode == 2
    assert result.stdout == ""
    lines = result.stderr.strip().splitlines()
    assert len(lines) == 1 and lines[0].startswith("boon advise: error: ")
    assert message in lines[0]


def test_bad_input_raises_value_error_from_python() -> None:
    config = GameConfig(num_players=4)
    with pytest.raises(ValueError, match="gold 14 is given twice"):
        parse_hand(config, ["gold 14", "gold 14", "gold 1", "gold 2", "gold 3", "gold 4", "red 5"])
    with pytest.raises(ValueError, match="card id must be 0-31, got 40"):
        parse_hand(config, [40, 1, 2, 3, 4, 5, 6])
    with pytest.raises(ValueError, match="position must be an integer"):
        check_position(4, 1.5)  # type: ignore[arg-type]
    assert parse_hand(config, parse_cards(TOP_GOLD)) == parse_hand(config, TOP_GOLD.split(","))


# -------------------------------------------------------------------------------- double dummy
def test_double_dummy_pick_branch_is_the_solved_band_after_the_heuristics_burial() -> None:
    from agents.games.boon.heuristic import choose
    from agents.games.boon.view import View
    from boon_env.games.boon.rules import PASS, PICK, Phase, Round
    from boon_env.games.boon.solver import solve_stake

    config = GameConfig(num_players=4)
    for deal in sample_deals(config, parse_hand(config, TOP_GOLD), 2, 6, np.random.default_rng(0)):
        pick_value, _pass_value, stake, _leaster = double_dummy_values(
            config, Decision(deal, DEALER, 1)
        )
        state = Round(config, deal, DEALER)
        state.apply(PASS)
        state.apply(PICK)
        while state.phase is Phase.DISCARD:
            state.apply(choose(View.from_round(state, 2), state.legal_mask(), HeuristicParams()))
        assert stake == solve_stake(state)
        assert pick_value == 3 * stake


def test_double_dummy_advice_shares_and_contract() -> None:
    advice = advise_double_dummy(TOP_GOLD, players=4, position=0, deals=8, seed=1)
    data = advice.to_json()
    assert list(data) == [
        "players", "position", "hand", "method", "deals", "outcomes", "leasters", "pick",
        "pass", "gain", "recommendation",
    ]  # fmt: skip
    shares = data["outcomes"]
    assert shares["wins"] + shares["loses"] == pytest.approx(1.0)
    assert shares["wins_double"] <= shares["wins"] and shares["loses_double"] <= shares["loses"]
    # Seven top golds win every deal double dummy.
    assert shares["wins_double"] == 1.0 and data["recommendation"] == "pick"
    assert advice.gain.mean == pytest.approx(advice.pick.mean - advice.pass_.mean)
    assert advise_double_dummy(TOP_GOLD, deals=8, seed=1) == advice  # seeded
    weak = advise_double_dummy(LOW_PLAIN, players=4, position=0, deals=8, seed=1)
    assert weak.outcomes["loses"] == 1.0 and weak.recommendation == "pass"
    assert "double dummy" in weak.table()


def test_double_dummy_advice_from_the_command_line() -> None:
    result = run_boon(
        "advise", "--players", "5", "--position", "4", "--hand",
        "gold 14, gold 13, gold 12, gold 11, red 6, blue 6", "--double-dummy", "--deals", "4",
        "--json",
    )  # fmt: skip
    assert result.returncode == 0, result.stderr
    data = json.loads(result.stdout)
    assert data["method"] == "double-dummy" and data["deals"] == 4 and data["players"] == 5
    refused = run_boon("advise", "--double-dummy", "--hand", TOP_GOLD, "--position", "0",
                       "--agent", "ppo")  # fmt: skip
    assert refused.returncode == 2
    assert refused.stderr.strip() == (
        "boon advise: error: --agent plays the hands out; --double-dummy solves them instead"
    )


def test_the_gains_chart_draws_both_curves_per_gold_count(tmp_path: Path) -> None:
    pytest.importorskip("matplotlib")
    rows = [
        GainsByGold(2, 5, Estimate(-3.0, (-4.0, -2.0)), Estimate(-1.0, (-2.0, 0.0))),
        GainsByGold(5, 3, Estimate(0.5, (-1.0, 2.0)), Estimate(3.0, (2.0, 4.0))),
    ]
    path = tmp_path / "gains.png"
    figure = plot_gains_by_gold(rows, path)
    [axes] = figure.axes
    curves = [list(map(float, line.get_ydata())) for line in axes.get_lines()]
    assert [-3.0, 0.5] in curves and [-1.0, 3.0] in curves
    assert [text.get_text() for text in axes.texts] == ["5", "3"]  # the deals behind each point
    assert path.read_bytes().startswith(b"\x89PNG")
