"""Every number on the command line is range-checked by argparse: a value out of range is one
line naming the option (exit 2), never a traceback from deep inside the run."""

from __future__ import annotations

import pytest

from agents.cli import main

SPECS = ["random"] * 4


@pytest.mark.parametrize(
    ("argv", "option"),
    [
        (["arena", "--agents", *SPECS, "--seed", "-1"], "--seed"),
        (["play", "--seed", "-1"], "--seed"),
        (["tournament", "--agents", "random", "heuristic", "--seed", "-1"], "--seed"),
        (["advise", "--seed", "-1"], "--seed"),
        (["bench", "--seed", "-1"], "--seed"),
        (["serve", "--seed", "-1"], "--seed"),
        (["serve", "--seed", str(2**32)], "--seed"),
        (["bench", "--tables", "0", "--engines", "vector"], "--tables"),
        (["serve", "--idle-timeout", "nan"], "--idle-timeout"),
        (["serve", "--start-timeout", "nan"], "--start-timeout"),
        (["serve", "--idle-timeout", "inf"], "--idle-timeout"),
        (["serve", "--port", "65536"], "--port"),
        (["serve", "--max-games", "0"], "--max-games"),
        (["arena", "--agents", *SPECS, "--workers", "0"], "--workers"),
        (["arena", "--agents", *SPECS, "--deals", "1e3"], "--deals"),
        (["exploit", "--target", "random", "--decisions", str(2**62)], "--decisions"),
        (["exploit", "--target", "random", "--seconds", "nan"], "--seconds"),
        (["play", "--rounds", "0"], "--rounds"),
        (["compare", "a.jsonl", "b.jsonl", "--reference-deals", "-4"], "--reference-deals"),
    ],
)
def test_a_number_out_of_range_is_one_line_naming_the_option(argv, option, capsys, monkeypatch):
    monkeypatch.setattr("builtins.input", _no_input)  # a run that got past the check ends
    assert main(argv) == 2
    out, err = capsys.readouterr()
    assert out == ""
    assert err.count("\n") == 1 and "Traceback" not in err, err
    assert err.startswith(f"boon {argv[0]}: error: argument {option}"), err


def test_the_largest_seed_runs(capsys):
    assert main(["arena", "--agents", *SPECS, "--deals", "2", "--seed", str(2**32 - 1)]) == 0
    assert "random" in capsys.readouterr().out


def _no_input(prompt: str = "") -> str:
    raise EOFError
