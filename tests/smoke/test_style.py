"""The code base stays ruff-clean (lint rules and formatting in pyproject.toml)."""

import subprocess
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]


@pytest.mark.parametrize("command", [["check"], ["format", "--check"]])
def test_ruff(command):
    result = subprocess.run(
        [sys.executable, "-m", "ruff", *command, "."],
        cwd=ROOT,
        capture_output=True,
        text=True,
        check=False,
    )
    assert result.returncode == 0, result.stdout + result.stderr
