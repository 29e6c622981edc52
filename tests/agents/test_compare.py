"""``boon compare``: the paired difference of two saved arena runs."""

from __future__ import annotations

import json
from pathlib import Path

import numpy as np
import pytest

from agents.cli.commands import main
from agents.eval.arena import run_arena
from agents.eval.compare import compare_runs


def _line(deal: int, rotation: int, seats: list[str], value: list[int]) -> dict:
    return {
        "deal_index": deal,
        "rotation": rotation,
        "deal": {"hands": [[deal]], "boon": []},  # only compared for equality here
        "dealer": 0,
        "seats": seats,
        # the keys Boon's arena records read of info["round"]
        "round": {
            "value": value,
            "points": [0] * len(value),
            "picker": -1,
            "leaster": True,
            "leaster_winner": -1,
        },
    }


def _write(path: Path, lines: list[dict]) -> Path:
    path.write_text("".join(json.dumps(line) + "\n" for line in lines))
    return path


def test_the_difference_is_paired_by_deal(tmp_path: Path) -> None:
    # A's mean per deal: 2, 3, 7 (in seat 0, then seat 1); B's: 1, 1, 4. Differences 1, 2, 3.
    a = [(2, 2), (4, 2), (8, 6)]
    b = [(1, 1), (0, 2), (4, 4)]
    first = _write(
        tmp_path / "a.jsonl",
        [
            line
            for d, (seat0, seat1) in enumerate(a)
            for line in (
                _line(d, 0, ["x", "y", "y"], [seat0, 9, 9]),
                _line(d, 1, ["y", "x", "y"], [9, seat1, 9]),
            )
        ],
    )
    second = _write(
        tmp_path / "b.jsonl",
        [
            _line(d, r, ["z", "y", "y"], [v, 9, 9])
            for d, pair in enumerate(b)
            for r, v in enumerate(pair)
        ],
    )
    result = compare_runs(first, second)
    assert (result.a, result.b, result.deals) == ("x", "z", 3)
    half = 1.96 * np.std([1, 2, 3], ddof=1) / np.sqrt(3)
    assert result.difference == pytest.approx(2.0)
    assert result.ci95 == pytest.approx((2 - half, 2 + half))
    # Naming the agents: the "y" seats of both runs all scored 9.
    assert compare_runs(first, second, agent_a="y", agent_b="y").difference == 0


def test_a_run_against_itself_differs_by_nothing(tmp_path: Path) -> None:
    save = tmp_path / "run.jsonl"
    run_arena(["heuristic", "random", "random", "random"], 6, seed=3, save=save)
    result = compare_runs(save, save)
    assert (result.a, result.deals, result.difference, result.ci95) == ("heuristic", 6, 0, (0, 0))


@pytest.mark.parametrize(
    ("lines", "agent", "message"),
    [
        ([_line(0, 0, ["x", "x", "y", "y"], [1, 1, 1, 1])], None, "2 specs sit alone|0 specs"),
        ([_line(0, 0, ["x", "y", "y"], [1, 1, 1])], "w", "no seat is played by 'w'"),
        ([{"deal_index": 0, "seats": ["x", "y", "y"]}], None, "line 1: not a round"),
        ([[1, 2]], None, "not a boon arena --save file"),
    ],
)
def test_bad_files_are_named(tmp_path: Path, lines: list, agent: str | None, message: str) -> None:
    bad = _write(tmp_path / "bad.jsonl", lines)
    good = _write(tmp_path / "good.jsonl", [_line(0, 0, ["x", "y", "y"], [1, 1, 1])])
    with pytest.raises(ValueError, match=message):
        compare_runs(bad, good, agent_a=agent)


def test_runs_on_other_deals_are_refused(tmp_path: Path) -> None:
    first, second = tmp_path / "a.jsonl", tmp_path / "b.jsonl"
    run_arena(["heuristic", "random", "random"], 2, seed=1, save=first)
    run_arena(["heuristic", "random", "random"], 2, seed=2, save=second)
    with pytest.raises(ValueError, match="deal 0 is dealt differently"):
        compare_runs(first, second)


def test_the_command_prints_a_line_or_json_and_one_line_errors(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    save = tmp_path / "run.jsonl"
    run_arena(["heuristic", "random", "random"], 3, seed=1, save=save)
    assert main(["compare", str(save), str(save)]) == 0
    assert "heuristic (first run) - heuristic (second run): +0.000" in capsys.readouterr().out
    assert main(["compare", str(save), str(save), "--json"]) == 0
    assert json.loads(capsys.readouterr().out)["deals"] == 3
    assert main(["compare", str(save), str(tmp_path / "missing.jsonl")]) == 2
    error = capsys.readouterr().err
    assert error.count("\n") == 1 and "cannot read" in error and "missing.jsonl" in error
