"""Every code block of README.md and docs/ runs, top to bottom as a reader follows the page,
and every output it shows is the output of the command it names (docs/docs-tests.md says how a
page marks a block and how the commands are made small).
"""

from __future__ import annotations

import contextlib
import json
import re
from pathlib import Path
from unittest import SkipTest

import pytest
from sybil import Document, Example, Lexeme, Region, Sybil
from sybil.parsers.markdown import CodeBlockParser, PythonCodeBlockParser, SkipParser
from sybil.parsers.markdown.lexers import RawFencedCodeBlockLexer

from tests.docs.conftest import Sandbox
from tests.docs.pages import PLACEHOLDER, ROOT, Block, blocks, logical_lines, pages, shown
from tests.docs.shim import SMALL

PAGES = pages()


def sizes(marker: str) -> str:
    """The sizes a ``small: --deals 200`` marker sets, else ""."""
    return marker.removeprefix("small:").strip() if marker.startswith("small:") else ""


def marker_above(example: Example) -> str:
    """The HTML comment on the line above a Sybil example's fence, else ""."""
    above = example.document.text[: example.start].rstrip("\n").rsplit("\n", 1)[-1]
    found = re.fullmatch(r"\s*<!--\s*(.*?)\s*-->\s*", above)
    return found.group(1) if found else ""


def shell_script(source: str) -> str:
    """A bash block as the sandbox runs it: a command with a ``<placeholder>`` (a file the
    reader makes, a host) becomes a no-op, its flags are still checked (test_flags)."""
    lines = []
    for line in logical_lines(source.split("\n")):
        lines.append(":" if PLACEHOLDER.search(line) else line)
    return "\n".join(lines)


def _shell_evaluator(sandbox: Sandbox):
    def evaluate(example: Example) -> str | None:
        script = shell_script(example.parsed)
        done = sandbox.run(script, sizes(marker_above(example)))
        if done.returncode != 0:
            return f"exit {done.returncode}\n{done.stdout[-3000:]}\n{done.stderr[-3000:]}"
        return None

    return evaluate


class SmallPythonParser(PythonCodeBlockParser):
    """Sybil's Python blocks, with the size keywords capped as the flags of the same name are
    (``deals=400`` runs as ``deals=2``, the cap of ``--deals``)."""

    def __call__(self, document: Document):
        for region in super().__call__(document):
            source = region.parsed
            region.parsed = Lexeme(small_python(source), source.offset, source.line_offset)
            yield region


def small_python(source: str) -> str:
    """``source`` with each keyword argument named like a size flag capped at its size."""

    def cap(found: re.Match[str]) -> str:
        limit = SMALL.get("--" + found["name"].replace("_", "-"))
        if limit is None:
            return found[0]
        return f"{found['name']}={min(int(found['value']), limit)}"

    return re.sub(r"\b(?P<name>[a-z_]+)=(?P<value>\d+)\b", cap, source)


class OutputBlockParser:
    """Sybil's parser of the output blocks: an unlabeled fence whose ``$ command`` lines run, in
    order, each followed by the lines it prints (compared by :func:`compare`)."""

    def __init__(self, sandbox: Sandbox) -> None:
        self.sandbox = sandbox
        self.lexer = RawFencedCodeBlockLexer()

    def __call__(self, document: Document):
        for region in self.lexer(document):
            source = str(region.lexemes["source"])
            yield Region(region.start, region.end, source, self.evaluate)

    def evaluate(self, example: Example) -> str | None:
        marker = marker_above(example)
        if marker.startswith("output not run:"):
            return None
        lines = tuple(example.parsed.rstrip("\n").split("\n"))
        block = Block(Path(example.path).relative_to(ROOT), example.line, "", lines, marker)
        for line, documented in shown(block):
            if PLACEHOLDER.search(line):
                continue  # names a file the reader makes; its flags are checked
            done = self.sandbox.run(line, sizes(marker))
            printed = done.stdout + done.stderr
            missing = compare(documented, printed)
            if missing:
                return (
                    f"`{line}` no longer prints these lines (at a small size):\n"
                    + "\n".join(missing)
                    + f"\n--- it printed:\n{printed[-4000:]}"
                )
        return None


# A page is dozens of commands in a row (README.md and docs/research.md: 3 CPU minutes), so it
# gets twice the suite's timeout for a shared, loaded machine.
@pytest.mark.timeout(1800)
@pytest.mark.parametrize("page", PAGES, ids=str)
@pytest.mark.usefixtures("boon_in_api_test_lists")  # README runs PettingZoo's api_test
def test_every_block_runs_and_prints_what_it_shows(
    page: Path, sandbox: Sandbox, monkeypatch
) -> None:
    monkeypatch.chdir(sandbox.path)
    parsers = [
        SmallPythonParser(),
        CodeBlockParser(language="bash", evaluator=_shell_evaluator(sandbox)),
        OutputBlockParser(sandbox),
        SkipParser(),
    ]
    document = Sybil(parsers).parse(ROOT / page)
    for example in document:
        with contextlib.suppress(SkipTest):  # a block under a skip marker
            example.evaluate()


_NUMBER = re.compile(r"[+-]?\d(?:[\d,]*\d)?(?:\.\d+)?(?:e[+-]?\d+)?")  # "16,384", not "1,"


def shape(line: str) -> str:
    """A line with what changes between runs taken out: numbers (a run of them counts as one),
    card names, file names, column widths and repeated list items."""
    line = _NUMBER.sub("#", line.split("  #")[0] if line.lstrip().startswith("$") else line)
    line = re.sub(r"\b[a-z]+ #", "#", line)  # "gold 9", "seat 2": a card, a seat
    line = re.sub(r"(?<!\S)-(?!\S)", "#", line).replace("#%", "#")  # "-": nothing to count
    line = re.sub(r"-{3,}", "---", line)
    line = re.sub(r"\s+", " ", line).strip()
    line = re.sub(r"#( #)+", "#", line)  # one figure per run: as many as the runs
    return re.sub(r"([^,|]+)(, \1)+", r"\1", line)


def pattern(line: str) -> re.Pattern[str]:
    """The printed lines a documented line stands for: its shape, where a ``...`` inside the
    line (``{"a": 1, ...}``) stands for any text left out."""
    parts = re.split(r"\s*\.\.\.\s*", shape(line))
    return re.compile(".*".join(re.escape(part) for part in parts))


def compare(documented: list[str], printed: str) -> list[str]:
    """The documented lines whose shape no printed line has."""
    printed_shapes = {shape(line) for line in printed.split("\n")}
    missing = []
    for line in documented:
        if not line.strip() or line.strip() == "...":
            continue
        if shape(line) in printed_shapes:
            continue
        wanted = pattern(line)
        if "..." not in line or not any(wanted.fullmatch(s) for s in printed_shapes):
            missing.append(line)
    return missing


def json_examples() -> list[Block]:
    return [b for p in PAGES for b in blocks(p) if b.info == "json"]


JSONS = json_examples()
_MARKER = re.compile(r"^output of: (?P<command>.+?)(?: => (?P<file>\S+))?$")


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


def test_a_shown_line_with_dots_matches_a_longer_printed_line() -> None:
    # A guard on compare: `...` inside a line elides text, the rest of the line still counts.
    printed = '{"rate": 17818.1, "wall_s": 27.6, "cpu_s": 32.4}\n'
    assert compare(['{"rate": 15880.4, "wall_s": 10.3, ...}'], printed) == []
    assert compare(['{"rate": 15880.4, "secs": 10.3, ...}'], printed) != []
    assert compare(['{"rate": 1.0}'], printed) != []
    row = "search:samples=32  -1.000  [-2.960, +0.960]  22.6  12.5%  0.0%  0.0%  -"
    assert (
        compare(["search:samples=32  -0.035  [-0.189, +0.119]  25.4  16.8%  71.6%  ..."], row) == []
    )
    assert compare(["search  -0.035  [-0.189, +0.119]  25.4  ..."], row) != []


def test_python_size_keywords_are_capped_like_their_flags() -> None:
    source = "gains_by_gold(players=4, deals=400, seed=2026, num_tables=1024, num_envs=64)"
    assert small_python(source) == (
        "gains_by_gold(players=4, deals=2, seed=2026, num_tables=16, num_envs=64)"
    )
