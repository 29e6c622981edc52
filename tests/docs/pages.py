"""The documentation pages as data: their fenced blocks, the commands in them, their links.

The docs tests (``tests/docs``) read the pages through this module; ``docs/docs-tests.md``
says what they check and how a page marks a block.
"""

from __future__ import annotations

import re
import shlex
from dataclasses import dataclass
from functools import cache
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]


def pages() -> list[Path]:
    """README.md and every page under docs/, as paths relative to the repository root."""
    return [Path("README.md"), *sorted(p.relative_to(ROOT) for p in (ROOT / "docs").glob("*.md"))]


@dataclass(frozen=True)
class Block:
    """One fenced block of a page: its info string, its lines and the comment just above it."""

    page: Path
    line: int  # 1-based line of the opening fence
    info: str
    lines: tuple[str, ...]
    marker: str  # the text of an HTML comment on the line before the fence, or ""

    @property
    def where(self) -> str:
        return f"{self.page}:{self.line}"

    @property
    def text(self) -> str:
        return "\n".join(self.lines)


_FENCE = re.compile(r"^(\s*)(`{3,})(.*)$")
_COMMENT = re.compile(r"^\s*<!--\s*(.*?)\s*-->\s*$")


@cache
def blocks(page: Path) -> tuple[Block, ...]:
    """Every fenced block of ``page`` (relative to the repository root), in order."""
    lines = (ROOT / page).read_text().split("\n")
    found, i = [], 0
    while i < len(lines):
        opening = _FENCE.match(lines[i])
        if not opening:
            i += 1
            continue
        indent, fence, info = opening.groups()
        end = i + 1
        while end < len(lines) and lines[end].strip() != fence:
            end += 1
        body = tuple(line[len(indent) :] for line in lines[i + 1 : end])
        above = _COMMENT.match(lines[i - 1]) if i else None
        found.append(Block(page, i + 1, info.strip(), body, above.group(1) if above else ""))
        i = end + 1
    return tuple(found)


def prose(page: Path) -> str:
    """The page without its fenced blocks (what a reader sees as text)."""
    text = (ROOT / page).read_text().split("\n")
    for block in blocks(page):
        for k in range(block.line - 1, block.line + len(block.lines) + 1):
            text[k] = ""
    return "\n".join(text)


def logical_lines(lines: tuple[str, ...] | list[str]) -> list[str]:
    """Lines joined at their backslash continuations, comments and blank lines dropped."""
    joined, current = [], ""
    for line in lines:
        if line.rstrip().endswith("\\"):
            current += line.rstrip()[:-1] + " "
            continue
        current += line
        if current.strip() and not current.lstrip().startswith("#"):
            joined.append(current.strip())
        current = ""
    return joined


PLACEHOLDER = re.compile(r"<[A-Za-z][^<>]*>")


def words(command: str) -> list[str]:
    """The shell words of one command line, its trailing ``# comment`` dropped."""
    try:
        return shlex.split(command, comments=True)
    except ValueError:  # an unbalanced quote: the command is wrong as written
        raise ValueError(f"cannot split {command!r} into shell words") from None


@dataclass(frozen=True)
class Command:
    """A documented command line: the program it runs and its arguments."""

    program: tuple[
        str, ...
    ]  # ("boon", "arena"), ("train.py",), ("agents.studies.research", "collect")
    arguments: tuple[str, ...]

    @property
    def flags(self) -> list[str]:
        return [a.split("=")[0] for a in self.arguments if re.match(r"^--[a-z]", a)]


_PYTHONS = {"python", "python3", ".venv/bin/python", "nice"}


def command(line: str) -> Command | None:
    """What ``line`` runs, when it runs a program of this project (else None)."""
    argv = words(line)
    while argv and (argv[0] in _PYTHONS or argv[0].startswith("-n") or argv[0].isdigit()):
        if argv[0] == "nice":
            argv = argv[1:]
            continue
        if argv[0] in _PYTHONS:
            argv = argv[1:]
            if argv[:1] == ["-m"]:
                argv = argv[1:]
            break
        argv = argv[1:]
    if not argv:
        return None
    head, rest = argv[0], argv[1:]
    if head == "agents.cli":
        head = "boon"
    if head == "boon" or head.startswith("agents."):
        if rest and re.fullmatch(r"[a-z]+", rest[0]):
            return Command((head, rest[0]), tuple(rest[1:]))
        return Command((head,), tuple(rest))
    if head.endswith(".py") and (ROOT / head).is_file():
        return Command((head,), tuple(rest))
    return None


def synopsis_lines(block: Block) -> list[str]:
    """A usage block's lines (``boon arena --agents SPEC ... [--workers W]``) joined per command.

    A line that starts with spaces continues the command above it.
    """
    joined: list[str] = []
    for line in block.lines:
        code = line.split("  #")[0]
        if line.startswith(" ") and joined:
            joined[-1] += " " + code.strip()
        elif code.strip():
            joined.append(code.strip())
    return joined


def shown(block: Block) -> list[tuple[str, list[str]]]:
    """The ``$ command`` lines of an output block, each with the lines shown as its output.

    A command line that ends in a backslash goes on in the indented line below it.
    """
    found: list[tuple[str, list[str]]] = []
    pending = ""
    for line in block.lines:
        if line.startswith("$ ") or (pending and line.startswith(" ")):
            pending += line[2:] if line.startswith("$ ") else " " + line.strip()
            if pending.rstrip().endswith("\\"):
                pending = pending.rstrip()[:-1]
                continue
            found.append((pending.strip(), []))
            pending = ""
        elif found:
            found[-1][1].append(line)
    return found
