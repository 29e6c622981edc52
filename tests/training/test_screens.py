"""The screens of a training run (:mod:`agents.training.screens`) and the learning-rate
schedule: the best screen is kept, a run without progress stops, and the paired margins of agent
objects are the tournament's."""

from __future__ import annotations

from pathlib import Path
from types import SimpleNamespace

import numpy as np
import pytest
from hypothesis import given
from hypothesis import strategies as st
from stable_baselines3.common.logger import Logger

from agents.eval.arena import paired_margins
from agents.eval.tournament import pair_margins
from agents.players.random_agent import RandomAgent
from agents.registry import game_spec
from agents.training import screens as screens_module
from agents.training.ppo import LearningRate
from agents.training.screens import Screen, Screens


@given(
    start=st.floats(1e-6, 1.0),
    final=st.floats(0.0, 1.0),
    shape=st.sampled_from(["constant", "linear", "cosine"]),
    a=st.floats(0.0, 1.0),
    b=st.floats(0.0, 1.0),
)
def test_the_learning_rate_falls_from_its_start_to_its_final_fraction(
    start: float, final: float, shape: str, a: float, b: float
) -> None:
    rate = LearningRate(start, shape, final)  # type: ignore[arg-type]
    low = start if shape == "constant" else start * final
    assert rate(1.0) == pytest.approx(start) and rate(0.0) == pytest.approx(low)
    assert low - 1e-12 <= rate(a) <= start + 1e-12
    # later in the run (less progress remaining) never a higher rate
    assert rate(min(a, b)) <= rate(max(a, b)) + 1e-12


def test_rllib_takes_the_schedule_as_points() -> None:
    assert LearningRate(1e-3).points(1000) == 1e-3
    points = LearningRate(1e-3, "linear", 0.0).points(1000, count=3)
    assert points == [[0, 1e-3], [500, pytest.approx(5e-4)], [1000, 0.0]]


@pytest.mark.parametrize("game,num_players", [("bon", 3), ("boyn", 2), ("boon", 4)])
def test_paired_margins_of_agent_objects_are_the_tournaments(game: str, num_players: int) -> None:
    spec = game_spec(game)
    ours = paired_margins(spec.heuristic, RandomAgent, num_players, 6, seed=3, game=game)
    theirs = pair_margins("heuristic", "random", num_players, 6, seed=3, game=game)
    np.testing.assert_allclose(ours, theirs)


def _scripted(tmp_path: Path, scores: list[float], patience: int) -> Screens:
    # A Screens whose measurements are the given scores, on a stand-in model.
    callback = Screens(0, 2, patience, 4, game_spec("boon"), 0, tmp_path)
    callback.model = SimpleNamespace(num_timesteps=0, policy=None, logger=Logger(None, []))
    measured = iter(scores)
    callback._measure = lambda policy: Screen(  # type: ignore[method-assign]
        callback.model.num_timesteps, {"heuristic": next(measured)}, {"heuristic": 0.1}
    )
    callback._save = lambda stem, policy, meta: None  # type: ignore[method-assign]
    return callback


def test_the_best_screen_is_kept_and_a_run_without_progress_stops(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    policies = iter(range(100))
    monkeypatch.setattr(screens_module.NumpyPolicy, "from_sb3", lambda policy: next(policies))
    callback = _scripted(tmp_path, [0.1, 0.3, 0.2, 0.3, 0.25, 0.5], patience=3)
    for step in range(1, 5):
        callback.model.num_timesteps = 100 * step
        callback.screen()
        assert callback._on_step(), "the run goes on within its patience"
    assert callback.best == 1 and callback.best_screen.timesteps == 200  # a tie is no better
    callback.model.num_timesteps = 500
    callback.screen()
    assert not callback._on_step(), "three screens without a better one stop the run"
    assert callback.summary()["stopped_early"] is True
    assert [s["score"] for s in callback.summary()["screens"]] == [0.1, 0.3, 0.2, 0.3, 0.25]


def test_without_patience_a_run_never_stops(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setattr(screens_module.NumpyPolicy, "from_sb3", lambda policy: policy)
    callback = _scripted(tmp_path, [0.5, *[0.0] * 20], patience=0)
    for step in range(21):
        callback.model.num_timesteps = step
        callback.screen()
    assert callback._on_step() and callback.best_screen.score == 0.5
