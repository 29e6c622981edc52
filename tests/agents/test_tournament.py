"""The tournament: pair margins built on the duplicate arena, the rating fit, the JSON contract
and the command line's errors."""

from __future__ import annotations

import itertools
import json
import sys

import numpy as np
import pytest

from agents.cli.commands import main
from agents.eval.arena import run_arena
from agents.eval.tournament import fit_ratings, pair_margins, run_tournament
from agents.players.trained import default_model


# ------------------------------------------------------------------------------------ the fit
def _round_robin(k: int) -> list[tuple[int, int]]:
    return list(itertools.combinations(range(k), 2))


def _margins(truth: np.ndarray, pairs: list[tuple[int, int]]) -> np.ndarray:
    return np.array([truth[a] - truth[b] for a, b in pairs])


def test_the_fit_recovers_exact_margins_deal_by_deal() -> None:
    truth = np.array([1.0, 0.2, -0.5, -0.7])  # mean 0: the anchor of the fit
    pairs = _round_robin(4)
    per_deal = np.stack([_margins(truth, pairs), _margins(2 * truth, pairs)], axis=1)
    fitted = fit_ratings(4, pairs, per_deal)
    assert fitted.shape == (4, 2)
    np.testing.assert_allclose(fitted[:, 0], truth, atol=1e-12)
    np.testing.assert_allclose(fitted[:, 1], 2 * truth, atol=1e-12)


def test_the_fit_recovers_known_ratings_from_noisy_margins_within_its_intervals() -> None:
    rng = np.random.default_rng(7)
    truth = np.array([0.9, 0.4, 0.0, -0.3, -1.0])
    truth -= truth.mean()
    pairs = _round_robin(5)
    deals = 400
    per_deal = _margins(truth, pairs)[:, None] + rng.normal(0.0, 1.5, (len(pairs), deals))
    fitted = fit_ratings(5, pairs, per_deal)
    mean = fitted.mean(axis=1)
    half = 1.96 * fitted.std(axis=1, ddof=1) / np.sqrt(deals)
    assert np.all(np.abs(mean - truth) < half)
    assert abs(mean.sum()) < 1e-9
    # Away from the exact case the fit is a least-squares compromise, not the raw margins.
    assert not np.allclose(mean[0] - mean[1], per_deal[0].mean())


def test_the_fit_is_the_least_squares_solution_on_any_connected_pairs() -> None:
    pairs = [(0, 1), (1, 2), (2, 3), (0, 2)]  # not a round robin, but connected
    margins = np.array([[0.5], [0.3], [1.0], [0.6]])
    fitted = fit_ratings(4, pairs, margins)[:, 0]
    design = np.zeros((4, 4))
    for row, (a, b) in enumerate(pairs):
        design[row, a], design[row, b] = 1, -1
    best = np.linalg.lstsq(design, margins[:, 0], rcond=None)[0]
    np.testing.assert_allclose(fitted, best - best.mean(), atol=1e-12)
    assert abs(fitted.sum()) < 1e-12


def test_the_fit_refuses_pairs_that_leave_an_agent_unconnected() -> None:
    with pytest.raises(ValueError, match="do not connect all 3 agents"):
        fit_ratings(3, [(0, 1)], np.zeros((1, 4)))


# --------------------------------------------------------------------------- margins and ratings
def test_a_pair_margin_is_half_the_two_arena_lineups_difference() -> None:
    margins = pair_margins("heuristic", "random", 3, deals=6, seed=4)
    alone = run_arena(["heuristic", "random", "random"], 6, seed=4).results[0]
    other = run_arena(["random", "heuristic", "heuristic"], 6, seed=4).results[0]
    assert margins.shape == (6,)
    expected = (alone.mean_victory_cards - other.mean_victory_cards) / 2
    assert margins.mean() == pytest.approx(expected, abs=1e-12)


def test_identical_agents_have_a_margin_of_exactly_zero() -> None:
    assert np.all(pair_margins("heuristic", "heuristic", 4, deals=3, seed=2) == 0.0)


@pytest.fixture(scope="module")
def small_report():
    # random, heuristic and a small search at 3 players: a few seconds
    return run_tournament(["random", "heuristic", "search:samples=2"], 3, deals=6, seed=5)


def test_heuristic_is_rated_above_random_with_intervals_apart(small_report) -> None:
    rating = {r.agent: r for r in small_report.agents}
    assert rating["heuristic"].ci95[0] > rating["random"].ci95[1]
    pair = next(p for p in small_report.pairs if {p.a, p.b} == {"heuristic", "random"})
    assert (pair.a, pair.b) == ("heuristic", "random")
    assert pair.ci95[0] > 0


def test_ratings_are_each_agents_mean_margin_against_the_field(small_report) -> None:
    # The least-squares fit of a full round robin: r_a = (1/K) * sum over b of margin(a, b).
    k = len(small_report.agents)
    against: dict[str, list[float]] = {r.agent: [] for r in small_report.agents}
    for pair in small_report.pairs:
        against[pair.a].append(pair.margin)
        against[pair.b].append(-pair.margin)
    for rating in small_report.agents:
        assert rating.rating == pytest.approx(sum(against[rating.agent]) / k, abs=1e-12)
        low, high = rating.ci95
        assert low <= rating.rating <= high
    assert sum(r.rating for r in small_report.agents) == pytest.approx(0.0, abs=1e-12)
    ratings = [r.rating for r in small_report.agents]
    assert ratings == sorted(ratings, reverse=True)  # best first
    assert all(p.margin > 0 for p in small_report.pairs)  # each pair oriented better-first here


def test_the_tournament_is_seeded() -> None:
    first = run_tournament(["random", "heuristic"], 4, deals=3, seed=9).to_json()
    assert run_tournament(["random", "heuristic"], 4, deals=3, seed=9).to_json() == first
    assert run_tournament(["random", "heuristic"], 4, deals=3, seed=10).to_json() != first


def test_every_agent_plays_legally_at_a_four_player_tournament() -> None:
    # The environment raises on an illegal action; batched (random vs ppo) and one-table pairs.
    specs = ["random", "heuristic", "search:samples=2", "ppo"]
    report = run_tournament(specs, 4, deals=1, seed=1)
    assert sorted(r.agent for r in report.agents) == sorted(specs)
    assert len(report.pairs) == 6


@pytest.mark.parametrize(
    ("specs", "players", "match"),
    [
        (["random"], 4, "2 or more distinct"),
        (["random", "random"], 4, "2 or more distinct"),
        (["random", "heuristic"], 6, "a Boon table has 3-5 players, got 6"),
        (["random", "wizard"], 4, "unknown agent kind"),
        (["random", f"ppo:{default_model(4)}"], 3, "is a 4-player model"),
    ],
)
def test_bad_arguments_raise_before_playing(specs, players, match) -> None:
    with pytest.raises(ValueError, match=match):
        run_tournament(specs, players, deals=1)


# ------------------------------------------------------------------------------ command line
def test_json_contract_table_and_plot(tmp_path, capsys) -> None:
    out, picture = tmp_path / "lb.json", tmp_path / "lb.png"
    args = ["tournament", "--agents", "random", "heuristic", "--players", "3", "--deals", "3"]
    assert main([*args, "--seed", "2", "--json", str(out), "--plot", str(picture)]) == 0
    table = capsys.readouterr().out
    assert "rating" in table and "95% CI" in table and "heuristic" in table
    assert picture.read_bytes()[:8] == b"\x89PNG\r\n\x1a\n"
    report = json.loads(out.read_text())
    assert main([*args, "--seed", "2", "--json", "-"]) == 0
    assert json.loads(capsys.readouterr().out) == report  # stdout: the JSON alone
    assert set(report) == {"game", "unit", "num_players", "deals", "agents", "pairs"}
    assert (report["game"], report["unit"]) == ("boon", "Victory Cards")
    assert (report["num_players"], report["deals"]) == (3, 3)
    assert [a["agent"] for a in report["agents"]] == ["heuristic", "random"]
    for entry in report["agents"]:
        assert set(entry) == {"agent", "rating", "ci95"}
        assert len(entry["ci95"]) == 2
        assert entry["ci95"][0] <= entry["rating"] <= entry["ci95"][1]
    [pair] = report["pairs"]
    assert set(pair) == {"a", "b", "margin", "ci95"}
    assert (pair["a"], pair["b"]) == ("heuristic", "random")
    assert pair["ci95"][0] <= pair["margin"] <= pair["ci95"][1]
    assert pair["margin"] == pytest.approx(2 * report["agents"][0]["rating"])


@pytest.mark.parametrize(
    ("extra", "message"),
    [
        (["--agents", "random"], "--agents needs 2 or more distinct specs"),
        (["--agents", "random", "random"], "--agents needs 2 or more distinct specs"),
        (["--agents", "random", "wizard"], "unknown agent kind 'wizard'"),
        (["--agents", "random", "heuristic", "--players", "6"], "a boon table has 3-5 seats"),
        (["--agents", "random", f"ppo:{default_model(4)}", "--players", "3"], "4-player model"),
        (["--agents", "random", "heuristic", "--deals", "0"], "--deals: must be an integer 1-"),
        (["--agents", "random", "heuristic", "--json", "/no/such/dir/x.json"], "--json: cannot"),
        (["--agents", "random", "heuristic", "--plot", "/no/such/dir/x.png"], "--plot: cannot"),
        (["--agents", "random", "heuristic", "--plot", "board.pdf"], "ending in .png"),
    ],
)
def test_a_users_mistake_is_one_line(extra, message, capsys) -> None:
    assert main(["tournament", *extra]) == 2
    error = capsys.readouterr().err
    assert error.count("\n") == 1 and error.startswith("boon tournament: error: ")
    assert message in error


def test_a_missing_matplotlib_is_one_line_before_playing(monkeypatch, tmp_path, capsys) -> None:
    monkeypatch.setitem(sys.modules, "matplotlib", None)  # as if it were not installed
    picture = tmp_path / "lb.png"
    argv = ["tournament", "--agents", "random", "heuristic", "--plot", str(picture)]
    assert main(argv) == 2
    error = capsys.readouterr().err
    assert error.count("\n") == 1 and "--plot needs matplotlib" in error
    assert not picture.exists()


def test_the_command_has_help(capsys) -> None:
    with pytest.raises(SystemExit) as stop:
        main(["tournament", "--help"])
    assert stop.value.code == 0
    assert "usage: boon tournament" in capsys.readouterr().out


def test_the_plots_labels_do_not_run_into_each_other() -> None:
    from matplotlib.backends.backend_agg import FigureCanvasAgg

    from agents.eval.tournament import PairResult, Rating, TournamentReport, report_figure

    names = ["search:samples=32,inference=ppo,rollout=ppo,candidates=200",
             "heuristic:pick_threshold_3p=4.5", "ppo", "random", "expert"]  # fmt: skip
    ratings = [Rating(n, 1.0 - i, (0.5 - i, 1.5 - i)) for i, n in enumerate(names)]
    pairs = [PairResult(a, b, 0.3, (0.1, 0.5)) for a, b in itertools.combinations(names, 2)]
    figure = report_figure(TournamentReport(4, 10, ratings, pairs, "boon", "Victory Cards"))
    renderer = FigureCanvasAgg(figure).get_renderer()
    figure.draw(renderer)
    for axes in figure.axes:
        for ticks in (axes.get_xticklabels(), axes.get_yticklabels()):
            boxes = [t.get_window_extent(renderer) for t in ticks if t.get_text()]
            for one, other in itertools.combinations(boxes, 2):
                assert not one.overlaps(other), (one, other)
        # Every label lies within the saved figure.
        width, height = figure.canvas.get_width_height()
        for label in [*axes.get_xticklabels(), *axes.get_yticklabels()]:
            box = label.get_window_extent(renderer)
            assert box.x0 >= 0 and box.x1 <= width and box.y0 >= 0 and box.y1 <= height, box
