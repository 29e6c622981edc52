"""The page's script (``agents/web/static/app.js``) under Node.js, without a browser: the text
it builds from the server's messages."""

from __future__ import annotations

import json
import shutil
import subprocess
from pathlib import Path

import pytest

APP_JS = Path(__file__).resolve().parents[2] / "agents" / "web" / "static" / "app.js"
NODE = shutil.which("node")
pytestmark = pytest.mark.skipif(NODE is None, reason="needs Node.js")


def evaluate(expression: str) -> object:
    """The value of ``expression`` (JSON-ready) once the page's script has loaded; the script
    starts only on the page's load event, which never comes here."""
    program = f"""
const vm = require("vm");
const context = vm.createContext({{ window: {{ addEventListener() {{}} }} }});
vm.runInContext(require("fs").readFileSync({json.dumps(str(APP_JS))}, "utf8"), context);
process.stdout.write(JSON.stringify(vm.runInContext({json.dumps(expression)}, context)));
"""
    done = subprocess.run([NODE, "-e", program], capture_output=True, text=True, timeout=60)
    assert done.returncode == 0, done.stderr
    return json.loads(done.stdout)


@pytest.mark.parametrize(
    ("winners", "line"),
    [
        ([0], "Game over: You win the game."),
        ([2], "Game over: Seat 2 wins the game."),
        ([0, 2], "Game over: You and Seat 2 share the game."),
    ],
)
def test_the_game_over_line_agrees_with_who_won(winners, line):
    script = 'ui.mode = "play"; ui.names = ["You", "Seat 1", "Seat 2"]; '
    assert evaluate(script + f"gameOverLine({winners}, 0, label)") == line
