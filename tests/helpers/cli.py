"""Running the ``boon`` command as a user would: a subprocess."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

_SCRIPT = Path(sys.executable).with_name("boon")
BOON = [str(_SCRIPT)] if _SCRIPT.exists() else [sys.executable, "-m", "agents.cli"]


def run_boon(*args: str, stdin: str = "", timeout: float = 120) -> subprocess.CompletedProcess:
    """Run ``boon *args`` with ``stdin``; the completed process (never raises on failure)."""
    return subprocess.run(
        [*BOON, *args], input=stdin, capture_output=True, text=True, timeout=timeout, check=False
    )
