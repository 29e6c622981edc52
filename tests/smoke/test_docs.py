"""The documentation that describes code is checked against that code."""

from pathlib import Path

from boon_env import boon_v0
from boon_env.games.boon.encoding import layout_table

ROOT = Path(__file__).resolve().parents[2]


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


def test_readme_python_example_runs(capsys):
    readme = (ROOT / "README.md").read_text()
    example = readme.split("```python\n")[1].split("```")[0]
    exec(compile(example, "README.md", "exec"), {})
    payout = eval(capsys.readouterr().out.strip().splitlines()[-1])
    assert sum(payout) == 0


def test_readme_quickstart_has_exactly_two_commands():
    readme = (ROOT / "README.md").read_text()
    quickstart = readme.split("## Quickstart")[1].split("```bash\n")[1].split("```")[0]
    assert len(quickstart.strip().splitlines()) == 2
    ci = (ROOT / ".ci" / "run").read_text()
    assert "-m pytest -n 2" in quickstart and "-m pytest -n 2" in ci
