"""Every ``boon`` command's ``--help``, word for word, against the pages kept in
``tests/cli/golden_help/`` (``boon.txt`` is ``boon --help``, ``<command>.txt`` is
``boon <command> --help``): a change to a flag, a default or a help line shows here.

After a deliberate change, rewrite the pages with
``BOON_WRITE_HELP=1 python -m pytest tests/cli/test_help.py`` and read the diff.
"""

from __future__ import annotations

import json
import os
import re
import subprocess
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]
GOLDEN = Path(__file__).with_name("golden_help")
PAGES = sorted(path.stem for path in GOLDEN.glob("*.txt"))

# One process prints every page: the help of a fresh interpreter, at a fixed width, with the
# replay folder of `boon serve` (a default taken from the user's cache folder) fixed too.
_PRINT_PAGES = """
import contextlib, io, json, sys
from agents.cli import main
pages = {}
for page in json.loads(sys.argv[1]):
    out = io.StringIO()
    with contextlib.redirect_stdout(out):
        try:
            main([*([] if page == "boon" else [page]), "--help"])
        except SystemExit as done:
            assert done.code == 0, (page, done.code)
    pages[page] = out.getvalue()
print(json.dumps(pages))
"""


@pytest.fixture(scope="module")
def pages() -> dict[str, str]:
    env = {
        **os.environ,
        "PYTHONPATH": str(ROOT),
        "COLUMNS": "100",
        "XDG_CACHE_HOME": "/home/user/.cache",
        "NO_COLOR": "1",
        "PYTHON_COLORS": "0",
    }
    result = subprocess.run(
        [sys.executable, "-c", _PRINT_PAGES, json.dumps(PAGES)],
        capture_output=True,
        text=True,
        env=env,
        cwd=ROOT,
        timeout=120,
        check=False,
    )
    assert result.returncode == 0, result.stderr
    return json.loads(result.stdout)


def test_every_command_has_a_page() -> None:
    # `boon --help` lists the commands, one a line under COMMAND; each has its page here.
    listed = re.findall(r"^    (\w+)", (GOLDEN / "boon.txt").read_text(), re.MULTILINE)
    assert len(listed) == 8
    assert sorted([*listed, "boon"]) == PAGES


@pytest.mark.parametrize("page", PAGES)
def test_help_is_unchanged(page: str, pages: dict[str, str]) -> None:
    path = GOLDEN / f"{page}.txt"
    if os.environ.get("BOON_WRITE_HELP") == "1":
        path.write_text(pages[page])
    assert pages[page] == path.read_text()
