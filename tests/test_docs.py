"""The documentation that describes code is checked against that code."""

from pathlib import Path

from boon_env import boon_v0
from boon_env.encoding import layout_table

ROOT = Path(__file__).resolve().parents[1]


def test_observation_page_shows_the_generated_layout():
    page = (ROOT / "docs" / "observation.md").read_text()
    documented = page.split("<!-- layout:start -->\n")[1].split("\n<!-- layout:end -->")[0]
    assert documented == layout_table()


def test_env_docstring_names_the_observation_size():
    env = boon_v0.raw_env()
    size = env.observation_space("player_0")["observation"].shape[0]
    assert f"({size},)" in (ROOT / "docs" / "observation.md").read_text()


def test_env_docstring_example_runs():
    import doctest

    result = doctest.testmod(boon_v0)
    assert result.attempted > 0
    assert result.failed == 0
