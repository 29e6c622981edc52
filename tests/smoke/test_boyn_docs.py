"""docs/boyn.md and the ``boyn_v0`` docstring are checked against the code they describe."""

from __future__ import annotations

import doctest
from pathlib import Path

import pytest

from boon_env import boyn_v0
from boon_env.games.boyn.encoding import LAYOUT, OBS_SIZE
from boon_env.games.boyn.rules import NUM_ACTIONS

PAGE = (Path(__file__).resolve().parents[2] / "docs" / "boyn.md").read_text()


def test_the_page_shows_the_generated_layout() -> None:
    documented = PAGE.split("<!-- layout:start -->\n")[1].split("\n<!-- layout:end -->")[0]
    assert documented == LAYOUT.table()


def test_the_page_states_the_spaces() -> None:
    assert f"`Box(0, 1, ({OBS_SIZE},), float32)`" in PAGE
    assert f"`Discrete({NUM_ACTIONS})`" in PAGE


def test_the_env_docstring_example_runs() -> None:
    result = doctest.testmod(boyn_v0)
    assert result.attempted > 0 and result.failed == 0


def test_the_page_example_runs(capsys: pytest.CaptureFixture[str]) -> None:
    example = PAGE.split("```python\n")[1].split("```")[0]
    exec(compile(example, "docs/boyn.md", "exec"), {})
    printed = eval(capsys.readouterr().out.strip().splitlines()[-1])
    assert set(printed) == {"out", "points", "totals", "turns", "reshuffles", "dealer"}
