"""Learning curves (agents/training/curves.py): a run's screens read back from its summary as
the screens wrote them, drawn to an image, and every bad file or command line a one-line
error."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from hypothesis import given
from hypothesis import strategies as st

from agents.training.curves import main, read_curves
from agents.training.screens import Screen

_margin = st.floats(-5, 5, allow_nan=False)
_screens = st.lists(
    st.builds(
        Screen,
        timesteps=st.integers(0, 10**9),
        margins=st.fixed_dictionaries({"heuristic": _margin, "start": _margin}),
        half_widths=st.fixed_dictionaries({"heuristic": st.floats(0, 1), "start": st.floats(0, 1)}),
    ),
    min_size=1,
    max_size=8,
)


def _run(folder: Path, screens: list[Screen]) -> Path:
    folder.mkdir(parents=True, exist_ok=True)
    summary = {"screen": screens[0].to_json(), "screens": [s.to_json() for s in screens]}
    (folder / "summary.json").write_text(json.dumps(summary))
    return folder


@given(screens=_screens)
def test_the_curves_are_the_screens_the_run_wrote(tmp_path_factory, screens):
    folder = _run(tmp_path_factory.mktemp("run") / "bon_ppo_4p_s1", screens)
    curves = read_curves(folder)
    assert [c.reference for c in curves] == list(screens[0].margins)
    for curve in curves:
        assert curve.run == "bon_ppo_4p_s1"
        assert curve.timesteps == [s.timesteps for s in screens]
        assert curve.margins == [s.margins[curve.reference] for s in screens]
        assert curve.half_widths == [s.half_widths[curve.reference] for s in screens]
    assert read_curves(folder / "summary.json", label="x")[0].run == "x"


def test_main_draws_two_runs_side_by_side(tmp_path, capsys):
    pytest.importorskip("matplotlib")
    screens = [Screen(100_000 * k, {"heuristic": 0.1 * k}, {"heuristic": 0.05}) for k in (1, 2)]
    a, b = _run(tmp_path / "a", screens), _run(tmp_path / "b", screens[:1])
    out = tmp_path / "curves.png"
    assert main([str(a), str(b), "--out", str(out), "--label", "plain", "teacher"]) == 0
    assert out.read_bytes().startswith(b"\x89PNG")
    assert capsys.readouterr().out.strip() == str(out)


@pytest.mark.parametrize(
    ("content", "message"),
    [
        (None, "no such file"),
        ("{not json", "not a run's summary"),
        (json.dumps({"screens": []}), "has no screens"),
        (json.dumps({"screens": [{"timesteps": 1}]}), "malformed screens"),
        (json.dumps([1, 2]), "has no screens"),
    ],
)
def test_a_bad_summary_is_one_line_naming_the_file(tmp_path, capsys, content, message):
    folder = tmp_path / "run"
    folder.mkdir()
    if content is not None:
        (folder / "summary.json").write_text(content)
    assert main([str(folder), "--out", str(tmp_path / "x.png")]) == 2
    err = capsys.readouterr().err
    assert err.count("\n") == 1 and message in err and "summary.json" in err
    assert not (tmp_path / "x.png").exists()


def test_labels_must_match_the_runs(tmp_path, capsys):
    run = _run(tmp_path / "a", [Screen(1, {"heuristic": 0.0}, {"heuristic": 0.1})])
    assert main([str(run), "--out", str(tmp_path / "x.png"), "--label", "a", "b"]) == 2
    err = capsys.readouterr().err
    assert err.count("\n") == 1 and "--label takes one name per run" in err
