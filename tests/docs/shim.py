"""Runs one documented command at a small size: the docs tests put it on PATH as ``boon``,
``python``, ``pip``, ``tensorboard`` and ``ray``.

``python shim.py NAME ARG...`` runs what ``NAME ARG...`` runs in the docs, with every size
flag of ``SMALL`` capped (and added where the program has it and the command leaves it to its
default), so that the command a reader copies is the command the tests run, only smaller.
``boon serve`` is started, asked for its page and stopped. Tools that are not this project's
(``pip``, ``tensorboard``, ``ray``) are only checked to be installed. docs/docs-tests.md has the
table.
"""

from __future__ import annotations

import os
import re
import resource
import shlex
import socket
import subprocess
import sys
import time
import urllib.request
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[2]))

from tests.docs.pages import ROOT, Command, command

# Size flags: the value a documented command gets at most, and gets when it leaves the flag to
# its (large) default and its program has the flag.
SMALL: dict[str, int] = {
    "--deals": 2,
    "--games": 2,
    "--eval-deals": 2,
    "--arena-deals": 2,
    "--total-timesteps": 1024,
    "--timesteps": 2048,
    "--decisions": 1024,
    "--bc-rounds": 8,
    "--bc-epochs": 1,
    "--warm-start": 8,
    "--rounds": 2,
    "--env-rounds": 2,
    "--repeats": 1,
    "--repeat": 1,
    "--steps": 10,
    "--obs-steps": 5,
    "--tables": 16,
    "--num-tables": 16,
    "--num-envs-per-env-runner": 16,
    "--train-batch-size": 384,
    "--minibatch-size": 64,
    "--batch-size": 64,
    "--iterations": 1,
    # Processes: the tests run two commands at a time on two cores, so each runs in one
    # process (Ray's env runners: none besides the driver's own).
    "--workers": 1,
    "--rollout-workers": 1,
    "--arena-workers": 1,
    "--num-env-runners": 0,
}
# Capped where written, never added: time budgets (a run also stops at its size) and sizes of
# options that a command only takes with another flag.
CAPPED: dict[str, float] = {
    "--seconds": 5,
    "--max-seconds": 10,
    "--max-minutes": 0.2,
    "--reference-deals": 200,
}


def program_flags(program: tuple[str, ...]) -> set[str]:
    """The flags ``program --help`` lists as its options (kept in the sandbox's cache folder
    when there is one: every command of a page asks)."""
    folder = os.environ.get("DOCS_TEST_CACHE")
    if folder is None:
        return flags_of(help_text(program))
    cache = Path(folder) / ("help-" + "-".join(program).replace("/", "_"))
    if not cache.exists():
        cache.write_text(help_text(program))
    return flags_of(cache.read_text())


def flags_of(help: str) -> set[str]:
    """The options of a ``--help`` text (argparse's or tyro's): the flags named at the start of
    an indented line (``  --seed SEED``, ``│ --progress-bar, --no-progress-bar``)."""
    flags: set[str] = set()
    for line in help.splitlines():
        named = re.match(r"^[ \t│]+(-.*?)(?:\s{2,}|│|$)", line)
        if named:
            flags |= set(re.findall(r"(?<![\w-])--[a-z][a-z0-9-]*", named.group(1)))
    return flags


def help_text(program: tuple[str, ...]) -> str:
    """What ``program --help`` prints."""
    argv = [sys.executable, *launch(program), "--help"]
    done = subprocess.run(argv, capture_output=True, text=True, cwd=ROOT, timeout=120)
    if done.returncode != 0:
        raise SystemExit(f"{' '.join(program)} --help failed:\n{done.stderr[-2000:]}")
    return done.stdout


def launch(program: tuple[str, ...]) -> list[str]:
    """The arguments after ``python`` that start ``program``."""
    head, *sub = program
    if head == "boon":
        return ["-m", "agents.cli", *sub]
    if head.endswith(".py"):
        return [head, *sub]
    return ["-m", head, *sub]


def marked_sizes() -> dict[str, float]:
    """The sizes a block's ``<!-- small: --deals 200 -->`` marker sets (``DOCS_TEST_SIZES``)."""
    words = os.environ.get("DOCS_TEST_SIZES", "").split()
    return {flag: float(value) for flag, value in zip(words[::2], words[1::2], strict=True)}


def small(run: Command) -> list[str]:
    """``run``'s arguments with its sizes capped, and added where left to a default."""
    arguments = list(run.arguments)
    marked = marked_sizes()
    for i, word in enumerate(arguments[:-1]):
        cap = marked.get(word, SMALL.get(word, CAPPED.get(word)))
        if cap is not None and re.fullmatch(r"[0-9.]+", arguments[i + 1]):
            value = min(float(arguments[i + 1]), cap)
            arguments[i + 1] = str(int(value)) if value == int(value) else str(value)
    known = program_flags(run.program)
    for flag, value in {**SMALL, **marked}.items():
        if flag in known and flag not in arguments and flag not in _left_out(arguments):
            arguments += [flag, f"{value:g}"]
    return arguments


def _left_out(arguments: list[str]) -> set[str]:
    """The size flags that do not go with ``arguments``: a run counts deals or whole games
    (``--episode game``), never both, and a review of recorded rounds (``--replay``) plays
    none."""
    if "--replay" in arguments:
        return {"--deals", "--games"}
    episode = arguments[arguments.index("--episode") + 1] if "--episode" in arguments[:-1] else ""
    return {"--deals"} if episode == "game" or "--games" in arguments else {"--games"}


def serve(argv: list[str]) -> int:
    """Start ``boon serve`` on a free port, fetch its page, stop it: 0 when the page came."""
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        port = probe.getsockname()[1]
    server = subprocess.Popen([*argv, "--port", str(port)], stdout=sys.stdout, stderr=sys.stderr)
    try:
        deadline = time.monotonic() + 60
        while time.monotonic() < deadline:
            if server.poll() is not None:
                return server.returncode or 1
            try:
                with urllib.request.urlopen(f"http://127.0.0.1:{port}/", timeout=5) as page:
                    return 0 if page.status == 200 else 1
            except OSError:
                time.sleep(0.3)
        print("boon serve did not answer in 60 s", file=sys.stderr)
        return 1
    finally:
        server.terminate()
        server.wait(timeout=30)


def pip(arguments: list[str]) -> int:
    """``pip install -e ".[extras]"``: the extras must be the project's; nothing is installed."""
    project = (ROOT / "pyproject.toml").read_text()
    section = project.split("[project.optional-dependencies]")[1].split("\n[")[0]
    extras = set(re.findall(r"^([a-z]+) = \[", section, flags=re.MULTILINE))
    named = {
        name
        for word in arguments
        if (found := re.fullmatch(r"\.\[([a-z,]+)\]", word))
        for name in found.group(1).split(",")
    }
    unknown = named - extras
    if arguments[:1] != ["install"] or not named or unknown:
        print(f"pip {' '.join(arguments)}: no install of the project's extras", file=sys.stderr)
        return 1
    return 0


def tool(name: str) -> int:
    """A tool outside the project: 0 when its Python package is installed."""
    module = {"tensorboard": "tensorboard", "ray": "ray"}[name]
    found = subprocess.run([sys.executable, "-c", f"import {module}"], capture_output=True)
    return found.returncode


def main(name: str, arguments: list[str]) -> int:
    """Run ``name arguments`` as the docs mean it, at a small size."""
    if name == "pip":
        return pip(arguments)
    if name in ("tensorboard", "ray"):
        return tool(name)
    line = shlex.join([name, *arguments])
    run = command(line)
    if run is None:
        print(f"docs test: {line!r} runs no program of this project", file=sys.stderr)
        return 1
    argv = [sys.executable, *launch(run.program), *small(run)]
    if run.program == ("boon", "serve"):
        return serve(argv)
    # `boon play` reads moves: always the first legal one, for the rounds the size allows.
    moves = "1\n" * 5000 if run.program == ("boon", "play") else ""
    return subprocess.run(argv, input=moves, text=True).returncode


def log_cost(started: float, arguments: list[str]) -> None:
    """Note the command's wall and CPU seconds in the file ``DOCS_TEST_LOG`` names, if any:
    where a page's time goes."""
    if not os.environ.get("DOCS_TEST_LOG"):
        return
    children = resource.getrusage(resource.RUSAGE_CHILDREN)
    cpu = children.ru_utime + children.ru_stime
    with open(os.environ["DOCS_TEST_LOG"], "a") as log:
        log.write(f"{time.monotonic() - started:7.1f} s {cpu:7.1f} cpu  {shlex.join(arguments)}\n")


if __name__ == "__main__":
    started = time.monotonic()
    code = main(sys.argv[1], sys.argv[2:])
    log_cost(started, sys.argv[1:])
    if code and os.environ.get("DOCS_TEST_FAILED"):
        with open(os.environ["DOCS_TEST_FAILED"], "a") as failed:
            failed.write(f"failed ({code}): {shlex.join(sys.argv[1:])}\n")
    sys.exit(code)
