"""The sandbox the docs' commands run in: a scratch folder that looks like a checkout, with the
small-size launcher (``shim.py``) on PATH as ``boon``, ``python``, ``pip``, ``tensorboard`` and
``ray``."""

from __future__ import annotations

import os
import subprocess
import sys
import tempfile
from dataclasses import dataclass
from pathlib import Path

import pytest

from tests.docs.pages import ROOT

SHIM = Path(__file__).with_name("shim.py")
# What a command may read from a checkout; what it writes lands in the scratch folder.
CHECKOUT = (
    "agents",
    "boon_env",
    "benchmarks",
    "notebooks",
    "tests",
    "train.py",
    "train_rllib.py",
    "pyproject.toml",
)
LAUNCHED = {
    "boon": "boon",
    "python": "python",
    "python3": "python",
    "pip": "pip",
    "tensorboard": "tensorboard",
    "ray": "ray",
}


@dataclass(frozen=True)
class Sandbox:
    """Where a documented command runs, and the environment it runs with."""

    path: Path
    env: dict[str, str]

    def run(
        self, script: str, sizes: str = "", timeout: float = 600
    ) -> subprocess.CompletedProcess[str]:
        """Run ``script`` with bash in the sandbox (``set -e``: the first failure stops it),
        with the ``sizes`` of a block's ``small:`` marker (``"--deals 200"``).

        A failure that bash lets pass (the left side of ``a && b``) still fails the run: the
        launcher notes every failed command in a file, which the returned code reflects.
        """
        with tempfile.NamedTemporaryFile("r", dir=self.path, suffix=".failed") as failed:
            done = subprocess.run(
                ["bash", "-e", "-o", "pipefail", "-c", script],
                cwd=self.path,
                env={**self.env, "DOCS_TEST_FAILED": failed.name, "DOCS_TEST_SIZES": sizes},
                capture_output=True,
                text=True,
                timeout=timeout,
                stdin=subprocess.DEVNULL,
            )
            noted = failed.read()
        if noted and done.returncode == 0:
            done.returncode = 1
            done.stderr += noted
        return done


def _launcher(path: Path, name: str) -> None:
    path.write_text(f'#!/bin/sh\nexec "{sys.executable}" "{SHIM}" {name} "$@"\n')
    path.chmod(0o755)


@pytest.fixture(scope="session")
def help_cache(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """Where the launcher keeps each program's ``--help`` (every command of a page asks)."""
    return tmp_path_factory.mktemp("docs-help")


@pytest.fixture
def sandbox(tmp_path: Path, help_cache: Path) -> Sandbox:
    """A fresh scratch checkout (one per test: a page starts where a new reader starts) whose
    ``boon``/``python`` run the project at small sizes."""
    path = tmp_path / "checkout"
    path.mkdir()
    for name in CHECKOUT:
        (path / name).symlink_to(ROOT / name)
    bin_dir = path / ".docs-bin"
    (path / ".venv" / "bin").mkdir(parents=True)
    bin_dir.mkdir()
    for name, role in LAUNCHED.items():
        _launcher(bin_dir / name, role)
    _launcher(path / ".venv" / "bin" / "python", "python")
    env = {
        **os.environ,
        "PATH": f"{bin_dir}{os.pathsep}{os.environ['PATH']}",
        "PYTHONPATH": str(ROOT),
        "DOCS_TEST_CACHE": str(help_cache),
        "HOME": str(path),  # `boon serve` keeps its replays under ~/.cache
        "MPLBACKEND": "Agg",
    }
    return Sandbox(path, env)
