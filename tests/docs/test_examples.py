"""Every code block of README.md and docs/ runs, and every output it shows is the output of the
command it names (docs/docs-tests.md says how a page marks a block).

These run hundreds of commands (a few minutes on 2 cores): they are opt-in, ``-m slow``.
"""

from __future__ import annotations

import contextlib
import json
import re
from pathlib import Path
from unittest import SkipTest

import pytest
from sybil import Example, Sybil
from sybil.parsers.markdown import CodeBlockParser, PythonCodeBlockParser, SkipParser

from tests.docs.conftest import Sandbox
from tests.docs.pages import PLACEHOLDER, ROOT, Block, blocks, logical_lines, pages, shown

PAGES = pages()


def sizes(marker: str) -> str:
    """The sizes a ``small: --deals 200`` marker sets, else ""."""
    return marker.removeprefix("small:").strip() if marker.startswith("small:") else ""


def marker_above(example: Example) -> str:
    """The HTML comment on the line above a Sybil example's fence, else ""."""
    above = example.document.text[: example.start].rstrip("\n").rsplit("\n", 1)[-1]
    found = re.fullmatch(r"\s*<!--\s*(.*?)\s*-->\s*", above)
    return found.group(1) if found else ""


def _shell_evaluator(sandbox: Sandbox):
    def evaluate(example: Example) -> str | None:
        script = shell_script(example.parsed)
        done = sandbox.run(script, sizes(marker_above(example)))
        if done.returncode != 0:
            return f"exit {done.returncode}\n{done.stdout[-3000:]}\n{done.stderr[-3000:]}"
        return None

    return evaluate


def shell_script(source: str) -> str:
    """A bash block as the sandbox runs it: a command with a ``<placeholder>`` (a file the
    reader makes, a host) becomes a no-op, its flags are still checked (test_flags)."""
    lines = []
    for line in logical_lines(source.split("\n")):
        lines.append(":" if PLACEHOLDER.search(line) else line)
    return "\n".join(lines)


@pytest.mark.slow
@pytest.mark.parametrize("page", PAGES, ids=str)
@pytest.mark.usefixtures("boon_in_api_test_lists")  # README runs PettingZoo's api_test
def test_every_python_and_bash_block_runs(page: Path, sandbox: Sandbox, monkeypatch) -> None:
    monkeypatch.chdir(sandbox.path)
    parsers = [
        PythonCodeBlockParser(),
        CodeBlockParser(language="bash", evaluator=_shell_evaluator(sandbox)),
        SkipParser(),
    ]
    document = Sybil(parsers).parse(ROOT / page)
    for example in document:
        with contextlib.suppress(SkipTest):  # a block under a skip marker
            example.evaluate()


def output_examples() -> list[tuple[Block, str, list[str]]]:
    """Each ``$ command`` of an unlabeled block with the lines it shows as its output."""
    return [
        (block, line, output)
        for page in PAGES
        for block in blocks(page)
        if not block.info and not block.marker.startswith(("skip:", "output not run:"))
        for line, output in shown(block)
    ]


OUTPUTS = output_examples()
_NUMBER = re.compile(r"[+-]?\d[\d,]*(?:\.\d+)?(?:e[+-]?\d+)?")


def shape(line: str) -> str:
    """A line with what changes between runs taken out: numbers, card names, file names,
    column widths and repeated list items."""
    line = _NUMBER.sub("#", line.split("  #")[0] if line.lstrip().startswith("$") else line)
    line = re.sub(r"\b[a-z]+ #", "#", line)  # "gold 9", "seat 2": a card, a seat
    line = re.sub(r"(?<!\S)-(?!\S)", "#", line).replace("#%", "#")  # "-": nothing to count
    line = re.sub(r"-{3,}", "---", line)
    line = re.sub(r"\s+", " ", line).strip()
    return re.sub(r"([^,|]+)(, \1)+", r"\1", line)


def compare(documented: list[str], printed: str) -> list[str]:
    """The documented lines whose shape no printed line has."""
    printed_shapes = {shape(line) for line in printed.split("\n")}
    return [
        line
        for line in documented
        if line.strip() and line.strip() != "..." and shape(line) not in printed_shapes
    ]


@pytest.mark.slow
@pytest.mark.parametrize(
    ("block", "line", "documented"), OUTPUTS, ids=[f"{b.where}:{c[:40]}" for b, c, _ in OUTPUTS]
)
def test_shown_output_is_what_the_command_prints(
    block: Block, line: str, documented: list[str], sandbox: Sandbox
) -> None:
    if PLACEHOLDER.search(line):
        pytest.skip(f"{line!r} names a file the reader makes; its flags are checked")
    done = sandbox.run(line, sizes(block.marker))
    printed = done.stdout + done.stderr
    missing = compare(documented, printed)
    assert not missing, (
        f"{block.where}: `{line}` no longer prints these lines (at a small size):\n"
        + "\n".join(missing)
        + f"\n--- it printed:\n{printed[-4000:]}"
    )


def json_examples() -> list[Block]:
    return [b for p in PAGES for b in blocks(p) if b.info == "json"]


JSONS = json_examples()
_MARKER = re.compile(r"^output of: (?P<command>.+?)(?: => (?P<file>\S+))?$")


@pytest.mark.slow
@pytest.mark.parametrize("block", JSONS, ids=[b.where for b in JSONS])
def test_json_example_has_the_keys_the_command_writes(block: Block, sandbox: Sandbox) -> None:
    marker = _MARKER.match(block.marker)
    assert marker, (
        f"{block.where}: a JSON example says which command writes it, in an HTML comment on the "
        'line above: "<!-- output of: boon arena ... --json -->" (or "... => FILE" for a file)'
    )
    done = sandbox.run(marker["command"], sizes(block.marker))
    assert done.returncode == 0, f"{block.where}: {marker['command']}\n{done.stderr[-3000:]}"
    written = done.stdout
    if marker["file"]:  # the first record of the file the command writes
        written = (sandbox.path / marker["file"]).read_text().split("\n")[0]
    actual = _keys(written)
    missing = sorted(_keys(block.text) - actual)
    assert not missing, (
        f"{block.where}: `{marker['command']}` writes no {missing}; it writes {sorted(actual)}"
    )


def _keys(text: str) -> set[str]:
    return set(re.findall(r'"([A-Za-z_][\w.]*)"\s*:', text))


def test_the_json_keys_are_read_from_real_json() -> None:
    # A guard on _keys: the keys of a real document are found, nested ones too.
    assert _keys(json.dumps({"a": 1, "b": {"c": [1, {"d": 2}]}})) == {"a", "b", "c", "d"}
