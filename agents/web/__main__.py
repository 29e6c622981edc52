"""``python -m agents.web``: the same as ``boon serve``."""

from __future__ import annotations

import argparse
import sys
from collections.abc import Sequence

from agents.web.cli import add_arguments, run


def main(argv: Sequence[str] | None = None) -> int:
    """Parse the arguments, serve until interrupted; returns the exit status."""
    parser = argparse.ArgumentParser(prog="python -m agents.web", description=run.__doc__)
    add_arguments(parser)
    args = parser.parse_args(argv)
    try:
        run(args)
    except ValueError as error:
        print(f"{parser.prog}: error: {error}", file=sys.stderr)
        return 2
    return 0


if __name__ == "__main__":
    sys.exit(main())
