"""``docs/bon.md`` is checked against the code it describes."""

from __future__ import annotations

import doctest
from pathlib import Path

from boon_env import bon_v0
from boon_env.games.bon.encoding import OBS_SIZE, layout_table

PAGE = (Path(__file__).resolve().parents[2] / "docs" / "bon.md").read_text()


def test_the_page_shows_the_generated_layout() -> None:
    documented = PAGE.split("<!-- layout:start -->\n")[1].split("\n<!-- layout:end -->")[0]
    assert documented == layout_table()


def test_the_page_and_the_docstring_example_name_the_observation_size() -> None:
    assert f"Box(0, 1, ({OBS_SIZE},), float32)" in PAGE
    assert f"(({OBS_SIZE},), 7)" in bon_v0.__doc__


def test_the_pages_example_runs() -> None:
    example = PAGE.split("```python\n")[1].split("```")[0]
    namespace: dict = {}
    exec(compile(example, "docs/bon.md", "exec"), namespace)
    assert not namespace["env"].agents  # every agent played to the end


def test_the_env_docstring_example_runs() -> None:
    result = doctest.testmod(bon_v0)
    assert result.attempted > 0
    assert result.failed == 0
