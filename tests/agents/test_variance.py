"""Variance reduction (``--variance-reduction``): the cross-fitted control-variate estimate is
unbiased, its interval honest, and the arena, tournament and compare use it alike."""

from __future__ import annotations

import copy
import importlib.util
import itertools
import json
import subprocess
import sys
from collections.abc import Iterator
from pathlib import Path

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from agents.cli.commands import main
from agents.eval.arena import arena_rounds, play_deals, reference_features, run_arena
from agents.eval.compare import compare_runs
from agents.eval.tournament import run_tournament
from agents.eval.variance import (
    FOLDS,
    Reduction,
    check_sizes,
    control_variates,
    estimate,
    reference_seed,
)
from agents.games.boon.arena import (
    SPLITS,
    boon_deal_options,
    chance_size,
    deal_options,
    opening_length,
    play_deals_batched,
    point_readings,
    seat_features,
    split_holders,
    split_points,
    split_terms,
)
from agents.registry import register, unregister
from agents.registry.spec import PlayedRound
from agents.specs import make_agent
from boon_env.core.bits import bits_of
from boon_env.games.boon.rules import NUM_CARDS, PASS, PICK, Deal, GameConfig, parse_cards
from tests.helpers.toy.rules import Round
from tests.helpers.toy.spec import TOY


@pytest.fixture
def toy() -> Iterator[str]:
    register(TOY)
    yield TOY.name
    unregister(TOY.name)


# ------------------------------------------------------------------------------- the estimate
def _nonlinear_sample(rng: np.random.Generator, n: int) -> tuple[np.ndarray, np.ndarray]:
    """Values whose mean is 1 (``z0^2`` plus noise that grows with ``|z0|``), and features
    that predict them only in part (linear and absolute terms of ``z``)."""
    z = rng.standard_normal((n, 3))
    values = z[:, 0] ** 2 + 2 * z[:, 0] * rng.standard_normal(n)
    return values, np.hstack([z, np.abs(z)])


def test_cross_fitting_is_unbiased_where_fitting_on_the_same_deals_is_not() -> None:
    rng = np.random.default_rng(0)
    crossed, in_sample, covered = [], [], 0
    for _ in range(2000):
        values, features = _nonlinear_sample(rng, 30)
        _, reference = _nonlinear_sample(rng, 400)
        mean, half = control_variates(values, features, reference).estimate()
        crossed.append(mean)
        covered += abs(mean - 1.0) < half
        # A ridge control variate whose coefficients are fitted on the very deals it corrects.
        centred = features - features.mean(axis=0)
        gram = centred.T @ centred + 5.0 * np.eye(features.shape[1])
        slopes = np.linalg.solve(gram, centred.T @ (values - values.mean()))
        in_sample.append(np.mean(values - features @ slopes) + np.mean(reference @ slopes))
    for estimates, biased in ((crossed, False), (in_sample, True)):
        error = np.mean(estimates) - 1.0
        standard_error = np.std(estimates) / np.sqrt(len(estimates))
        assert bool(abs(error) > 4 * standard_error) == biased, (error, standard_error)
    assert 0.88 < covered / 2000 < 0.99  # 95% asymptotically; 30 deals and a normal quantile


@settings(max_examples=30, deadline=None)
@given(
    seed=st.integers(0, 2**32 - 1),
    scale=st.floats(0.01, 100.0) | st.floats(-100.0, -0.01),
    shift=st.floats(-100.0, 100.0),
)
def test_the_estimate_moves_with_the_values(seed: int, scale: float, shift: float) -> None:
    # Affine in the values: the penalty chosen and the coefficients scale with them.
    rng = np.random.default_rng(seed)
    values, features = _nonlinear_sample(rng, 30)
    _, reference = _nonlinear_sample(rng, 50)
    mean, half = control_variates(values, features, reference).estimate()
    moved, moved_half = control_variates(scale * values + shift, features, reference).estimate()
    assert moved == pytest.approx(scale * mean + shift, rel=1e-6, abs=1e-6)
    assert moved_half == pytest.approx(abs(scale) * half, rel=1e-6, abs=1e-9)


def test_features_that_predict_nothing_leave_the_plain_estimate() -> None:
    values = np.random.default_rng(1).standard_normal(40)
    constant = control_variates(values, np.ones((40, 3)), np.ones((9, 3)))
    assert np.array_equal(constant.adjusted, values) and not constant.reference.any()
    assert constant.estimate() == estimate(values, np.zeros(0))
    plain_mean = values.mean()
    plain_half = 1.96 * values.std(ddof=1) / np.sqrt(40)
    assert estimate(values, np.zeros(0)) == pytest.approx((plain_mean, plain_half))


def test_a_perfect_predictor_leaves_the_reference_deals_error() -> None:
    rng = np.random.default_rng(2)
    weights = np.array([1.0, -2.0, 0.5])
    features, reference = rng.standard_normal((200, 3)), rng.standard_normal((5000, 3))
    reduction = control_variates(features @ weights + 3.0, features, reference)
    mean, half = reduction.estimate()
    plain_half = estimate(features @ weights, np.zeros(0))[1]
    assert half < 0.25 * plain_half  # about sqrt(200 / 5000) of it: the reference deals' share
    assert abs(mean - 3.0) < half
    assert isinstance(reduction, Reduction) and reduction.reference.shape == (5000,)


def test_sizes_and_shapes_are_checked() -> None:
    with pytest.raises(ValueError, match=f"at least {FOLDS} deals, got 9"):
        check_sizes(9, 100)
    with pytest.raises(ValueError, match="at least 2 reference deals, got 1"):
        check_sizes(10, 1)
    with pytest.raises(ValueError, match="features"):
        control_variates(np.zeros(12), np.zeros((12, 2)), np.zeros((5, 3)))


def test_reference_deals_are_drawn_apart_from_the_run() -> None:
    assert reference_seed(3) == reference_seed(3) != reference_seed(4)
    assert reference_seed(3) not in (3, 4)
    first = boon_deal_options(4, reference_seed(3), 0)
    assert first != boon_deal_options(4, 3, 0)


# ------------------------------------------------------------------ a toy with a known answer
def _exact_value(hands: list[list[int]], leader: int, heuristic: int) -> float:
    """The expected value of High Card's heuristic at seat ``heuristic`` of a 2-seat deal,
    the other seat playing uniformly at random, by walking every line of play."""

    def walk(state: Round) -> float:
        if state.is_over:
            return state.values()[heuristic]
        legal = bits_of(state.legal_mask())
        choices = [max(legal)] if state.current == heuristic else legal
        outcomes = []
        for card in choices:
            after = copy.deepcopy(state)
            after.apply(card)
            outcomes.append(walk(after))
        return float(np.mean(outcomes))

    return walk(Round([sum(1 << card for card in hand) for hand in hands], leader))


def _exact_expectation() -> float:
    """The heuristic's expected mean per deal in the arena against ``random`` at 2 seats: over
    every deal (ordered pairs of disjoint 2-card hands, all equally likely), both leaders
    (deals alternate) and both seats (the rotations)."""
    cards = range(6)
    values = [
        _exact_value([list(first), list(second)], leader, seat)
        for first in itertools.combinations(cards, 2)
        for second in itertools.combinations(sorted(set(cards) - set(first)), 2)
        for leader in (0, 1)
        for seat in (0, 1)
    ]
    return float(np.mean(values))


def test_the_toy_arena_is_unbiased_against_its_exact_expectation(toy: str) -> None:
    truth = _exact_expectation()
    estimates, covered, widths = [], 0, []
    for seed in range(30):
        report = run_arena(
            ["heuristic", "random"], deals=40, seed=seed, game=toy, variance_reduction=True
        )
        assert report.variance_reduction is not None
        heuristic = report.variance_reduction.results[0]
        estimates.append(heuristic.mean)
        covered += heuristic.ci95[0] < truth < heuristic.ci95[1]
        widths.append(heuristic.width_ratio)
    standard_error = np.std(estimates) / np.sqrt(len(estimates))
    assert abs(np.mean(estimates) - truth) < 4 * standard_error
    assert covered >= 24  # of 30 intervals at 95%
    assert np.mean(widths) < 0.8  # who takes the first trick is much of the result


# ---------------------------------------------------------------------------- Boon's features
def test_boon_features_name_the_picker_and_sign_the_roles() -> None:
    config = GameConfig(num_players=4)
    hands = [
        "gold 14, gold 13, gold 12, gold 11, gold 10, gold 9, gold 8",
        "gold 7, gold 6, gold 5, gold 4, gold 3, gold 2, gold 1",
        "green 1, green 2, green 3, green 4, green 5, green 6, red 1",
        "red 2, red 3, red 4, red 5, red 6, blue 1, blue 2",
    ]
    boon = parse_cards("blue 3, blue 4, blue 5, blue 6")
    deal = Deal.from_cards(config, [parse_cards(hand) for hand in hands], boon)
    options = deal_options(deal, dealer=3)  # seat 0 decides first, then 1, 2 and 3
    assert opening_length(4) == 4
    picked = [PASS, PICK, *parse_cards("blue 3, blue 4")]  # seat 1 picks, starts discarding
    picker, defender = seat_features(options, picked, 1), seat_features(options, picked, 2)
    width = (len(picker) - 1) // 2
    assert not picker[width:].any() and not defender[:width].any()  # one block per role
    # The picker's cards: its hand and the Boon; it was second to decide.
    cards = sorted({*parse_cards(hands[1]), *boon})
    assert picker[:32].nonzero()[0].tolist() == cards
    assert set(picker[:32]) == {0.0, 3.0}  # n - 1: what the picker wins or pays per defender
    assert defender[width : width + 32].tolist() == (-picker[:32] / 3).tolist()
    assert picker[32 + 1 + 1] == 3.0  # second in the pick order
    assert defender[width + 32 + 1 + 4 + 1] == -1.0  # one seat after the picker
    # Its 7 golds and the Boon's none: the gold count's one-hot.
    assert picker[32 + 1 + 8 + 7] == 3.0
    leaster = seat_features(options, [PASS] * 4, 0)
    assert leaster[-1] == 1.0 and not leaster[:-1].any()


# ------------------------------------------------------------------ Boon's chance terms
@settings(max_examples=40, deadline=None)
@given(
    holders=st.lists(st.integers(0, 3), min_size=1, max_size=6),
    others=st.sets(st.integers(0, NUM_CARDS - 1), max_size=4),
)
def test_each_split_is_as_likely_as_the_deal(holders: list[int], others: set[int]) -> None:
    # Exact on a tiny case: over every arrangement of the unseen cards' holders (the deal's
    # arrangement is uniform among them), split k is a bijection of the arrangements, so any
    # value has the same mean on the splits as on the deals and the chance term has mean 0.
    unseen = np.array(sorted(set(range(NUM_CARDS)) - others)[: len(holders)])
    base = np.full(NUM_CARDS, 9)
    arrangements = sorted(set(itertools.permutations(holders)))
    splits = []
    for arrangement in arrangements:
        where = base.copy()
        where[unseen] = arrangement
        rows = split_holders(where, unseen, count=3)
        assert (np.delete(rows, unseen, axis=1) == np.delete(where, unseen)).all()
        splits.append([tuple(row[unseen]) for row in rows])
    for k in range(3):
        assert sorted(split[k] for split in splits) == arrangements


def _boon_rounds(specs: list[str], deals: int, seed: int) -> list[list[PlayedRound]]:
    return list(arena_rounds(specs, deals, seed=seed))


@pytest.mark.skipif(importlib.util.find_spec("numba") is None, reason="the solver extra")
def test_split_terms_are_the_deal_less_its_splits_shared_as_the_value() -> None:
    rounds = next(
        deal
        for deal in _boon_rounds(["ppo", "heuristic", "heuristic", "heuristic"], 40, seed=5)
        if len({list(r.actions[:4]).index(PICK) if PICK in r.actions[:4] else 4 for r in deal}) > 1
    )
    terms = split_terms(rounds, {0})
    assert terms.shape == (chance_size(4),) and terms.any()
    # By hand: each of ppo's rounds, its share of the readings' deal-less-splits difference.
    expected = np.zeros(chance_size(4))
    for played in rounds:
        seat, picks = played.slots.index(0), list(played.actions[:4])
        if PICK not in picks:
            continue  # a Leaster counts 0
        place = picks.index(PICK)
        picker = (played.options["dealer"] + 1 + place) % 4
        deal = played.options["deal"]
        points = split_points(
            tuple(map(tuple, deal["hands"])), tuple(deal["boon"]), played.options["dealer"], place
        )
        assert points.shape == (SPLITS + 1,) and ((points >= 0) & (points <= 120)).all()
        readings = point_readings(points)
        expected += (3 if seat == picker else -1) * (readings[0] - readings[1:].mean(axis=0))
    assert terms == pytest.approx(expected / 4)
    # The three heuristics' seats hold every other share: the pooled terms are the opposite.
    assert split_terms(rounds, {1, 2, 3}) == pytest.approx(-terms / 3)


@pytest.mark.skipif(importlib.util.find_spec("numba") is None, reason="the solver extra")
def test_split_terms_of_one_player_everywhere_cancel_unsolved() -> None:
    # The same picker in every rotation: the shares cancel and nothing is solved.
    split_points.cache_clear()
    for rounds in _boon_rounds(["heuristic"] * 4, 6, seed=3):
        assert not split_terms(rounds, {0}).any()
    assert split_points.cache_info().misses == 0


@pytest.mark.skipif(importlib.util.find_spec("numba") is None, reason="the solver extra")
def test_split_terms_average_zero_over_deals() -> None:
    # Statistically too (the exact guarantee is the bijection above): a line-up whose picks
    # differ often, 3 players, 30 deals.
    terms = np.array(
        [
            split_terms(rounds, {0})
            for rounds in _boon_rounds(["random", "heuristic", "heuristic"], 30, seed=11)
        ]
    )
    error = terms.std(axis=0, ddof=1) / np.sqrt(len(terms))
    assert (np.abs(terms.mean(axis=0)) < 4 * error + 1e-12).all()
    assert (terms != 0).any(axis=1).mean() > 0.3


def test_openings_are_the_first_actions_of_the_rounds_on_both_paths() -> None:
    specs = ["ppo", "heuristic", "random"]
    agents = [make_agent(spec, seed=0, num_players=3) for spec in specs]
    whole = play_deals(agents, 4, 0, 6)
    batched = play_deals_batched(agents, 4, 0, 6, opening=3)
    one_table = play_deals(agents, 4, 0, 6, opening=3)
    for full, fast, slow in zip(whole, batched, one_table, strict=True):
        for round_, opening, same in zip(full, fast, slow, strict=True):
            assert opening.actions == same.actions == round_.actions[:3]
            assert opening.info == same.info == {}
            assert opening.slots == round_.slots and opening.options == round_.options
    assert all(r.actions == [] for rounds in play_deals(agents, 4, 0, 2, opening=0) for r in rounds)


# ------------------------------------------------------------------------ arena and friends
def test_the_arena_reports_both_estimates_the_same_on_both_paths() -> None:
    specs = ["ppo", "heuristic", "heuristic"]
    report = run_arena(specs, 30, seed=6, variance_reduction=True, reference_deals=40)
    again = run_arena(specs, 30, seed=6, variance_reduction=True, reference_deals=40, batch=False)
    reduced = report.variance_reduction
    assert reduced is not None and again.variance_reduction is not None
    assert reduced.results == again.variance_reduction.results
    assert (reduced.reference_deals, reduced.opening) == (40, 3)
    plain = {r.agent: r for r in report.results}
    for result in reduced.results:
        assert result.plain_ci95 == plain[result.agent].ci95
        assert result.ci95[0] < result.mean < result.ci95[1]
        width = result.ci95[1] - result.ci95[0]
        assert result.width_ratio == pytest.approx(
            width / (result.plain_ci95[1] - result.plain_ci95[0])
        )
    assert "variance-reduced" in report.table() and "plain 95% CI" in report.table()
    entry = report.to_json()["variance_reduction"]
    assert set(entry) == {"reference_deals", "opening_actions", "reference_seconds", "results"}
    assert set(entry["results"][0]) == {"agent", "mean", "ci95", "plain_ci95", "width_ratio"}
    assert "variance_reduction" not in run_arena(specs, 3, seed=6).to_json()


def test_reference_features_pool_the_seats_of_a_spec() -> None:
    specs = ["ppo", "heuristic", "heuristic"]
    on_reference = reference_features(specs, 4, seed=2)
    assert set(on_reference) == {"ppo", "heuristic"}
    assert on_reference["ppo"].shape == on_reference["heuristic"].shape == (4, 2 * 52 + 1)
    with_chance = reference_features(specs, 4, seed=2, chance=True)
    # The chance terms' known mean, 0, beside the same opening features.
    assert with_chance["ppo"].shape == (4, 2 * 52 + 1 + chance_size(3))
    assert (with_chance["ppo"][:, : 2 * 52 + 1] == on_reference["ppo"]).all()
    assert not with_chance["ppo"][:, 2 * 52 + 1 :].any()


def test_the_chance_terms_are_asked_for_and_named() -> None:
    # Only "solver" solves: the plain option keeps the opening's features (fast), the same
    # plain figures either way, and the table names the unseen cards only with them.
    specs = ["ppo", "heuristic", "heuristic"]
    plain = run_arena(specs, 12, seed=5, variance_reduction=True, reference_deals=8)
    solved = run_arena(specs, 12, seed=5, variance_reduction=True, reference_deals=8, chance=True)
    assert plain.results == solved.results
    assert plain.variance_reduction is not None and solved.variance_reduction is not None
    assert not plain.variance_reduction.chance and solved.variance_reduction.chance
    assert "unseen" in solved.table() and "unseen" not in plain.table()


def test_chance_terms_for_a_game_without_them_are_refused(toy: str) -> None:
    with pytest.raises(ValueError, match="chance terms"):
        run_arena(["heuristic", "random"], 20, game=toy, variance_reduction=True, chance=True)


def test_identical_agents_reduce_to_an_exact_zero(tmp_path: Path) -> None:
    # Two specs of one deterministic player: every deal's values are 0, and so is the control
    # variate fitted to them.
    specs = ["heuristic", "heuristic:ace_bonus=0.5", "heuristic:ace_bonus=0.5"]
    report = run_arena(specs, 12, seed=1, variance_reduction=True, reference_deals=8)
    assert report.variance_reduction is not None
    for result in report.variance_reduction.results:
        assert (result.mean, result.ci95, result.width_ratio) == (0.0, (0.0, 0.0), 1.0)


def test_the_tournament_fits_ratings_to_the_reduced_margins() -> None:
    report = run_tournament(
        ["heuristic", "random"], 3, deals=12, seed=2, variance_reduction=True, reference_deals=16
    )
    plain = run_tournament(["heuristic", "random"], 3, deals=12, seed=2)
    [pair] = report.pairs
    assert report.agents[0].rating == pytest.approx(pair.margin / 2)
    assert report.to_json()["reference_deals"] == 16 and "reference_deals" not in plain.to_json()
    assert "variance-reduced, 16 reference deals per line-up" in report.table()
    assert pair.ci95[0] < pair.margin < pair.ci95[1]


def test_compare_reduces_the_paired_difference(tmp_path: Path) -> None:
    first, second = tmp_path / "a.jsonl", tmp_path / "b.jsonl"
    run_arena(["ppo", "heuristic", "heuristic"], 20, seed=3, save=first)
    run_arena(["random", "heuristic", "heuristic"], 20, seed=3, save=second)
    plain = compare_runs(first, second)
    reduced = compare_runs(first, second, variance_reduction=True, reference_deals=30, seed=1)
    assert reduced.plain_ci95 == plain.ci95 and reduced.reference_deals == 30
    assert reduced.ci95[0] < reduced.difference < reduced.ci95[1]
    assert "variance-reduced with 30 reference deals" in reduced.table()
    assert set(reduced.to_json()) == set(plain.to_json()) | {"reference_deals", "plain_ci95"}
    assert "plain_ci95" not in plain.to_json()
    itself = compare_runs(first, first, variance_reduction=True, reference_deals=4)
    assert (itself.difference, itself.ci95) == (0.0, (0.0, 0.0))


@pytest.mark.parametrize(
    ("args", "message"),
    [
        (["arena", "--agents", "ppo", "random", "random", "--reference-deals", "9"],
         "--reference-deals goes with --variance-reduction"),
        (["arena", "--game", "bon", "--agents", "random", "random", "random",
          "--variance-reduction"], "--variance-reduction is available for boon, not bon"),
        (["arena", "--agents", "ppo", "random", "random", "--deals", "5",
          "--variance-reduction"], "needs at least 10 deals, got 5"),
        (["arena", "--agents", "ppo", "random", "random", "--deals", "20",
          "--variance-reduction", "--reference-deals", "1"], "at least 2 reference deals"),
        (["arena", "--agents", "ppo", "random", "random", "--episode", "game",
          "--variance-reduction"], "not with --episode game"),
        (["tournament", "--agents", "ppo", "random", "--deals", "3", "--variance-reduction"],
         "needs at least 10 deals, got 3"),
        (["compare", "a.jsonl", "b.jsonl", "--reference-deals", "4"],
         "--reference-deals goes with --variance-reduction"),
        (["arena", "--agents", "ppo", "random", "random", "--variance-reduction", "dd"],
         "invalid choice: 'dd'"),
    ],
)  # fmt: skip
def test_bad_variance_options_are_one_line_errors(args: list[str], message: str, capsys) -> None:
    assert main(args) == 2
    error = capsys.readouterr().err
    assert message in error and error.count("\n") == 1


def test_the_arena_command_prints_the_reduced_figures(capsys) -> None:
    args = ["arena", "--agents", "ppo", "heuristic", "heuristic", "--deals", "10", "--seed", "1"]
    assert main([*args, "--variance-reduction", "--reference-deals", "6", "--json"]) == 0
    report = json.loads(capsys.readouterr().out)
    assert report["variance_reduction"]["reference_deals"] == 6
    assert [r["agent"] for r in report["variance_reduction"]["results"]] == ["ppo", "heuristic"]


@pytest.mark.parametrize("features", ["opening", "solver"])
def test_the_benchmark_prints_both_widths_and_their_costs(features: str) -> None:
    script = Path(__file__).resolve().parents[2] / "benchmarks" / "bench_variance.py"
    agents = ["--agents", "ppo", "heuristic", "heuristic"]
    result = subprocess.run(
        [sys.executable, str(script), *agents, "--deals", "20", "--reference-deals", "20",
         "--variance-reduction", features],
        capture_output=True,
        text=True,
        check=True,
    )  # fmt: skip
    lines = result.stdout.splitlines()
    assert lines[0].startswith(f"ppo, 20 deals, seed 2026, 20 reference deals, {features}")
    assert lines[1].startswith("plain") and lines[2].startswith("reduced")
    assert "width ratio" in lines[3] and "CPU s" in lines[1]


def test_the_playout_study_replays_rounds_exactly_and_prints_each_baseline() -> None:
    script = Path(__file__).resolve().parents[2] / "benchmarks" / "study_rollout_baseline.py"
    loaded = importlib.util.spec_from_file_location("study_rollout_baseline", script)
    study = importlib.util.module_from_spec(loaded)
    loaded.loader.exec_module(study)
    # A playout that replays every action of a round is that round: the same seat values.
    rounds = [p for deal in arena_rounds(["ppo", "heuristic", "random"], 6, seed=3) for p in deal]
    values = study.playout_values(rounds, [len(p.actions) for p in rounds], 3)
    np.testing.assert_array_equal(values, [p.info["value"] for p in rounds])
    result = subprocess.run(
        [sys.executable, str(script), "--agents", "ppo", "heuristic", "heuristic", "--deals", "20"],
        capture_output=True,
        text=True,
        check=True,
    )
    lines = result.stdout.splitlines()
    assert lines[0].startswith("20 deals") and len(lines) == 5
    assert all("R2 0." in line and "width ratio" in line for line in lines[1:])


def _study() -> object:
    script = Path(__file__).resolve().parents[2] / "benchmarks" / "study_rollout_baseline.py"
    loaded = importlib.util.spec_from_file_location("study_rollout_baseline", script)
    study = importlib.util.module_from_spec(loaded)
    loaded.loader.exec_module(study)
    return study


def test_the_study_splits_only_the_cards_nobody_decided_on_and_replays_the_line_up() -> None:
    study = _study()
    specs = ["ppo", "heuristic", "heuristic", "heuristic"]
    rounds = [p for deal in arena_rounds(specs, 12, seed=5) for p in deal]
    lineup = [make_agent(spec, num_players=4) for spec in specs]
    # The line-up replaying a round from its picks on its own deal plays that round again.
    prefix = [study.picks_end(p, 4) for p in rounds]
    values = study.playout_values(rounds, prefix, 4, lineup)
    np.testing.assert_array_equal(values, [p.info["value"] for p in rounds])
    rng = np.random.default_rng(0)
    for played in rounds:
        dealer, where = played.options["dealer"], study.holders(played)
        decided = [(dealer + 1 + place) % 4 for place in range(study.picks_end(played, 4))]
        splits = study.resampled(played, 3, rng)
        for split in splits:
            hands = split.options["deal"]["hands"]
            assert [len(h) for h in hands] == [7] * 4 and len(split.options["deal"]["boon"]) == 4
            for seat in decided:
                assert sorted(hands[seat]) == sorted(played.options["deal"]["hands"][seat])
            assert sorted(study.holders(split)) == sorted(where)  # the same places, refilled
            assert (study.holders(split) == -1).sum() == 0  # the 4-player deck is whole
        if len(decided) < 4:  # something was left to split: the splits differ
            assert len({str(s.options["deal"]) for s in splits}) > 1
    # The picks only read the decided hands, so the line-up picks alike on every split: played
    # from the deal, a split ends as it does with the round's picks replayed.
    splits = [s for p in rounds for s in study.resampled(p, 2, rng)]
    from_deal = study.playout_values(splits, [0] * len(splits), 4, lineup)
    from_picks = study.playout_values(splits, [study.picks_end(s, 4) for s in splits], 4, lineup)
    np.testing.assert_array_equal(from_deal, from_picks)


def test_the_study_prints_the_unseen_cards_share_and_the_cheap_baselines() -> None:
    script = Path(__file__).resolve().parents[2] / "benchmarks" / "study_rollout_baseline.py"
    args = ["--agents", "ppo", "heuristic", "heuristic", "--deals", "20", "--resamples", "2"]
    result = subprocess.run(
        [sys.executable, str(script), *args, "--value-net-deals", "30"],
        capture_output=True,
        text=True,
        check=True,
    )
    lines = result.stdout.splitlines()[5:]
    assert lines[0].startswith("cards unseen at the pick (2 splits") and "width ratio" in lines[0]
    assert lines[1].startswith("  heuristic playout") and lines[2].startswith(
        "  value network on 30"
    )
    assert len(lines) == 5 and all("R2 " in line for line in lines[1:])


@pytest.mark.parametrize(
    ("args", "message"),
    [
        (["--agents", "search", "heuristic", "heuristic"], "['search'] cannot act in batches"),
        (["--agents", "nobody", "heuristic", "heuristic"], "unknown agent kind 'nobody'"),
        (["--agents", "heuristic", "heuristic"], "players"),
        (["--deals", "1"], "--deals must be at least 2"),
        (["--resamples", "1"], "--resamples must be 0 or at least 2"),
        (["--resamples", "-3"], "--resamples must be 0 or at least 2"),
        (["--value-net-deals", "100"], "--value-net-deals needs --resamples"),
        (["--resamples", "2", "--value-net-deals", "5"], "--value-net-deals must be 0 or at"),
    ],
)
def test_the_study_refuses_what_it_cannot_use_in_one_line(args: list[str], message: str) -> None:
    script = Path(__file__).resolve().parents[2] / "benchmarks" / "study_rollout_baseline.py"
    result = subprocess.run([sys.executable, str(script), *args], capture_output=True, text=True)
    assert result.returncode == 2 and "Traceback" not in result.stderr
    assert message in result.stderr.splitlines()[-1]
