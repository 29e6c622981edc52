"""``boon serve`` (and ``python -m agents.web``): one-line errors for the user's mistakes, and a
real server process that prints its address and serves the page until interrupted."""

from __future__ import annotations

import ast
import contextlib
import signal
import socket
import subprocess
import sys
import urllib.request
from pathlib import Path

import pytest

from agents.cli.commands import main
from agents.web import start

REPLAY = Path(__file__).parents[1] / "data" / "replay_4p.jsonl"


def one_line_error(capsys, argv: list[str]) -> str:
    assert main(["serve", *argv]) == 2
    err = capsys.readouterr().err
    assert err.startswith("boon serve: error: ") and err.count("\n") == 1, err
    return err


def test_a_bad_spec_is_one_line(capsys):
    assert "unknown agent kind 'wizard'" in one_line_error(capsys, ["--opponents", "wizard"])
    assert "1 spec or 3" in one_line_error(capsys, ["--opponents", "random", "random"])


def test_a_bad_replay_file_is_one_line(capsys, tmp_path):
    assert "cannot read replay file" in one_line_error(capsys, ["--replay", str(tmp_path / "x")])
    bad = tmp_path / "bad.jsonl"
    bad.write_text(REPLAY.read_text() + "{oops\n")
    assert "line 4: not JSON" in one_line_error(capsys, ["--replay", str(bad)])


def test_a_file_of_no_known_game_is_one_line(capsys, tmp_path):
    strange = tmp_path / "strange.jsonl"
    strange.write_text('{"deal": {"cards": []}}\n')
    error = one_line_error(capsys, ["--replay", str(strange)])
    assert "line 1: not a round of any game the browser shows" in error
    assert "boon: boon, hands; bon: hands, leftovers; boyn: hands, stock" in error


def test_a_port_in_use_is_one_line(capsys):
    with socket.socket() as taken:
        taken.bind(("127.0.0.1", 0))
        taken.listen(1)
        port = taken.getsockname()[1]
        error = one_line_error(capsys, ["--port", str(port)])
    assert f"cannot listen on 127.0.0.1:{port}" in error


def test_bad_limits_are_one_line(capsys):
    assert "--idle-timeout" in one_line_error(capsys, ["--idle-timeout", "0"])
    assert "--start-timeout" in one_line_error(capsys, ["--start-timeout", "-1"])
    assert "--max-games" in one_line_error(capsys, ["--max-games", "0"])
    assert "--max-games-per-client" in one_line_error(capsys, ["--max-games-per-client", "0"])


def test_help_names_the_limits_and_their_defaults(capsys):
    with pytest.raises(SystemExit):
        main(["serve", "--help"])
    text = " ".join(capsys.readouterr().out.split())
    assert "--start-timeout SECONDS close a connection that starts no game" in text
    assert "(default 60)" in text and "(default 300)" in text
    assert "--max-games-per-client N games open at once from one client address" in text


def test_python_m_agents_web_tells_a_mistake_in_one_line(capsys):
    for argv, wanted in (
        (["--players", "9"], "--players: a Boon table has 3-5 players, got 9"),
        (["--port", "x"], "argument --port: must be an integer 0-65535"),
    ):
        with contextlib.suppress(SystemExit):  # argparse exits on what it refuses itself
            assert start.main(argv) == 2
        err = capsys.readouterr().err
        assert err.startswith("python -m agents.web: error: ") and err.count("\n") == 1, err
        assert wanted in err


def test_python_m_agents_web_has_the_options_of_boon_serve(capsys):
    with pytest.raises(SystemExit):
        main(["serve", "--help"])
    served = capsys.readouterr().out.split("options:")[1]
    with pytest.raises(SystemExit):
        start.main(["--help"])
    assert capsys.readouterr().out.split("options:")[1] == served


def _ctrl_c_as_in_a_terminal() -> None:
    # A process started with Ctrl+C ignored (as a test worker may be) keeps it ignored, as
    # Unix programs do; the server is tested as a terminal starts it.
    signal.signal(signal.SIGINT, signal.SIG_DFL)


@pytest.mark.parametrize("replay", [False, True])
def test_the_server_prints_its_address_serves_and_stops_on_ctrl_c(replay):
    extra = ["--replay", str(REPLAY)] if replay else ["--players", "3", "--seed", "1"]
    with subprocess.Popen(
        [sys.executable, "-m", "agents.web", "--port", "0", *extra],
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        text=True,
        preexec_fn=_ctrl_c_as_in_a_terminal,
    ) as process:
        try:
            line = process.stdout.readline()
            what = f"replay of {REPLAY}" if replay else "Boon table"
            assert line.startswith(f"{what} at http://127.0.0.1:"), line
            url = line.removeprefix(f"{what} at ").split()[0]
            with urllib.request.urlopen(url, timeout=30) as response:
                assert response.status == 200 and b"app.js" in response.read()
            process.send_signal(signal.SIGINT)
            assert process.wait(timeout=30) == 130  # the CLI's status for Ctrl+C
            assert "Traceback" not in process.stderr.read()
        finally:
            if process.poll() is None:
                process.kill()


def test_the_web_package_imports_nothing_of_the_command_line():
    # The command line starts the web table (boon serve), never the other way round.
    root = Path(__file__).resolve().parents[2]
    for path in sorted((root / "agents" / "web").rglob("*.py")):
        for node in ast.walk(ast.parse(path.read_text())):
            if isinstance(node, ast.Import | ast.ImportFrom):
                module = f"{node.module}." if isinstance(node, ast.ImportFrom) else ""
                names = [module + alias.name for alias in node.names]
                assert not any(name.split(".")[:2] == ["agents", "cli"] for name in names), path


def test_only_the_web_app_imports_the_web_framework():
    root = Path(__file__).resolve().parents[2]
    framework = {"starlette", "uvicorn", "fastapi", "websockets", "anyio"}
    for path in sorted([*root.glob("agents/**/*.py"), *root.glob("boon_env/**/*.py")]):
        if path.is_relative_to(root / "agents" / "web"):
            continue
        for node in ast.walk(ast.parse(path.read_text())):
            names = (
                [alias.name for alias in node.names]
                if isinstance(node, ast.Import)
                else [node.module or ""]
                if isinstance(node, ast.ImportFrom)
                else []
            )
            assert not {name.split(".")[0] for name in names} & framework, path
