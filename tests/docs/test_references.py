"""What README.md and docs/ point at exists: relative links (and their #anchors), the paths of
the repository they name, and the flags of every command they show."""

from __future__ import annotations

import functools
import itertools
import re
import subprocess
from pathlib import Path

import pytest

from tests.docs import shim
from tests.docs.pages import (
    ROOT,
    blocks,
    command,
    logical_lines,
    pages,
    prose,
    shown,
    synopsis_lines,
)

PAGES = pages()
_LINK = re.compile(r"\[[^\]]*\]\(([^)\s]+)\)")


def anchors(page: Path) -> set[str]:
    """The #anchors of a page's headings, as GitHub makes them."""
    found = set()
    for heading in re.findall(r"^#+ (.+)$", prose(page), flags=re.MULTILINE):
        slug = re.sub(r"[^\w\- ]", "", heading.strip().lower()).replace(" ", "-")
        found.add(slug)
    return found


def broken_links(page: Path) -> list[str]:
    """The relative links of ``page`` whose file or heading does not exist."""
    broken = []
    for target in _LINK.findall(prose(page)):
        if re.match(r"^[a-z]+:", target):  # https:, mailto:
            continue
        path, _, anchor = target.partition("#")
        resolved = (ROOT / page.parent / path).resolve() if path else ROOT / page
        if not resolved.exists():
            broken.append(f"{target}: no such file")
        elif (
            anchor
            and resolved.suffix == ".md"
            and anchor not in anchors(resolved.relative_to(ROOT))
        ):
            broken.append(f"{target}: no heading #{anchor}")
    return broken


@pytest.mark.parametrize("page", PAGES, ids=str)
def test_relative_links_resolve(page: Path) -> None:
    assert not broken_links(page), f"{page}: broken links: {broken_links(page)}"


@functools.cache
def repository_files() -> tuple[str, ...]:
    """The repository's files (committed or new, not ignored: no run outputs)."""
    listed = subprocess.run(
        ["git", "ls-files", "--cached", "--others", "--exclude-standard"],
        cwd=ROOT,
        capture_output=True,
        text=True,
        check=True,
    )
    return tuple(listed.stdout.split())


_TOP = sorted({f.split("/")[0] for f in repository_files() if "/" in f})
# A path from the top of the repository (`agents/cli/commands.py`, `../boon_env/core`).
_PATH = re.compile(
    r"(?<![\w./~:-])(?:\.\./)*(?:" + "|".join(map(re.escape, _TOP)) + r")(?:/[\w.*<>{},$-]*)+"
)
# A file named alone (`RULES_BON.md`, `spec.py`); another project's is named with it
# ("CleanRL's `ppo.py`").
_FILE = re.compile(r"(?<!'s )`([\w.-]+\.(?:py|md|ipynb|toml))`")


def expand(path: str) -> list[str]:
    """``a/{b,c}/d`` as ``a/b/d`` and ``a/c/d``; a ``<placeholder>`` or a shell variable
    (``${n}``) as a ``*``."""
    path = re.sub(r"<[^<>]*>|\$?\{[^{},]*\}", "*", path)
    choice = re.search(r"\{([^{}]*)\}", path)
    if not choice:
        return [path]
    return list(
        itertools.chain.from_iterable(
            expand(path[: choice.start()] + option + path[choice.end() :])
            for option in choice.group(1).split(",")
        )
    )


def exists(path: str) -> bool:
    """A file or folder of the repository is at ``path`` (globs match one)."""
    if "*" in path:
        return any(ROOT.glob(path))
    return (ROOT / path).exists()


def missing_paths(page: Path) -> list[str]:
    """The repository paths ``page`` names that are not in the repository."""
    text = (ROOT / page).read_text()
    missing = []
    for named in set(_PATH.findall(text)):
        named = named.rstrip(".,:;")
        if re.search(r"-v\d+$", named):  # a registered id ("boon_env/Boon-v0"), not a file
            continue
        relative = str(page.parent / named) if named.startswith("..") else named
        for path in expand(relative):
            if not exists(str(Path(path).as_posix()).replace("docs/../", "")):
                missing.append(named)
    for named in set(_FILE.findall(text)):
        if not any(f == named or f.endswith("/" + named) for f in repository_files()):
            missing.append(named)
    return sorted(set(missing))


@pytest.mark.parametrize("page", PAGES, ids=str)
def test_named_paths_exist(page: Path) -> None:
    assert not missing_paths(page), f"{page} names paths that do not exist: {missing_paths(page)}"


@functools.cache
def program_flags(program: tuple[str, ...]) -> frozenset[str]:
    """The flags ``program --help`` lists."""
    return frozenset(shim.program_flags(program))


def documented_commands(page: Path) -> list[tuple[str, str]]:
    """(where, command line) for every command of the page: bash blocks, ``$`` lines, usage
    blocks and the commands named by output markers."""
    found = []
    for block in blocks(page):
        if block.info in ("bash", "sh"):
            lines = logical_lines(list(block.lines))
        elif block.info == "":
            lines = [line for line, _ in shown(block)] or [
                s for s in synopsis_lines(block) if s.startswith("boon ")
            ]
        else:
            lines = []
        marked = re.match(r"^output of: (.+?)(?: => \S+)?$", block.marker)
        found += [(block.where, line) for line in lines + ([marked.group(1)] if marked else [])]
    return found


def unknown_flags(page: Path) -> list[str]:
    unknown = []
    for where, line in documented_commands(page):
        code = re.split(r"\s#\s|\s{2,}#", line)[0]
        try:
            run = command(re.sub(r"[\[\]|]", " ", code))
        except ValueError as error:
            unknown.append(f"{where}: {error}")
            continue
        if run is None:
            continue
        flags = set(re.findall(r"(?<![\w-])--[a-z][a-z0-9-]*", code))
        for flag in sorted(flags - program_flags(run.program)):
            unknown.append(f"{where}: {' '.join(run.program)} has no {flag}")
    return unknown


@pytest.mark.parametrize("page", PAGES, ids=str)
def test_every_flag_shown_exists(page: Path) -> None:
    assert not unknown_flags(page), "\n".join(unknown_flags(page))


def test_every_usage_block_of_the_cli_page_lists_every_flag() -> None:
    """docs/cli.md's usage blocks (``boon serve [--game boon] ...``) name every flag of their
    command, so a new flag is written there too."""
    page = Path("docs/cli.md")
    usage: dict[tuple[str, ...], set[str]] = {}
    for block in blocks(page):
        if block.info:
            continue
        for line in synopsis_lines(block):
            if line.startswith("boon ") and "[--" in line:
                run = command(re.sub(r"[\[\]|]", " ", line.split(" #")[0]))
                assert run is not None
                usage.setdefault(run.program, set()).update(re.findall(r"--[a-z][a-z0-9-]*", line))
    assert usage
    missing = {
        " ".join(program): sorted(program_flags(program) - flags - {"--help"})
        for program, flags in usage.items()
    }
    assert not any(missing.values()), f"docs/cli.md's usage blocks miss flags: {missing}"
