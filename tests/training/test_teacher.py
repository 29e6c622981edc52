"""Learning from search (:mod:`agents.training.teacher`): the teacher searches with the run's
network, and a fit to its labels moves the policy towards its choices."""

from __future__ import annotations

from dataclasses import replace
from pathlib import Path

import numpy as np
import pytest
from stable_baselines3.common.logger import Logger

from agents.players.policy import NumpyPolicy
from agents.registry import game_spec
from agents.training.teacher import Teacher, TeacherSettings, teacher_spec
from agents.training.trainer import _learner, _tables, parse_args
from tests.helpers.training import TINY


def test_the_teacher_searches_with_the_runs_model() -> None:
    assert teacher_spec("expert", Path("p.npz")) == "expert:model=p.npz"
    assert teacher_spec("search:samples=2", Path("p.npz")) == "search:samples=2,model=p.npz"
    with pytest.raises(ValueError, match="searches with the run's own model"):
        teacher_spec("search:samples=2,model=q.npz", Path("p.npz"))


def test_a_fit_to_the_teachers_labels_moves_the_policy_towards_them(tmp_path: Path) -> None:
    args = parse_args([*TINY, "--game", "bon", "--num-players", "3", "--seed", "4"])
    args = replace(args, runs_dir=str(tmp_path))
    game = game_spec("bon")
    envs = _tables(args, game)
    model, _ = _learner(args, game, envs, tmp_path)
    model.set_logger(Logger(None, []))
    settings = TeacherSettings("search:samples=4", 1, 6, 10, 1, 1e-3)
    teacher = Teacher(settings, args, game, tmp_path / "teacher")
    teacher.init_callback(model)
    row = teacher.iterate()
    (data,) = teacher._data
    after = NumpyPolicy.from_sb3(model.policy).greedy_batch(data.observations, data.masks)
    assert np.mean(after == data.actions) > row["teacher/agreement"]
    assert row["teacher/positions"] == len(data.actions) >= 6 * 21
    envs.close()
