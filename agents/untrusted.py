"""Reading files and messages that may be hostile: JSON bounded in size and nesting.

``json.loads`` recurses once per level of nesting, so a small file of ``[[[[...`` reaches
Python's recursion limit (a ``RecursionError``, not a ``ValueError``); :func:`loads` refuses it
before parsing, with a ``ValueError`` a loader can turn into its one-line error.
"""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

# The largest text file read whole: many times any saved run (an arena's 10,000 deals at 4
# players save about 40 MB).
MAX_FILE_BYTES = 1 << 30


def nesting(text: str) -> int:
    """How deep arrays and objects nest in ``text`` (JSON or not), brackets in strings aside."""
    depth = deepest = 0
    in_string = escaped = False
    for char in text:
        if in_string:
            if escaped:
                escaped = False
            elif char == "\\":
                escaped = True
            elif char == '"':
                in_string = False
        elif char == '"':
            in_string = True
        elif char in "[{":
            depth += 1
            deepest = max(deepest, depth)
        elif char in "]}":
            depth -= 1
    return deepest


def loads(text: str, max_nesting: int) -> Any:
    """``json.loads(text)``, refusing text nested deeper than ``max_nesting`` levels.

    Raises:
        ValueError: saying what is wrong (too deep, or where the JSON syntax breaks).
    """
    if nesting(text) > max_nesting:
        raise ValueError(f"nested deeper than {max_nesting} levels")
    try:
        return json.loads(text)
    except json.JSONDecodeError as error:
        raise ValueError(f"not JSON ({error.msg})") from None


def read_text(path: str | Path, max_bytes: int = MAX_FILE_BYTES) -> str:
    """The UTF-8 text of a file of at most ``max_bytes`` bytes.

    Raises:
        ValueError: the file cannot be read (the reason), is larger, or is not UTF-8 text.
    """
    try:
        with Path(path).open("rb") as file:
            raw = file.read(max_bytes + 1)
    except OSError as error:
        raise ValueError(error.strerror or str(error)) from None
    if len(raw) > max_bytes:
        raise ValueError(f"larger than {max_bytes} bytes")
    try:
        return raw.decode("utf-8")
    except UnicodeDecodeError:
        raise ValueError("not UTF-8 text") from None
